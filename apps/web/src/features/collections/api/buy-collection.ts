/**
 * Buying (product §17): two calls behind one button. POST /sl/v1/collection/buy {collection_id, code?}
 * (a discount code, product §28) returns the buyer's order for that collection (the same one on every repeat); then
 * POST /api/uc/v1/account/order/pay {order_id} settles it (a paid order is returned unchanged), so
 * a retry after a dropped answer never charges twice. Afterwards the collection's detail, the
 * purchases, the orders, the balance (['assets']) and the current user are refetched.
 */
import type { Order } from '@coffer/contract';
import { ErrorReason, OrderStatus } from '@coffer/contract/constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { ApiError, callApi, toastError } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';
import { resourceKeys } from './keys';

export async function buyCollection(input: { collectionId: string; code?: string }): Promise<Order> {
  const order = await callApi('collectionBuy', {
    collection_id: input.collectionId,
    ...(input.code ? { code: input.code } : {}),
  });
  if (order.status === OrderStatus.Paid) return order;
  return callApi('orderPay', { order_id: order.id });
}

/** True when a failure means the balance is too low (the dialog then offers Top-up). */
export function isInsufficientBalance(error: unknown): boolean {
  return error instanceof ApiError && error.reason === ErrorReason.INSUFFICIENT_BALANCE;
}

export function useBuyCollection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: buyCollection,
    onSuccess: () => toast.success('Purchase successful! Your files are ready to download.'),
    onError: (err) => {
      if (!isInsufficientBalance(err)) toastError(err, 'Failed to buy the collection');
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.collections });
      void client.invalidateQueries({ queryKey: resourceKeys.all });
      void client.invalidateQueries({ queryKey: queryKeys.assets });
      void client.invalidateQueries({ queryKey: queryKeys.user });
      void client.invalidateQueries({ queryKey: queryKeys.transactions });
    },
  });
}

/**
 * Refunds (product §25): the buyer's POST /api/uc/v1/account/order/refund/request {order_id, reason}
 * (refunded at once within 14 days when nothing was downloaded, else the request waits for the
 * seller) and the seller's POST /api/uc/v1/account/order/refund {order_id, reason?} (a full refund).
 * Both answer the order; afterwards the collections (details, purchases, orders, sales), the balance,
 * the user and the transactions are refetched.
 */
import type { Order } from '@coffer/contract';
import { OrderStatus } from '@coffer/contract/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useIdempotentMutation } from '@/lib/idempotency';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';
import { resourceKeys } from '@/lib/market-keys';

export function requestRefund(input: { orderId: string; reason: string }, idempotencyKey?: string): Promise<Order> {
  return callApi(
    'orderRefundRequest',
    { order_id: input.orderId, reason: input.reason },
    idempotencyKey ? { idempotencyKey } : {},
  );
}

export function refundOrder(input: { orderId: string; reason?: string }, idempotencyKey?: string): Promise<Order> {
  return callApi(
    'orderRefund',
    { order_id: input.orderId, ...(input.reason ? { reason: input.reason } : {}) },
    idempotencyKey ? { idempotencyKey } : {},
  );
}

function useRefetchAfterRefund() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: queryKeys.collections });
    void client.invalidateQueries({ queryKey: resourceKeys.all });
    void client.invalidateQueries({ queryKey: queryKeys.assets });
    void client.invalidateQueries({ queryKey: queryKeys.user });
    void client.invalidateQueries({ queryKey: queryKeys.transactions });
  };
}

/** The buyer's request; the toast says whether it was refunded at once or waits for the seller. */
export function useRequestRefund() {
  const refetch = useRefetchAfterRefund();
  return useIdempotentMutation(requestRefund, {
    onSuccess: (order) =>
      toast.success(
        order.status === OrderStatus.Refunded
          ? 'Refunded. The points are back in your balance.'
          : 'Refund requested. The seller will review it.',
      ),
    onError: (err) => toastError(err, 'Failed to request a refund'),
    onSettled: refetch,
  });
}

/** The seller's refund. */
export function useRefundOrder() {
  const refetch = useRefetchAfterRefund();
  return useIdempotentMutation(refundOrder, {
    onSuccess: () => toast.success('Order refunded'),
    onError: (err) => toastError(err, 'Failed to refund the order'),
    onSettled: refetch,
  });
}

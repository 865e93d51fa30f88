/**
 * "This wasn't me" (product.md §30.6): POST /api/uc/v1/account/order/report {order_id, details}
 * (details up to ORDER_REPORT_DETAILS_MAX characters, may be empty) reports a paid order as not made
 * by the buyer while its proceeds are pending; the answer is the order with `reported_at`, and its
 * proceeds stop clearing until Coffer's team decides. After clearance the server answers 409 CONFLICT
 * (the dialog shows its msg). Afterwards the orders are refetched.
 */
import type { Order } from '@coffer/contract';
import { OrderStatus } from '@coffer/contract/constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys } from '@/lib/market-keys';

export function reportOrder(input: { orderId: string; details: string }): Promise<Order> {
  return callApi('orderReport', { order_id: input.orderId, details: input.details });
}

/**
 * Whether the buyer can still report `order` at `now` (ms): paid, its proceeds pending (`clears_at`
 * in the future, not cleared) and not reported already.
 */
export function isReportable(order: Order, now: number): boolean {
  return (
    order.status === OrderStatus.Paid &&
    typeof order.clears_at === 'number' &&
    order.clears_at > now &&
    !order.cleared_at &&
    !order.reported_at
  );
}

/** The report; failures are the dialog's to show (inline), so this toasts nothing. */
export function useReportOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: reportOrder,
    onSettled: () => client.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}

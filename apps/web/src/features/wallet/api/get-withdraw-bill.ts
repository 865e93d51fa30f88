/**
 * POST /api/uc/v1/account/withdraw/bill/detail {user_id, bill_id} (product §7): a cash-out bill, for
 * the withdrawal detail view opened from a record row.
 */
import type { WithdrawBill } from '@coffer/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';
import { MISSING_BILL_INFO } from './get-deposit-bill';

/** product §8 "Cash-out": the detail failed to load. */
export const WITHDRAW_DETAIL_FAILED = 'Failed to fetch transaction details';

export async function getWithdrawBill(
  userId: string | undefined,
  billId: string | undefined,
  signal?: AbortSignal,
): Promise<WithdrawBill> {
  if (!userId || !billId) throw new Error(MISSING_BILL_INFO);
  const data = await callApi('withdrawBillDetail', { user_id: userId, bill_id: billId }, { signal });
  return data.bill;
}

export function useWithdrawBill(userId: string, billId: string | null) {
  return useQuery({
    queryKey: [...queryKeys.transactions, 'withdraw-bill', billId] as const,
    queryFn: ({ signal }) => getWithdrawBill(userId, billId ?? undefined, signal),
    enabled: Boolean(userId && billId),
    staleTime: 0,
    gcTime: 0,
  });
}

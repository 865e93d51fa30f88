/**
 * POST /api/uc/v1/account/deposit/bill/detail {user_id, bill_id} (product §7): a top-up bill, used by
 * Check Payment Status and by the bill detail opened from a record row.
 */
import type { DepositBill } from '@coffer/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';

/** product §8 "Top-up and orders". */
export const MISSING_BILL_INFO = 'Missing user or bill information';

/** @throws Error 'Missing user or bill information' without either id; ApiError on a failed call */
export async function getDepositBill(
  userId: string | undefined,
  billId: string | undefined,
  signal?: AbortSignal,
): Promise<DepositBill> {
  if (!userId || !billId) throw new Error(MISSING_BILL_INFO);
  const data = await callApi('depositBillDetail', { user_id: userId, bill_id: billId }, { signal });
  return (data?.bill ?? data) as DepositBill;
}

export function useDepositBill(userId: string, billId: string | null) {
  return useQuery({
    queryKey: [...queryKeys.transactions, 'deposit-bill', billId] as const,
    queryFn: ({ signal }) => getDepositBill(userId, billId ?? undefined, signal),
    enabled: Boolean(userId && billId),
    staleTime: 0,
    gcTime: 0,
  });
}

/**
 * POST /api/uc/v1/account/withdraw/create {currency, amount (points, up to 8 decimals), address,
 * network, memo, user_id} (product §7): a bill awaiting the password; balances do not change yet.
 */
import type { WithdrawBill } from '@coffer/contract';
import { useIdempotentMutation } from '@/lib/idempotency';
import { callApi } from '@/lib/api-client';

export interface CreateWithdrawInput {
  currency: string;
  amount: string;
  address: string;
  network: string;
  /** '' when the currency needs none (product §3: default empty). */
  memo: string;
  user_id: string;
}

/** product §8 fallback of a failed create. */
export const CREATE_WITHDRAW_FAILED = 'Failed to create withdraw order';

/** @throws Error when a product §5 precondition is missing; ApiError on a failed call */
export async function createWithdraw(input: CreateWithdrawInput, idempotencyKey?: string): Promise<WithdrawBill> {
  if (!input.currency || !input.address || !input.amount || !input.network || !input.user_id)
    throw new Error(CREATE_WITHDRAW_FAILED);
  const data = await callApi(
    'withdrawCreate',
    {
      ...input,
      memo: input.memo ?? '',
    },
    idempotencyKey ? { idempotencyKey } : {},
  );
  return (data?.bill ?? data) as WithdrawBill;
}

/** One cash-out bill per intended cash-out: keyed and sent once per click (lib/idempotency.ts). */
export function useCreateWithdraw() {
  return useIdempotentMutation(createWithdraw);
}

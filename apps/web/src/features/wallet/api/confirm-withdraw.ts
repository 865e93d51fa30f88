/**
 * POST /api/uc/v1/account/withdraw/confirm {bill_id, password (MD5 hex), code?} (product §7): freezes
 * the amount and hands the bill to the payout job. `code` is the two-factor code, needed when
 * two-factor sign-in is on (product §26; the server answers TWO_FACTOR_REQUIRED without it).
 */
import { PaymentMessages, type WithdrawBill } from '@coffer/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { hashPassword } from '@/lib/md5';

/** product §8 fallback of a failed confirm. */
export const CONFIRM_FAILED = 'Confirm failed';

/** @throws Error 'Password required' without bill or password; ApiError on a failed call */
export async function confirmWithdraw(input: { billId: string; password: string; code?: string }): Promise<WithdrawBill> {
  if (!input.billId || !input.password) throw new Error(PaymentMessages.passwordRequired);
  const code = input.code?.trim();
  const data = await callApi('withdrawConfirm', {
    bill_id: input.billId,
    password: await hashPassword(input.password),
    ...(code ? { code } : {}),
  });
  return data.bill;
}

export function useConfirmWithdraw() {
  return useMutation({ mutationFn: confirmWithdraw });
}

/**
 * POST /api/uc/v1/account/deposit {amount (points, 2 decimals), pay_currency} (product §7): creates a
 * top-up bill; the modal moves to step 2 once the answer carries a bill id.
 */
import { PaymentMessages, type DepositBill } from '@coffer/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

export interface CreateDepositInput {
  /** Points, 2 decimals, e.g. '2500.00'. */
  amount: string;
  /** Currency code, e.g. 'usdttrc20'. */
  pay_currency: string;
}

/** Sends `input` with the action's Idempotency-Key (one bill per Continue, however often it is sent). */
export interface CreateDepositCall extends CreateDepositInput {
  idempotencyKey?: string;
}

/**
 * @returns the bill (read from `data.bill`, or `data` itself when it is the bill)
 * @throws Error 'Amount and currency are required' (product §8) when either is missing; ApiError
 */
export async function createDeposit(call: CreateDepositCall): Promise<DepositBill> {
  const { idempotencyKey, ...input } = call;
  if (!input.amount || !input.pay_currency) throw new Error(PaymentMessages.amountAndCurrencyRequired);
  const data = await callApi('deposit', input, idempotencyKey ? { idempotencyKey } : {});
  return (data?.bill ?? data) as DepositBill;
}

export function useCreateDeposit() {
  return useMutation({ mutationFn: createDeposit });
}

/**
 * POST /api/uc/v1/account/withdraw/estimate/fee {currency, amount (points)} (product §7): amount,
 * fee (crypto) and fiat_equivalent (fee in USD). Run on demand only (product §4).
 */
import { PaymentMessages, type FeeEstimateResult } from '@coffer/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

/** @throws Error 'currency & amount required' (product §8) when either is missing; ApiError */
export async function estimateWithdrawFee(input: { currency: string; amount: string }): Promise<FeeEstimateResult> {
  if (!input.currency || !input.amount) throw new Error(PaymentMessages.currencyAndAmountRequired);
  const data = await callApi('withdrawEstimateFee', input);
  return data.result;
}

export function useEstimateWithdrawFee() {
  return useMutation({ mutationFn: estimateWithdrawFee });
}

/**
 * POST /api/uc/v1/account/deposit/min-amount {currency_from} (product §7): min_amount (points),
 * currency_min_amount (crypto), fiat_equivalent (USD). Never cached (product §9).
 */
import { PaymentMessages, type MinAmountResult } from '@coffer/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';

/** @throws Error 'Currency is required' (product §8) without a currency; ApiError on a failed call */
export async function getMinAmount(currency: string, signal?: AbortSignal): Promise<MinAmountResult> {
  if (!currency) throw new Error(PaymentMessages.currencyRequired);
  const data = await callApi('depositMinAmount', { currency_from: currency }, { signal });
  return data.result;
}

export function getMinAmountQueryOptions(currency: string) {
  return {
    queryKey: [...queryKeys.currencies, 'min-amount', currency] as const,
    queryFn: ({ signal }: { signal?: AbortSignal }) => getMinAmount(currency, signal),
    staleTime: 0,
    gcTime: 0,
  };
}

export function useMinAmount(currency: string | undefined) {
  return useQuery({ ...getMinAmountQueryOptions(currency ?? ''), enabled: Boolean(currency) });
}

/**
 * POST /api/uc/v1/account/currency/list (product §7): the active provider's currencies, cached 5 min
 * (product §9). The answer is read as `data.currencies`, or as a bare list.
 */
import type { Currency } from '@coffer/contract';
import { CURRENCY_LIST_CACHE_MS, WITHDRAW_ASSET } from '@coffer/contract/constants';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';

export async function getCurrencies(signal?: AbortSignal): Promise<Currency[]> {
  const data = await callApi('currencyList', {}, { signal });
  if (Array.isArray(data)) return data;
  return data?.currencies ?? [];
}

export function getCurrenciesQueryOptions() {
  return queryOptions({
    queryKey: [...queryKeys.currencies, 'list'] as const,
    queryFn: ({ signal }) => getCurrencies(signal),
    staleTime: CURRENCY_LIST_CACHE_MS,
    gcTime: CURRENCY_LIST_CACHE_MS * 2,
  });
}

export function useCurrencies() {
  return useQuery(getCurrenciesQueryOptions());
}

/** product §3: withdrawals use only USDT entries. */
export function withdrawCurrencies(currencies: Currency[]): Currency[] {
  return currencies.filter(
    (c) => c.symbol.toUpperCase() === WITHDRAW_ASSET || c.code.toLowerCase().startsWith(WITHDRAW_ASSET.toLowerCase()),
  );
}

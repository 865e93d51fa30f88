/**
 * POST /sl/v1/my/sales/dashboard {days: 7 | 30 | 90} -> the seller's per-UTC-day series (sales,
 * earned, refunds, refunded; points as 2-decimal strings), totals, top collections and downloads per
 * collection (product §29).
 */
import type { SalesDashboard, SalesDashboardDays } from '@coffer/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys } from '@/lib/market-keys';

export type { SalesDashboard };

export function getSalesDashboard(days: SalesDashboardDays, signal?: AbortSignal): Promise<SalesDashboard> {
  return callApi('mySalesDashboard', { days }, { signal });
}

export function getSalesDashboardQueryOptions(days: SalesDashboardDays) {
  return queryOptions({
    queryKey: collectionKeys.dashboard(days),
    queryFn: ({ signal }) => getSalesDashboard(days, signal),
    placeholderData: keepPreviousData,
  });
}

export function useSalesDashboard(enabled: boolean, days: SalesDashboardDays) {
  return useQuery({ ...getSalesDashboardQueryOptions(days), enabled });
}

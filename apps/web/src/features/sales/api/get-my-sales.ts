/**
 * POST /sl/v1/my/sales {paginator {page, size}, pending_requests} -> {orders, count} and the paging
 * fields (product §25): orders of the caller's collections with the buyer and any refund request;
 * `pending_requests` keeps only paid orders whose buyer asked for a refund.
 */
import type { SalesPage } from '@coffer/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys, type PageParams } from '@/lib/market-keys';

export type { SalesPage };

export function getMySales(p: PageParams & { pendingRequests: boolean }, signal?: AbortSignal): Promise<SalesPage> {
  return callApi('mySales', { paginator: { page: p.page, size: p.size }, pending_requests: p.pendingRequests }, { signal });
}

export function getMySalesQueryOptions(p: PageParams & { pendingRequests: boolean }) {
  return queryOptions({
    queryKey: collectionKeys.sales(p),
    queryFn: ({ signal }) => getMySales(p, signal),
    placeholderData: keepPreviousData,
  });
}

export function useMySales(enabled: boolean, pendingRequests: boolean, p: PageParams) {
  return useQuery({ ...getMySalesQueryOptions({ ...p, pendingRequests }), enabled });
}

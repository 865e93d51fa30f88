/**
 * POST /sl/v1/market/collections {paginator, q?, sort?} -> {collections, count, page, size, totalCount, totalPages, hasNextPage} (product §17):
 * published collections for the storefront.
 */
import type { CollectionPage, MarketSort } from '@coffer/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys, type PageParams } from '@/lib/market-keys';

export type MarketParams = PageParams & { q: string; sort: MarketSort };

export function getMarketCollections(p: MarketParams, signal?: AbortSignal): Promise<CollectionPage> {
  const q = p.q.trim();
  return callApi(
    'marketCollections',
    { paginator: { page: p.page, size: p.size }, sort: p.sort, ...(q ? { q } : {}) },
    { signal },
  );
}

export function getMarketCollectionsQueryOptions(p: MarketParams) {
  return queryOptions({
    queryKey: collectionKeys.market(p),
    queryFn: ({ signal }) => getMarketCollections(p, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useMarketCollections(p: MarketParams) {
  return useQuery(getMarketCollectionsQueryOptions(p));
}

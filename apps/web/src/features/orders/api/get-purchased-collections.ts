/** POST /sl/v1/my/purchased/collections {paginator} -> {collections, count, page, size, totalCount, totalPages, hasNextPage} (product §7): what the caller bought. */
import type { CollectionPage } from '@coffer/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys, type PageParams } from '@/lib/market-keys';

export function getPurchasedCollections(p: PageParams, signal?: AbortSignal): Promise<CollectionPage> {
  return callApi('myPurchasedCollections', { paginator: { page: p.page, size: p.size } }, { signal });
}

export function getPurchasedCollectionsQueryOptions(p: PageParams) {
  return queryOptions({
    queryKey: collectionKeys.purchased(p),
    queryFn: ({ signal }) => getPurchasedCollections(p, signal),
    placeholderData: keepPreviousData,
  });
}

export function usePurchasedCollections(enabled: boolean, p: PageParams) {
  return useQuery({ ...getPurchasedCollectionsQueryOptions(p), enabled });
}

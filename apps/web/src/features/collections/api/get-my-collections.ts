/**
 * POST /sl/v1/my/collections {paginator {page, size}} -> {collections, count, page, size, totalCount, totalPages, hasNextPage} (product §7): the
 * signed-in user's collections, newest first. Fetched only when a user id exists (product §6).
 */
import type { CollectionPage } from '@coffer/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys, type PageParams } from '@/lib/market-keys';

export function getMyCollections(p: PageParams, signal?: AbortSignal): Promise<CollectionPage> {
  return callApi('myCollections', { paginator: { page: p.page, size: p.size } }, { signal });
}

export function getMyCollectionsQueryOptions(p: PageParams) {
  return queryOptions({
    queryKey: collectionKeys.minePage(p),
    queryFn: ({ signal }) => getMyCollections(p, signal),
    placeholderData: keepPreviousData,
  });
}

/** The page of the caller's collections; disabled without a user id. */
export function useMyCollections(userId: string | null | undefined, p: PageParams) {
  return useQuery({ ...getMyCollectionsQueryOptions(p), enabled: Boolean(userId) });
}

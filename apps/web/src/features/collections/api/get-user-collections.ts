/** POST /sl/v1/user/collections {user_id, paginator} -> {collections, count, page, size, totalCount, totalPages, hasNextPage}: a user's published collections (product §17). */
import type { CollectionPage } from '@coffer/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys, type PageParams } from '@/lib/market-keys';

export function getUserCollections(userId: string, p: PageParams, signal?: AbortSignal): Promise<CollectionPage> {
  return callApi('userCollections', { user_id: userId, paginator: { page: p.page, size: p.size } }, { signal });
}

export function getUserCollectionsQueryOptions(userId: string, p: PageParams) {
  return queryOptions({
    queryKey: collectionKeys.user(userId, p),
    queryFn: ({ signal }) => getUserCollections(userId, p, signal),
    placeholderData: keepPreviousData,
  });
}

export function useUserCollections(userId: string | null | undefined, p: PageParams) {
  return useQuery({ ...getUserCollectionsQueryOptions(userId ?? '', p), enabled: Boolean(userId) });
}

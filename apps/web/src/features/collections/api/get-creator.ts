/**
 * POST /sl/v1/creator/detail {user_id, paginator} -> {creator, rating_sum, rating_count, collections,
 * count, page, size, totalCount, totalPages, hasNextPage}: a seller's public page (no sign-in).
 * 404 NOT_FOUND for a user who does not exist, deleted their account or is suspended.
 */
import type { CreatorDetail } from '@coffer/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys, type PageParams } from '@/lib/market-keys';

export function getCreatorDetail(userId: string, p: PageParams, signal?: AbortSignal): Promise<CreatorDetail> {
  return callApi('creatorDetail', { user_id: userId, paginator: { page: p.page, size: p.size } }, { signal });
}

export function getCreatorDetailQueryOptions(userId: string, p: PageParams) {
  return queryOptions({
    queryKey: collectionKeys.creator(userId, p),
    queryFn: ({ signal }) => getCreatorDetail(userId, p, signal),
    // Another page keeps the header and the previous cards until it arrives.
    placeholderData: keepPreviousData,
  });
}

/** Page `p` of the creator `userId`'s public page. */
export function useCreatorDetail(userId: string, p: PageParams) {
  return useQuery(getCreatorDetailQueryOptions(userId, p));
}

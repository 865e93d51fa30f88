/**
 * POST /sl/v1/review/list {collection_id, paginator {page, size}} -> {reviews, mine, can_review} and the
 * paging fields (product §29): counted reviews newest first; `mine` is the caller's own review.
 */
import type { ReviewPage } from '@coffer/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys, type PageParams } from '@/lib/market-keys';

export type { ReviewPage };

export function getReviews(id: string, p: PageParams, signal?: AbortSignal): Promise<ReviewPage> {
  return callApi('reviewList', { collection_id: id, paginator: { page: p.page, size: p.size } }, { signal });
}

export function getReviewsQueryOptions(id: string, p: PageParams, viewerId: string | null) {
  return queryOptions({
    queryKey: collectionKeys.reviewsPage(id, p, viewerId ?? 'visitor'),
    queryFn: ({ signal }) => getReviews(id, p, signal),
    placeholderData: keepPreviousData,
  });
}

export function useReviews(id: string, p: PageParams, viewerId: string | null) {
  return useQuery(getReviewsQueryOptions(id, p, viewerId));
}

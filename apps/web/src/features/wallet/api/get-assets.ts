/**
 * POST /api/uc/v1/account/assets {user_id} (product §7): the balance `{available, freeze}` in points
 * (decimal strings), with the seller's `pending` proceeds and `pending_clears_at` (ms, when the next
 * pending amount clears; product.md §30). Stale after 1 min (product §9 "Assets query"); key ['assets', userId].
 */
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';

export function getAssetsQueryOptions(userId: string) {
  return {
    queryKey: [...queryKeys.assets, userId] as const,
    queryFn: async ({ signal }: { signal?: AbortSignal }) => (await callApi('assets', { user_id: userId }, { signal })).asset,
    staleTime: 60_000,
  };
}

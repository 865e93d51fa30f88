/**
 * POST /sl/v1/creator {user_id} -> {creator, published, sold, rating_sum, rating_count}: a seller's
 * public page (the creator page, /creator/:id). Public: visitors and signed-in users alike.
 */
import type { CreatorData } from '@coffer/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys } from './keys';

export function useCreator(userId: string) {
  return useQuery({
    queryKey: [...collectionKeys.all, 'creator', userId] as const,
    queryFn: ({ signal }): Promise<CreatorData> => callApi('creator', { user_id: userId }, { signal }),
    staleTime: 30_000,
  });
}

/**
 * POST /sl/v1/review/upsert {collection_id, rating 1-5, text?} -> {review} (product §29): the buyer's
 * review, written or edited. Afterwards the collection's detail (average, count), the market pages and
 * the reviews are refetched.
 */
import type { Review } from '@coffer/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { collectionKeys } from '@/lib/market-keys';

export function upsertReview(input: { collectionId: string; rating: number; text: string }): Promise<{ review: Review }> {
  return callApi('reviewUpsert', { collection_id: input.collectionId, rating: input.rating, text: input.text });
}

export function useUpsertReview(edit: boolean) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: upsertReview,
    onSuccess: () => toast.success(edit ? 'Review updated' : 'Thanks for your review!'),
    onError: (err) => toastError(err, 'Failed to save your review'),
    onSettled: () => client.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}

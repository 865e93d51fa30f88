/** POST /sl/v1/review/reply {review_id, text} -> {review} (product §29): the seller's one reply. */
import type { Review } from '@coffer/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { collectionKeys } from '@/lib/market-keys';

export function replyToReview(input: { reviewId: string; text: string }): Promise<{ review: Review }> {
  return callApi('reviewReply', { review_id: input.reviewId, text: input.text });
}

export function useReplyToReview(collectionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: replyToReview,
    onSuccess: () => toast.success('Reply posted'),
    onError: (err) => toastError(err, 'Failed to post your reply'),
    onSettled: () => client.invalidateQueries({ queryKey: collectionKeys.reviews(collectionId) }),
  });
}

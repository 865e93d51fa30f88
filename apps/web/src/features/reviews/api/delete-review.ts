/** POST /sl/v1/review/delete {review_id} -> {} (product §29): the author removes their review. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { collectionKeys } from '@/lib/market-keys';

export function deleteReview(reviewId: string): Promise<Record<string, never>> {
  return callApi('reviewDelete', { review_id: reviewId });
}

export function useDeleteReview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteReview,
    onSuccess: () => toast.success('Review deleted'),
    onError: (err) => toastError(err, 'Failed to delete your review'),
    onSettled: () => client.invalidateQueries({ queryKey: collectionKeys.all }),
  });
}

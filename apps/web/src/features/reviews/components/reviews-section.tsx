/**
 * The reviews of a collection (product §29) on its detail page: the average and count, the review
 * form for a buyer who may review (prefilled to edit their own), the reviews newest first with the
 * seller's replies, paged; the seller's reply form under each review without a reply. A refunded
 * buyer sees their review marked (it no longer counts).
 */
import type { Collection, Review } from '@coffer/contract';
import { REVIEW_TEXT_MAX, REVIEWS_PAGE_SIZE } from '@coffer/contract/constants';
import { MessageSquare } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { inputClasses } from '@/components/ui/input';
import { Pagination, pagingOf } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { useDeleteReview } from '../api/delete-review';
import { useReviews } from '../api/get-reviews';
import { useReplyToReview } from '../api/reply-review';
import { useUpsertReview } from '../api/upsert-review';
import { RatingSummary, StarInput, Stars } from '@/components/ui/star-rating';
import { LoadError } from '@/components/ui/load-error';

export const ReviewTexts = {
  heading: 'Reviews',
  empty: 'No reviews yet',
  emptyBody: 'Buyers of this collection can rate it from 1 to 5 stars.',
  emptyFirst: 'Be the first to rate this collection.',
  write: 'Write a review',
  edit: 'Edit your review',
  submit: 'Post review',
  update: 'Update review',
  pickRating: 'Please pick a rating',
  reply: 'Reply',
  postReply: 'Post reply',
  sellerReply: 'Reply from the seller',
  refunded: 'Refunded: this review no longer counts',
} as const;

const textareaClasses = cn(inputClasses, 'min-h-24 resize-y');

function ReviewForm({ collectionId, mine }: { collectionId: string; mine: Review | null }) {
  const [rating, setRating] = useState(mine?.rating ?? 0);
  const [text, setText] = useState(mine?.text ?? '');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const upsert = useUpsertReview(Boolean(mine));
  const remove = useDeleteReview();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (rating < 1) return setError(ReviewTexts.pickRating);
    setError(null);
    upsert.mutate({ collectionId, rating, text: text.trim() });
  };
  return (
    <Card className="p-4 sm:p-5">
      <form onSubmit={submit} className="space-y-3" aria-label={mine ? ReviewTexts.edit : ReviewTexts.write}>
        <h3 className="font-medium text-slate-900 dark:text-white">{mine ? ReviewTexts.edit : ReviewTexts.write}</h3>
        <StarInput value={rating} onChange={setRating} />
        {error ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        ) : null}
        <div className="space-y-1.5">
          <label htmlFor={`review-text-${collectionId}`} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            Your review (optional)
          </label>
          <textarea
            id={`review-text-${collectionId}`}
            className={textareaClasses}
            maxLength={REVIEW_TEXT_MAX}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="What did you like? What could be better?"
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" isLoading={upsert.isPending}>
            {mine ? ReviewTexts.update : ReviewTexts.submit}
          </Button>
          {mine && !confirming ? (
            <Button variant="ghost" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          ) : null}
          {mine && confirming ? (
            <>
              <Button variant="danger" isLoading={remove.isPending} onClick={() => remove.mutate(mine.id)}>
                Delete my review
              </Button>
              <Button variant="ghost" onClick={() => setConfirming(false)}>
                Keep it
              </Button>
            </>
          ) : null}
        </div>
      </form>
    </Card>
  );
}

function ReplyForm({ review, collectionId }: { review: Review; collectionId: string }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const reply = useReplyToReview(collectionId);
  if (!open) {
    return (
      <Button variant="ghost" size="sm" className="mt-2 -ml-3" onClick={() => setOpen(true)}>
        <MessageSquare className="size-4" aria-hidden="true" />
        {ReviewTexts.reply}
      </Button>
    );
  }
  const id = `reply-${review.id}`;
  return (
    <form
      className="mt-3 space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) reply.mutate({ reviewId: review.id, text: text.trim() });
      }}
    >
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        Your reply (you can reply once)
      </label>
      <textarea
        id={id}
        className={textareaClasses}
        maxLength={REVIEW_TEXT_MAX}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="flex gap-2">
        <Button type="submit" size="sm" isLoading={reply.isPending} disabled={!text.trim()}>
          {ReviewTexts.postReply}
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function ReviewItem({ review, canReply, collectionId }: { review: Review; canReply: boolean; collectionId: string }) {
  return (
    <li className="py-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="sr-only">{`${review.rating} out of 5 stars`}</span>
        <Stars value={review.rating} />
        <span className="max-w-full min-w-0 truncate text-sm font-medium text-slate-900 dark:text-white" title={review.author.nickname || undefined}>
          {review.author.nickname || 'Buyer'}
        </span>
        <time className="text-xs text-slate-500 dark:text-slate-400" dateTime={new Date(review.created_at).toISOString()}>
          {formatDate(review.created_at)}
          {review.updated_at !== review.created_at ? ' (edited)' : ''}
        </time>
        {review.refunded ? <Badge tone="blue">{ReviewTexts.refunded}</Badge> : null}
      </div>
      {review.text ? <p className="mt-2 text-sm whitespace-pre-line wrap-anywhere text-slate-700 dark:text-slate-300">{review.text}</p> : null}
      {review.reply ? (
        <div className="mt-3 rounded-xl border-l-2 border-brand-500 bg-slate-50 px-4 py-3 dark:bg-slate-900">
          <p className="text-xs font-medium text-slate-500 dark:text-slate-400">
            {ReviewTexts.sellerReply} · {formatDate(review.reply.created_at)}
          </p>
          <p className="mt-1 text-sm whitespace-pre-line wrap-anywhere text-slate-700 dark:text-slate-300">{review.reply.text}</p>
        </div>
      ) : canReply ? (
        <ReplyForm review={review} collectionId={collectionId} />
      ) : null}
    </li>
  );
}

export function ReviewsSection({
  collection,
  viewerId,
  isOwner,
}: {
  collection: Collection;
  viewerId: string | null;
  isOwner: boolean;
}) {
  const [page, setPage] = useState({ page: 0, size: REVIEWS_PAGE_SIZE });
  const query = useReviews(collection.id, page, viewerId);
  const data = query.data;
  const paging = pagingOf(data);
  const mine = data?.mine ?? null;
  return (
    <section aria-labelledby="reviews-heading" className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="reviews-heading" className="font-semibold text-slate-900 dark:text-white">
          {ReviewTexts.heading}
        </h2>
        {collection.rating_count > 0 ? <RatingSummary sum={collection.rating_sum} count={collection.rating_count} /> : null}
      </div>
      {data?.can_review ? <ReviewForm key={mine?.id ?? 'new'} collectionId={collection.id} mine={mine} /> : null}
      {mine?.refunded ? (
        <Card className="p-4">
          <ul>
            <ReviewItem review={mine} canReply={false} collectionId={collection.id} />
          </ul>
        </Card>
      ) : null}
      {query.isPending ? (
        <div role="status" aria-label="Loading reviews" className="space-y-3">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : query.isError ? (
        <LoadError message={getErrorMessage(query.error, 'Failed to load reviews')} onRetry={() => void query.refetch()} />
      ) : data && data.reviews.length > 0 ? (
        <Card className="px-4 sm:px-5">
          <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Reviews, newest first">
            {data.reviews.map((r) => (
              <ReviewItem key={r.id} review={r} canReply={isOwner} collectionId={collection.id} />
            ))}
          </ul>
        </Card>
      ) : (
        <EmptyState
          icon={<MessageSquare />}
          title={ReviewTexts.empty}
          description={data?.can_review ? ReviewTexts.emptyFirst : ReviewTexts.emptyBody}
        />
      )}
      {paging.totalPages > 1 ? (
        <Pagination
          {...paging}
          page={page.page}
          size={page.size}
          noun="reviews"
          onPageChange={(p) => setPage((s) => ({ ...s, page: p }))}
          onSizeChange={(size) => setPage({ page: 0, size })}
        />
      ) : null}
    </section>
  );
}

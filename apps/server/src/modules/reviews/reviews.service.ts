/**
 * Reviews (product §29, docs/decisions/0031-reviews-and-sales-dashboard.md).
 *
 * - `review/upsert` {collection_id, rating 1-5, text?}: a buyer with a paid (not refunded) order of
 *   the collection writes one review, then edits it (rating and text replaced, `updated_at` moves,
 *   the list order stays by creation). The owner cannot review their own collection (FORBIDDEN).
 * - `review/list` {collection_id, paginator}: public for whoever may see the collection; counted
 *   reviews, newest first (ties by id), as a page (product §3 Pagination), plus the caller's own
 *   review (`mine`) and whether they may write one (`can_review`).
 * - `review/reply` {review_id, text}: the collection's seller answers a review once (CONFLICT after).
 * - `review/delete` {review_id}: the author removes their review (repeating is harmless).
 *
 * Every change runs in one transaction: the buyer's paid order is share-locked (a refund waits), the
 * review row is written, the collection's `rating_sum`/`rating_count` move through the collections
 * service (which empties the public read cache, again after COMMIT), and the seller's `review` event
 * is appended last (ADR 0025). A refund marks the buyer's review refunded in the refund's transaction
 * (`refunded`, below): it leaves the average and the public list, and its author still sees it.
 *
 * Errors: NOT_FOUND (no such visible collection or review), FORBIDDEN (not a paid buyer, the owner,
 * not the seller, not the author), CONFLICT (already replied), VALIDATION_FAILED (bad input: 400).
 */
import { SellerEventType, type Review, type ReviewUpsertRequest } from '@coffer/contract';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toPage } from '../../lib/page';
import type { CollectionsService } from '../collections/collections.service';
import type { EventWriter } from '../events/events.service';
import * as repo from './reviews.repository';

/** What the reviews service asks of the orders module (orders.service.ts builds it; services.ts hands it over). */
export interface PaidOrderLock {
  /** The buyer's paid order of the collection, share-locked in `tx`, or null. */
  lockPaid(tx: Tx, buyerId: string, collectionId: string): Promise<{ id: string } | null>;
  /** True when the buyer has a paid order of the collection. */
  hasPaid(buyerId: string, collectionId: string): Promise<boolean>;
}

export interface ReviewsDeps {
  db: Db;
  clock: Clock;
  collections: CollectionsService;
  orders: PaidOrderLock;
  /** Writes the seller's `review` event in the review's transaction (product §23). */
  events: EventWriter;
  /** Stored avatar value -> URL. */
  avatarUrl: (stored: string) => string;
}

export function createReviewsService(deps: ReviewsDeps) {
  const { db, clock, collections, orders, events } = deps;

  function toReview(row: repo.ReviewWithAuthor): Review {
    const { r, author } = row;
    return {
      id: r.id,
      collection_id: r.collectionId,
      rating: r.rating,
      text: r.text,
      created_at: r.createdAt.getTime(),
      updated_at: r.updatedAt.getTime(),
      author: { id: author.id, nickname: author.nickname, avatar: author.avatar ? deps.avatarUrl(author.avatar) : '' },
      reply: r.reply !== null && r.repliedAt ? { text: r.reply, created_at: r.repliedAt.getTime() } : null,
      refunded: r.refundedAt !== null,
    };
  }

  /** The seller's `review` event of one version of a review (key `review:<id>:<version>` or `:deleted`). */
  function reviewEvent(sellerId: string, r: repo.ReviewRow, action: 'created' | 'updated' | 'deleted') {
    return {
      userId: sellerId,
      type: SellerEventType.Review,
      key: `review:${r.id}:${action === 'deleted' ? 'deleted' : r.version}`,
      data: {
        review_id: r.id,
        collection_id: r.collectionId,
        buyer_id: r.buyerId,
        rating: r.rating,
        text: r.text,
        action,
      },
    };
  }

  /** The review as it is now. @throws NOT_FOUND when deleted meanwhile (another tab) */
  async function reload(id: string): Promise<Review> {
    const row = await repo.findWithAuthor(db, id);
    if (!row) throw errors.notFound('The review does not exist');
    return toReview(row);
  }

  return {
    /**
     * Writes or edits the caller's review (rating whole stars 1-5, text <= 2000 characters, '' when absent).
     * @returns {review}
     * @throws NOT_FOUND (no such collection the caller may see), FORBIDDEN (owner; no paid, not refunded order)
     */
    async upsert(buyerId: string, input: ReviewUpsertRequest): Promise<{ review: Review }> {
      const c = await collections.visibleTo(buyerId, input.collection_id);
      if (c.ownerId === buyerId) throw errors.forbidden('You cannot review your own collection.');
      const text = input.text ?? '';
      const id = await db.transaction(async (tx) => {
        if (!(await orders.lockPaid(tx, buyerId, c.id))) {
          throw errors.forbidden('Only buyers of this collection can review it.');
        }
        const now = new Date(clock.now());
        // Insert, or lock the existing review; a review deleted between the two (another tab) is
        // inserted on the next turn.
        for (;;) {
          const created = await repo.insertIfAbsent(tx, {
            id: newId(),
            collectionId: c.id,
            buyerId,
            rating: input.rating,
            text,
            createdAt: now,
            updatedAt: now,
          });
          if (created) {
            await collections.applyRating(c.id, created.rating, 1, tx);
            await events.append(tx, [reviewEvent(c.ownerId, created, 'created')]);
            return created.id;
          }
          const old = await repo.lockOfBuyer(tx, buyerId, c.id);
          if (!old) continue;
          // A review marked refunded has no paid order behind it (checked above), so `old` is counted.
          const next = await repo.patch(tx, old.id, { rating: input.rating, text, updatedAt: now, version: old.version + 1 });
          if (next.rating !== old.rating) await collections.applyRating(c.id, next.rating - old.rating, 0, tx);
          await events.append(tx, [reviewEvent(c.ownerId, next, 'updated')]);
          return next.id;
        }
      });
      collections.readsChanged();
      return { review: await reload(id) };
    },

    /**
     * A collection's counted reviews, newest first, as a page; `mine` and `can_review` for the caller.
     * @throws NOT_FOUND (no such collection the caller may see)
     */
    async list(viewerId: string | null, collectionId: string, paginator: { page: number; size: number }) {
      const c = await collections.visibleTo(viewerId, collectionId);
      const { rows, count } = await repo.pageOfCollection(db, c.id, paginator.page * paginator.size, paginator.size);
      const isBuyer = viewerId !== null && viewerId !== c.ownerId;
      const [mine, paid] = isBuyer
        ? await Promise.all([repo.findOfBuyer(db, viewerId, c.id), orders.hasPaid(viewerId, c.id)])
        : [null, false];
      return {
        ...toPage('reviews', rows.map(toReview), paginator, count),
        mine: mine ? toReview(mine) : null,
        can_review: paid,
      };
    },

    /**
     * The seller's one reply (text 1-2000 characters). @returns {review}
     * @throws NOT_FOUND (no such review), FORBIDDEN (not the collection's seller), CONFLICT (replied already)
     */
    async reply(sellerId: string, reviewId: string, text: string): Promise<{ review: Review }> {
      await db.transaction(async (tx) => {
        const r = await repo.lockById(tx, reviewId);
        if (!r) throw errors.notFound('The review does not exist');
        const c = await collections.find(r.collectionId, tx);
        if (!c || c.ownerId !== sellerId) throw errors.forbidden('Only the seller of this collection can reply.');
        if (r.reply !== null) throw errors.conflict('You already replied to this review.');
        await repo.patch(tx, r.id, { reply: text, repliedAt: new Date(clock.now()) });
      });
      collections.readsChanged();
      return { review: await reload(reviewId) };
    },

    /** The author deletes their review (a deleted one answers {}). @throws FORBIDDEN (another user's review) */
    async remove(userId: string, reviewId: string): Promise<Record<string, never>> {
      await db.transaction(async (tx) => {
        const r = await repo.lockById(tx, reviewId);
        if (!r) return;
        if (r.buyerId !== userId) throw errors.forbidden('You can only delete your own review.');
        const c = (await collections.find(r.collectionId, tx))!;
        await repo.remove(tx, r.id);
        if (!r.refundedAt) await collections.applyRating(r.collectionId, -r.rating, -1, tx);
        await events.append(tx, [reviewEvent(c.ownerId, r, 'deleted')]);
      });
      collections.readsChanged();
      return {};
    },

    /**
     * For the orders module, in a refund's transaction (ADR 0031): the buyer's review of the
     * collection, if any, is marked refunded and leaves the collection's average.
     */
    async refunded(tx: Tx, buyerId: string, collectionId: string): Promise<void> {
      const r = await repo.markRefunded(tx, buyerId, collectionId, new Date(clock.now()));
      if (r) await collections.applyRating(collectionId, -r.rating, -1, tx);
    },
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;

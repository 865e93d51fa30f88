/**
 * Reviews of collections (product §29, docs/decisions/0031-reviews-and-sales-dashboard.md): one per
 * buyer and collection, editable by its author, with at most one reply of the seller.
 */
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { collections } from './collections';

export const reviews = pgTable(
  'reviews',
  {
    id: text().primaryKey(),
    collectionId: text()
      .notNull()
      .references(() => collections.id),
    buyerId: text()
      .notNull()
      .references(() => users.id),
    /** 1-5, whole stars. */
    rating: integer().notNull(),
    /** Optional text ('' when none). */
    text: text().notNull().default(''),
    /** 1 when written, + 1 on each edit (names the seller's `review` event of each version). */
    version: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** The seller's one reply (null until written). */
    reply: text(),
    repliedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /**
     * Set when the author's order was refunded: the review leaves the average and the public list,
     * and is kept (its author still sees it, marked).
     */
    refundedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('reviews_collection_buyer_uq').on(t.collectionId, t.buyerId),
    index('reviews_collection_created_idx').on(t.collectionId, t.createdAt),
  ],
);

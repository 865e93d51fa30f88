/**
 * Proof of liabilities (product §22, docs/decisions/0024-proof-of-liabilities.md): each run of
 * `npm run reserves:publish` writes one publication (root, total, reserves read on chain), the leaf
 * of every user (salt and balance, to answer that user's proof) and every node of the tree (so a
 * proof is one indexed read, not a rebuild).
 */
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** One reserve address as read at publication (the `reserves` json of a publication). */
export interface StoredReserve {
  network: string;
  currency: string;
  address: string;
  /** Whole units of the currency, or null when the read failed. */
  balance: string | null;
  /** USD at the rail's price (2 decimals), or null. */
  balanceUsd: string | null;
  /** Milliseconds since the epoch. */
  readAt: number;
  error: string | null;
}

export const reservePublications = pgTable(
  'reserve_publications',
  {
    id: text().primaryKey(),
    /** SHA-256 of the root node, 64 hex characters. */
    rootHash: text().notNull(),
    /** Sum of every user's available + frozen, minor units (the root's sum). */
    total: bigint({ mode: 'bigint' }).notNull(),
    userCount: integer().notNull(),
    /** Levels of the tree above the leaves (the length of every proof path). */
    depth: integer().notNull(),
    reserves: jsonb().$type<StoredReserve[]>().notNull(),
    /** Points per USD when published (values the reserves in points). */
    pointsPerUsd: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('reserve_publications_created_idx').on(t.createdAt)],
);

/** A user's leaf in a publication: position, salt (64 hex) and balance (minor units). */
export const reserveLeaves = pgTable(
  'reserve_leaves',
  {
    publicationId: text()
      .notNull()
      .references(() => reservePublications.id),
    /** Not a foreign key: the publication is a record of the past and outlives any account change. */
    userId: text().notNull(),
    leafIndex: integer().notNull(),
    salt: text().notNull(),
    /** The share of the user's balance at this leaf (minor units); a user has several (ADR 0048). */
    balance: bigint({ mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.publicationId, t.leafIndex] }), index('reserve_leaves_user_idx').on(t.publicationId, t.userId)],
);

/** Every node of a publication's tree: level 0 the leaves (and padding), the last level the root. */
export const reserveNodes = pgTable(
  'reserve_nodes',
  {
    publicationId: text()
      .notNull()
      .references(() => reservePublications.id),
    level: integer().notNull(),
    nodeIndex: integer().notNull(),
    hash: text().notNull(),
    /** Minor units. */
    sum: bigint({ mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.publicationId, t.level, t.nodeIndex] })],
);

/**
 * Seller events and webhooks (product §23, docs/decisions/0025-seller-events-and-webhooks.md):
 * the per-user event counter, the events (each written in the transaction of the change it
 * reports), the user's webhook endpoint and one delivery row per event sent to it.
 *
 * Ordering: `seller_events.seq` is 1, 2, 3... per user, taken from `seller_event_counters` in the
 * writing transaction, so a user's events commit in `seq` order (the counter row serializes them).
 * Times are timestamptz; `data` is the event's JSON `data`.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';

const ts = () => timestamp({ withTimezone: true, mode: 'date' });

/** The last `seq` handed out per user (the row is locked by each event write until COMMIT). */
export const sellerEventCounters = pgTable('seller_event_counters', {
  userId: text()
    .primaryKey()
    .references(() => users.id),
  lastSeq: bigint({ mode: 'bigint' }).notNull(),
});

/** One event of a user (`id` = `evt_...`, the webhook-id). `key` makes each business event write once. */
export const sellerEvents = pgTable(
  'seller_events',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id),
    /** Position in the user's feed: 1, 2, 3... without gaps, in commit order. */
    seq: bigint({ mode: 'bigint' }).notNull(),
    /** 'sale' | 'payout.status' | 'refund' | 'review' | 'collection.hidden' */
    type: text().notNull(),
    /** The business event, e.g. `sale:<order id>`, `payout:<bill id>:<status>`: unique. */
    key: text().notNull(),
    data: jsonb().notNull(),
    createdAt: ts().notNull(),
  },
  (t) => [uniqueIndex('seller_events_user_seq_idx').on(t.userId, t.seq), uniqueIndex('seller_events_key_idx').on(t.key)],
);

/** A user's webhook endpoint: `url` null when cleared; `secret` is `whsec_<base64>`. */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  userId: text()
    .primaryKey()
    .references(() => users.id),
  url: text(),
  secret: text().notNull(),
  /** How deliveries are signed (ADR 0061): 'hmac' (v1), 'ed25519' (v1a) or 'both'. */
  signing: text().notNull().default('hmac'),
  /** The Ed25519 private key (`whsk_...`), sealed with the two-factor key for this user (two-factor.ts `seal`); null until made. */
  signingKeySealed: text(),
  /** Its public key as receivers get it: `whpk_` + base64 of the 32 raw bytes. */
  publicKey: text(),
  /** The user's events up to this `seq` have a delivery row (or predate the URL). */
  enqueuedSeq: bigint({ mode: 'bigint' })
    .notNull()
    .default(sql`0`),
  /** The first failed attempt since the last delivered one; null while the endpoint answers 2xx. */
  failingSince: ts(),
  /** Set after 24 h of failures (no delivery is sent until webhook/set turns it on again); null when on. */
  disabledAt: ts(),
  createdAt: ts().notNull(),
  updatedAt: ts().notNull(),
});

/** One event sent to the user's webhook URL: retried with backoff until `deadline_at`, then failed. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    eventId: text()
      .primaryKey()
      .references(() => sellerEvents.id),
    userId: text()
      .notNull()
      .references(() => users.id),
    /** 'pending' | 'delivered' | 'failed' */
    status: text().notNull(),
    attempts: integer().notNull().default(0),
    lastResponseCode: integer(),
    lastError: text(),
    /** When the next attempt is due (also the lease of an attempt in progress); null once final. */
    nextAttemptAt: ts(),
    /** No attempt starts after this (24 h after the event, or after a redeliver). */
    deadlineAt: ts().notNull(),
    createdAt: ts().notNull(),
    updatedAt: ts().notNull(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_user_created_idx').on(t.userId, t.createdAt),
  ],
);

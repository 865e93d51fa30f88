/**
 * Discount codes and licence keys (product §28, docs/decisions/0030-discount-codes-and-licence-keys.md).
 * Points are whole points; times are timestamptz.
 */
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { collections, orders } from './collections';

/** A seller's discount code, for one collection or (collectionId null) all of the seller's. */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: text().primaryKey(),
    sellerId: text()
      .notNull()
      .references(() => users.id),
    /** Null: every collection of the seller. */
    collectionId: text().references(() => collections.id),
    /** Upper-case (codes are case-insensitive); unique per seller. */
    code: text().notNull(),
    /** 'percent' | 'fixed' */
    kind: text().notNull(),
    /** Percent 1-100, or whole points off. */
    value: integer().notNull(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Most paid orders that may use it (null: no limit). */
    maxUses: integer(),
    /** Paid orders that used it; raised only under the guard `uses < max_uses`, in the pay transaction. */
    uses: integer().notNull().default(0),
    oncePerBuyer: boolean().notNull().default(false),
    disabledAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('discount_codes_seller_code_uq').on(t.sellerId, t.code),
    index('discount_codes_collection_idx').on(t.collectionId),
  ],
);

/** One row per (code, buyer) that paid with a once-per-buyer code: the unique key enforces "once". */
export const discountBuyerUses = pgTable(
  'discount_buyer_uses',
  {
    codeId: text()
      .notNull()
      .references(() => discountCodes.id),
    buyerId: text()
      .notNull()
      .references(() => users.id),
    orderId: text()
      .notNull()
      .references(() => orders.id),
  },
  (t) => [primaryKey({ columns: [t.codeId, t.buyerId] })],
);

/** Licence keys settings of a collection (no row: keys off). */
export const collectionLicences = pgTable('collection_licences', {
  collectionId: text()
    .primaryKey()
    .references(() => collections.id),
  enabled: boolean().notNull().default(false),
  /** Distinct instances one key may activate (null: no limit); read live, so a change applies to every key. */
  maxActivations: integer(),
});

/** The licence key of a paid order of a collection with keys on; revoked by the order's refund. */
export const licenceKeys = pgTable(
  'licence_keys',
  {
    id: text().primaryKey(),
    /** XXXXX-XXXXX-XXXXX-XXXXX over an unambiguous alphabet. */
    key: text().notNull(),
    orderId: text()
      .notNull()
      .references(() => orders.id),
    collectionId: text()
      .notNull()
      .references(() => collections.id),
    buyerId: text()
      .notNull()
      .references(() => users.id),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('licence_keys_key_uq').on(t.key), uniqueIndex('licence_keys_order_uq').on(t.orderId)],
);

/** One row per distinct instance that activated a key. */
export const licenceActivations = pgTable(
  'licence_activations',
  {
    keyId: text()
      .notNull()
      .references(() => licenceKeys.id),
    instance: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.instance] })],
);

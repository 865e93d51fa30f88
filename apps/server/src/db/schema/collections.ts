/**
 * Collections, uploaded files, images and purchase orders (product §16).
 * Prices are whole points; `earned` and fees are bigint minor units (hundredths of a point);
 * sizes are bytes.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * Images (banners, avatars) uploaded through a presigned PUT. An image is `pending` until its stored
 * bytes pass the magic-bytes check on first use; only `verified` images are served.
 */
export const images = pgTable(
  'images',
  {
    id: text().primaryKey(),
    ownerId: text()
      .notNull()
      .references(() => users.id),
    /** 'banner' | 'avatar' */
    kind: text().notNull(),
    storageKey: text().notNull(),
    /** Declared on the presign; replaced by the detected type when verified. */
    contentType: text().notNull(),
    /** 'pending' | 'verified' */
    status: text().notNull().default('pending'),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('images_owner_idx').on(t.ownerId)],
);

/** product §3 Collection. */
export const collections = pgTable(
  'collections',
  {
    id: text().primaryKey(),
    ownerId: text()
      .notNull()
      .references(() => users.id),
    title: text().notNull(),
    desc: text().notNull().default(''),
    bannerImageId: text().references(() => images.id),
    /** Price in whole points. */
    price: integer().notNull(),
    /** 'Created' | 'Draft' | 'Published' | 'Archived' | 'Deleted' */
    status: text().notNull().default('Created'),
    soldCount: integer().notNull().default(0),
    /** What the seller earned, minor units (after the platform fee). */
    earned: bigint({ mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    resourceCount: integer().notNull().default(0),
    /**
     * Reviews (product §29): the sum of the counted reviews' ratings (1-5 each) and their number, kept
     * in the transaction of every review change so lists read them without aggregating. Integers: the
     * average is computed for display (one decimal), never stored. A refunded buyer's review is not counted.
     */
    ratingSum: integer().notNull().default(0),
    ratingCount: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    publishedAt: timestamp({ withTimezone: true, mode: 'date' }),
    deletedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Set while the collection is taken down by an operator (product §27, modules/moderation). */
    hiddenAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** The takedown's reason, shown to the owner; null when not hidden. */
    hiddenReason: text(),
    /** The takedown refuses downloads to everyone (the stored bytes are kept). */
    filesRemoved: boolean().notNull().default(false),
  },
  (t) => [
    index('collections_owner_created_idx').on(t.ownerId, t.createdAt),
    index('collections_status_created_idx').on(t.status, t.createdAt),
  ],
);

/** An upload in progress or done: single PUT or S3-style multipart. */
export const uploads = pgTable(
  'uploads',
  {
    id: text().primaryKey(),
    ownerId: text()
      .notNull()
      .references(() => users.id),
    /** 'single' | 'multipart' */
    mode: text().notNull(),
    fileName: text().notNull(),
    /** Declared size, bytes. */
    size: bigint({ mode: 'number' }).notNull(),
    /** Declared MD5, lower-case hex. */
    md5: text().notNull(),
    contentType: text().notNull(),
    storageKey: text().notNull(),
    /** The storage's multipart upload id (null for a single PUT). */
    storageUploadId: text(),
    partSize: bigint({ mode: 'number' }).notNull(),
    partCount: integer().notNull(),
    /** 'pending' | 'completed' | 'failed' */
    status: text().notNull().default('pending'),
    resourceId: text(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [index('uploads_owner_idx').on(t.ownerId)],
);

/** A verified file; attached to one collection by `collection/resource/add`. */
export const resources = pgTable(
  'resources',
  {
    id: text().primaryKey(),
    ownerId: text()
      .notNull()
      .references(() => users.id),
    collectionId: text().references(() => collections.id),
    uploadId: text().notNull(),
    name: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    md5: text().notNull(),
    contentType: text().notNull(),
    storageKey: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Version of the logical file (product §24): 1, then + 1 on each `collection/resource/replace`. */
    version: integer().notNull().default(1),
    /** When the current version replaced the previous one; null while at version 1. */
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** A free preview: anyone may download it (product §24). */
    preview: boolean().notNull().default(false),
    /** Removed from the collection: hidden from new buyers, kept for those who bought before this time. */
    removedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Storage key of the WebP thumbnail of an image (null when none could be made). */
    thumbnailKey: text(),
    /** Set on an upload's resource used as a new version of that logical file (it is never attached itself). */
    mergedInto: text(),
  },
  (t) => [index('resources_collection_idx').on(t.collectionId), uniqueIndex('resources_upload_uq').on(t.uploadId)],
);

/** A purchase order: one per buyer and collection (buying twice never charges twice). */
export const orders = pgTable(
  'orders',
  {
    id: text().primaryKey(),
    buyerId: text()
      .notNull()
      .references(() => users.id),
    sellerId: text()
      .notNull()
      .references(() => users.id),
    collectionId: text()
      .notNull()
      .references(() => collections.id),
    /** Price in whole points at the time of the order. */
    amount: integer().notNull(),
    /** Platform fee, minor units (set when paid). */
    fee: bigint({ mode: 'bigint' }).notNull().default(sql`0`),
    /** 'OrderStatusPending' | 'OrderStatusPaid' | 'OrderStatusRefunded' */
    status: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true, mode: 'date' }),
    /**
     * Files handed out under this order: +1 per `resource/download/url`, + the file count per
     * `collection/download/all` (product §25: a buyer's refund request is automatic only while 0).
     */
    downloads: integer().notNull().default(0),
    /** The buyer's refund request waiting for the seller (null when none). */
    refundRequestReason: text(),
    refundRequestedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Set once refunded (status OrderStatusRefunded), with the reason given, if any. */
    refundedAt: timestamp({ withTimezone: true, mode: 'date' }),
    refundReason: text(),
    /** The collection's price when the order was priced, whole points; `amount` = listPrice - discount (product §28). */
    listPrice: integer(),
    /** Points taken off by the discount code, whole points (0 without a code). */
    discount: integer().notNull().default(0),
    /** The discount code applied (null when none); its use is counted when the order is paid. */
    discountCodeId: text(),
    /**
     * When the pending order was last priced (null: at `createdAt`). Its quote stands for
     * ORDER_QUOTE_TTL_SECONDS; a later `collection/buy` prices it again (product.md "The price the buyer saw").
     */
    quotedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /**
     * When the seller's proceeds (amount * 100 - fee, minor units) clear from their `pending` ledger
     * account to `available` (paid_at + EARNINGS_HOLD_DAYS); null when no hold applied (product.md
     * "Clearance", docs/decisions/0045-clearance-and-step-up.md).
     */
    clearsAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** When the clearing posting `clear:<order id>` was made; null while pending. */
    clearedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** When the buyer reported the purchase as not made by them ("This wasn't me"); clearing waits while set and open. */
    reportedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** The buyer's words with the report ('' when none). */
    reportDetails: text(),
    /** How an operator closed the report: 'reversed' or 'dismissed' (null while open or without a report). */
    reportOutcome: text(),
  },
  (t) => [
    uniqueIndex('orders_buyer_collection_uq').on(t.buyerId, t.collectionId),
    // The clearance job's claim: paid orders whose proceeds are still pending, by due time.
    index('orders_clearance_due_idx')
      .on(t.clearsAt)
      .where(sql`${t.clearedAt} is null and ${t.clearsAt} is not null and ${t.status} = 'OrderStatusPaid'`),
    index('orders_buyer_created_idx').on(t.buyerId, t.createdAt),
    index('orders_seller_created_idx').on(t.sellerId, t.createdAt),
  ],
);

/**
 * Superseded versions of a file (product §24): when `collection/resource/replace` makes version n + 1
 * current, version n is copied here. The stored bytes are never deleted (audit).
 */
export const resourceVersions = pgTable(
  'resource_versions',
  {
    resourceId: text()
      .notNull()
      .references(() => resources.id),
    version: integer().notNull(),
    name: text().notNull(),
    /** Bytes. */
    size: bigint({ mode: 'number' }).notNull(),
    md5: text().notNull(),
    contentType: text().notNull(),
    storageKey: text().notNull(),
    /** When this version became current. */
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** When the next version replaced it. */
    replacedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('resource_versions_uq').on(t.resourceId, t.version)],
);

/** The last `seq` of the catalogue changes (one row, id 1, locked by each change until COMMIT: ADR 0026). */
export const catalogueChangeCounter = pgTable('catalogue_change_counter', {
  id: integer().primaryKey(),
  lastSeq: bigint({ mode: 'bigint' }).notNull(),
});

/**
 * One file added, updated (new version) or removed in a collection (product §24), for the buyers'
 * `my/library/changes` feed. `seq` is 1, 2, 3... in commit order (ADR 0026).
 */
export const catalogueChanges = pgTable(
  'catalogue_changes',
  {
    seq: bigint({ mode: 'bigint' }).primaryKey(),
    collectionId: text()
      .notNull()
      .references(() => collections.id),
    resourceId: text().notNull(),
    version: integer().notNull(),
    /** 'added' | 'updated' | 'removed' */
    kind: text().notNull(),
    /** The file name at the time of the change. */
    name: text().notNull(),
    at: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('catalogue_changes_collection_seq_idx').on(t.collectionId, t.seq)],
);

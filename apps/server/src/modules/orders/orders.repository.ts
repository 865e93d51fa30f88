/**
 * The orders table's row and the reads other modules borrow (product §16-§17, §24-§25, §29).
 *
 * - {@link OrderRow}: an order as drizzle reads it; {@link ORDER_COLUMNS}, {@link RawOrder} and
 *   {@link orderOf} read the same row from the module's raw, named statements (purchase.repository.ts,
 *   clearance.repository.ts, refunds.repository.ts). Units: `amount`, `list_price`, `discount` whole
 *   points; `fee` bigint minor units.
 * - The lookups orders.service.ts lends other modules (paid purchases, the reviews' share lock, the records'
 *   collection names); no other module imports this file (eslint.config.js).
 *
 * The rest of the module's SQL is cut as its services are: purchase.repository.ts (buy and pay),
 * refunds.repository.ts (refunds and "This wasn't me" reports), clearance.repository.ts (clearance)
 * and listings.repository.ts (my orders, my sales). Errors: the driver's, unchanged.
 */
import { OrderStatus } from '@coffer/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { collections, orders, users } from '../../db/schema/index';

export type OrderRow = typeof orders.$inferSelect;

/** An order's columns, aliased and typed as {@link orderOf} reads them (`o` is the orders table). */
export const ORDER_COLUMNS = `o.id, o.buyer_id, o.seller_id, o.collection_id, o.amount, o.fee::text as fee, o.status, o.created_at,
  o.paid_at, o.downloads, o.refund_request_reason, o.refund_requested_at, o.refunded_at, o.refund_reason, o.list_price,
  o.discount, o.discount_code_id, o.quoted_at, o.clears_at, o.cleared_at, o.reported_at, o.report_details, o.report_outcome`;

/** A row of {@link ORDER_COLUMNS} as the driver returns it. */
export interface RawOrder {
  id: string;
  buyer_id: string;
  seller_id: string;
  collection_id: string;
  amount: number;
  fee: string;
  status: string;
  created_at: Date;
  paid_at: Date | null;
  downloads: number;
  refund_request_reason: string | null;
  refund_requested_at: Date | null;
  refunded_at: Date | null;
  refund_reason: string | null;
  list_price: number | null;
  discount: number;
  discount_code_id: string | null;
  quoted_at: Date | null;
  clears_at: Date | null;
  cleared_at: Date | null;
  reported_at: Date | null;
  report_details: string | null;
  report_outcome: string | null;
}

/** The {@link OrderRow} of a raw row of {@link ORDER_COLUMNS}. */
export function orderOf(r: RawOrder): OrderRow {
  return {
    id: r.id,
    buyerId: r.buyer_id,
    sellerId: r.seller_id,
    collectionId: r.collection_id,
    amount: r.amount,
    fee: BigInt(r.fee),
    status: r.status,
    createdAt: r.created_at,
    paidAt: r.paid_at,
    downloads: r.downloads,
    refundRequestReason: r.refund_request_reason,
    refundRequestedAt: r.refund_requested_at,
    refundedAt: r.refunded_at,
    refundReason: r.refund_reason,
    listPrice: r.list_price,
    discount: r.discount,
    discountCodeId: r.discount_code_id,
    quotedAt: r.quoted_at,
    clearsAt: r.clears_at,
    clearedAt: r.cleared_at,
    reportedAt: r.reported_at,
    reportDetails: r.report_details,
    reportOutcome: r.report_outcome,
  };
}

/** The collection (id and title) of each of `orderIds` that exists, by order id: one indexed join. */
export async function collectionsOfOrders(db: DbOrTx, orderIds: string[]): Promise<Map<string, { id: string; title: string }>> {
  if (!orderIds.length) return new Map();
  const rows = await db
    .select({ orderId: orders.id, id: collections.id, title: collections.title })
    .from(orders)
    .innerJoin(collections, eq(collections.id, orders.collectionId))
    .where(inArray(orders.id, orderIds));
  return new Map(rows.map((r) => [r.orderId, { id: r.id, title: r.title }]));
}

/**
 * The status of the buyer's order of the collection (one per pair: orders_buyer_collection_uq), or
 * null without one.
 */
export async function orderStatusOf(db: DbOrTx, buyerId: string, collectionId: string): Promise<string | null> {
  const [row] = await db
    .select({ status: orders.status })
    .from(orders)
    .where(and(eq(orders.buyerId, buyerId), eq(orders.collectionId, collectionId)))
    .limit(1);
  return row?.status ?? null;
}

export async function hasPaid(db: DbOrTx, buyerId: string, collectionId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(orders)
    .where(and(eq(orders.buyerId, buyerId), eq(orders.collectionId, collectionId), eq(orders.status, OrderStatus.Paid)))
    .limit(1);
  return !!row;
}

/**
 * The buyer's paid order of the collection, share-locked for the rest of the transaction (a refund,
 * which locks the order for update, waits for it; product §29 reviews), or null.
 */
export async function lockPaidOrder(db: DbOrTx, buyerId: string, collectionId: string): Promise<{ id: string } | null> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.buyerId, buyerId), eq(orders.collectionId, collectionId), eq(orders.status, OrderStatus.Paid)))
    .for('share');
  return row ?? null;
}

/** E-mail addresses of the paid buyers of a collection who accept update mails (live accounts only). */
export async function buyersToMail(db: DbOrTx, collectionId: string): Promise<{ id: string; email: string }[]> {
  return db
    .select({ id: users.id, email: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.buyerId))
    .where(
      and(
        eq(orders.collectionId, collectionId),
        eq(orders.status, OrderStatus.Paid),
        eq(users.updateMails, true),
        sql`${users.deletedAt} is null`,
      ),
    );
}

/**
 * The buyer's paid order of the collection as the file list needs it: when it was paid and how many
 * downloads were counted on it (product §24 removed files, §25 the automatic refund). Null when none.
 */
export async function paidOrder(
  db: DbOrTx,
  buyerId: string,
  collectionId: string,
): Promise<{ paidAt: Date; downloads: number } | null> {
  const [row] = await db
    .select({ at: orders.paidAt, createdAt: orders.createdAt, downloads: orders.downloads })
    .from(orders)
    .where(and(eq(orders.buyerId, buyerId), eq(orders.collectionId, collectionId), eq(orders.status, OrderStatus.Paid)))
    .limit(1);
  return row ? { paidAt: row.at ?? row.createdAt, downloads: row.downloads } : null;
}

/**
 * Counts `files` downloads on the buyer's paid order of the collection, in one statement (it waits
 * for a refund holding the order's lock, and finds nothing once the order is refunded).
 * @returns true when the buyer has a paid order (the download is allowed), false otherwise
 */
export async function countDownloads(db: DbOrTx, buyerId: string, collectionId: string, files: number): Promise<boolean> {
  const rows = await db
    .update(orders)
    .set({ downloads: sql`${orders.downloads} + ${files}` })
    .where(and(eq(orders.buyerId, buyerId), eq(orders.collectionId, collectionId), eq(orders.status, OrderStatus.Paid)))
    .returning({ id: orders.id });
  return rows.length > 0;
}

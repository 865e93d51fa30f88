/** Persistence of purchase orders. Only the orders service calls this. */
import { OrderStatus } from '@coffer/contract';
import { and, asc, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { collectionLicences, collections, ledgerAccounts, orders, users } from '../../db/schema/index';

export type OrderRow = typeof orders.$inferSelect;

/** Inserts the order unless the buyer has one for the collection; @returns the buyer's order either way. */
export async function insertOrGet(db: DbOrTx, row: typeof orders.$inferInsert): Promise<OrderRow> {
  const [inserted] = await db
    .insert(orders)
    .values(row)
    .onConflictDoNothing({ target: [orders.buyerId, orders.collectionId] })
    .returning();
  if (inserted) return inserted;
  const existing = await findByBuyerAndCollection(db, row.buyerId, row.collectionId);
  if (!existing) throw new Error('order vanished');
  return existing;
}

export async function findByBuyerAndCollection(db: DbOrTx, buyerId: string, collectionId: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.buyerId, buyerId), eq(orders.collectionId, collectionId)));
  return row ?? null;
}

/**
 * What `collection/buy` decides on, in one statement: the collection (null when there is none), the
 * buyer's order for it (null when none) and the buyer's available balance (minor units; 0 without an
 * account). Read-only; the collection and balance columns are read here so a buy costs one round
 * trip before its insert.
 */
export async function buyView(
  db: DbOrTx,
  buyerId: string,
  collectionId: string,
): Promise<{
  collection: {
    id: string;
    ownerId: string;
    status: string;
    price: number;
    /** Taken down (product §27). */
    hidden: boolean;
    /** The seller's account is suspended (product §27). */
    sellerSuspended: boolean;
  } | null;
  existing: OrderRow | null;
  available: bigint;
}> {
  const [row] = await db
    .select({
      collection: {
        id: collections.id,
        ownerId: collections.ownerId,
        status: collections.status,
        price: collections.price,
        hidden: sql<boolean>`${collections.hiddenAt} is not null`,
        sellerSuspended: sellerSuspended(),
      },
      existing: orders,
      available: ledgerAccounts.balance,
    })
    .from(collections)
    .leftJoin(orders, and(eq(orders.collectionId, collections.id), eq(orders.buyerId, buyerId)))
    .leftJoin(ledgerAccounts, and(eq(ledgerAccounts.userId, buyerId), eq(ledgerAccounts.kind, 'available')))
    .where(eq(collections.id, collectionId));
  if (!row) return { collection: null, existing: null, available: 0n };
  return { collection: row.collection, existing: row.existing ?? null, available: row.available ?? 0n };
}

/** True when the collection's seller is suspended (product §27); correlated on `collections.owner_id`. */
const sellerSuspended = () =>
  sql<boolean>`exists (select 1 from ${users} where ${users.id} = ${collections.ownerId} and ${users.suspendedAt} is not null)`;

/**
 * Sets a pending order's price (product §28: list price, discount, code, amount paid); an order paid
 * or refunded meanwhile is left as it is. @returns the repriced order, or null when it was not pending
 */
export async function reprice(
  db: DbOrTx,
  id: string,
  p: { amount: number; listPrice: number; discount: number; discountCodeId: string | null },
): Promise<OrderRow | null> {
  const [row] = await db
    .update(orders)
    .set(p)
    .where(and(eq(orders.id, id), eq(orders.status, OrderStatus.Pending)))
    .returning();
  return row ?? null;
}

/** The order as it is now, without a lock (the cheap refusals before a password check). */
export async function findById(db: DbOrTx, id: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row ?? null;
}

/** The order, locked for the rest of the transaction. */
export async function findForUpdate(db: DbOrTx, id: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).for('update');
  return row ?? null;
}

/**
 * Locks the given orders (in id order, so concurrent batches cannot deadlock on them) and reads each
 * one's collection status (null when the collection row is gone), whether it is not for sale (taken
 * down or its seller suspended, product §27) and whether the collection issues licence keys
 * (product §28), in one statement.
 */
export async function lockManyForPay(
  db: DbOrTx,
  ids: string[],
): Promise<{ order: OrderRow; collectionStatus: string | null; notForSale: boolean | null; licenceKeys: boolean | null }[]> {
  if (!ids.length) return [];
  return db
    .select({
      order: orders,
      collectionStatus: collections.status,
      // Taken down, or the seller suspended (product §27).
      notForSale: sql<boolean | null>`(${collections.hiddenAt} is not null or ${sellerSuspended()})`,
      licenceKeys: collectionLicences.enabled,
    })
    .from(orders)
    .leftJoin(collections, eq(collections.id, orders.collectionId))
    .leftJoin(collectionLicences, eq(collectionLicences.collectionId, orders.collectionId))
    .where(inArray(orders.id, ids))
    .orderBy(asc(orders.id))
    .for('update', { of: orders });
}

/** Marks many orders paid at `paidAt`, each with its own platform fee (minor units), in one statement. */
export async function markPaidMany(db: DbOrTx, paid: { id: string; fee: bigint }[], paidAt: Date): Promise<void> {
  if (!paid.length) return;
  const rows = JSON.stringify(paid.map((p) => ({ id: p.id, fee: p.fee.toString() })));
  await db.execute(sql`
    update orders set status = ${OrderStatus.Paid}, paid_at = ${paidAt.toISOString()}::timestamptz, fee = d.fee
    from jsonb_to_recordset(${rows}::jsonb) as d(id text, fee bigint)
    where orders.id = d.id`);
}

export async function markPaid(db: DbOrTx, id: string, paidAt: Date, fee: bigint): Promise<OrderRow> {
  const [row] = await db.update(orders).set({ status: OrderStatus.Paid, paidAt, fee }).where(eq(orders.id, id)).returning();
  return row!;
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

/** The buyer's orders (any status), newest first. */
export async function pageOfBuyer(db: DbOrTx, buyerId: string, offset: number, limit: number, onlyPaid = false) {
  const where = onlyPaid ? and(eq(orders.buyerId, buyerId), eq(orders.status, OrderStatus.Paid)) : eq(orders.buyerId, buyerId);
  const [rows, [total]] = await Promise.all([
    db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).offset(offset).limit(limit),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
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

/** When `buyerId` paid for the collection, or null when they have no paid order. */
export async function paidAt(db: DbOrTx, buyerId: string, collectionId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: orders.paidAt, createdAt: orders.createdAt })
    .from(orders)
    .where(and(eq(orders.buyerId, buyerId), eq(orders.collectionId, collectionId), eq(orders.status, OrderStatus.Paid)))
    .limit(1);
  return row ? (row.at ?? row.createdAt) : null;
}

/** Marks the order refunded at `at` with the reason given (product §25); the refund request stays as it was. */
export async function markRefunded(db: DbOrTx, id: string, at: Date, reason: string | null): Promise<OrderRow> {
  const [row] = await db
    .update(orders)
    .set({ status: OrderStatus.Refunded, refundedAt: at, refundReason: reason })
    .where(eq(orders.id, id))
    .returning();
  return row!;
}

/** Stores (or replaces) the buyer's refund request on the order. */
export async function setRefundRequest(db: DbOrTx, id: string, reason: string, at: Date): Promise<OrderRow> {
  const [row] = await db
    .update(orders)
    .set({ refundRequestReason: reason, refundRequestedAt: at })
    .where(eq(orders.id, id))
    .returning();
  return row!;
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

/**
 * Orders of the seller's collections that were paid (paid or refunded), newest first, each with its
 * buyer's nickname; `pendingOnly`: paid orders with a refund request waiting.
 */
export async function pageOfSeller(db: DbOrTx, sellerId: string, offset: number, limit: number, pendingOnly: boolean) {
  const where = pendingOnly
    ? and(eq(orders.sellerId, sellerId), eq(orders.status, OrderStatus.Paid), isNotNull(orders.refundRequestedAt))
    : and(eq(orders.sellerId, sellerId), inArray(orders.status, [OrderStatus.Paid, OrderStatus.Refunded]));
  const [rows, [total]] = await Promise.all([
    db
      .select({ order: orders, nickname: users.nickname, username: users.username })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.buyerId))
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .offset(offset)
      .limit(limit),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

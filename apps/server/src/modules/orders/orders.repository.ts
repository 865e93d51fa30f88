/** Persistence of purchase orders. Only the orders service calls this. */
import { CollectionStatus, OrderStatus } from '@coffer/contract';
import { and, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { run, statement } from '../../db/raw';
import { collections, orders, users } from '../../db/schema/index';

export type OrderRow = typeof orders.$inferSelect;

/** An order's columns, aliased and typed as {@link orderOf} reads them (`o` is the orders table). */
const ORDER_COLUMNS = `o.id, o.buyer_id, o.seller_id, o.collection_id, o.amount, o.fee::text as fee, o.status, o.created_at,
  o.paid_at, o.downloads, o.refund_request_reason, o.refund_requested_at, o.refunded_at, o.refund_reason, o.list_price,
  o.discount, o.discount_code_id, o.quoted_at, o.clears_at, o.cleared_at, o.reported_at, o.report_details, o.report_outcome`;

/** A row of {@link ORDER_COLUMNS} as the driver returns it. */
interface RawOrder {
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
function orderOf(r: RawOrder): OrderRow {
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

const insertOrderSql = statement(
  'orders_insert',
  `insert into orders as o (id, buyer_id, seller_id, collection_id, amount, list_price, discount, discount_code_id, status, created_at)
   values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
   on conflict (buyer_id, collection_id) do nothing
   returning ${ORDER_COLUMNS}`,
);

/** A new pending order, as `collection/buy` writes it. */
export interface NewOrder {
  id: string;
  buyerId: string;
  sellerId: string;
  collectionId: string;
  /** Price paid, whole points. */
  amount: number;
  /** Collection price when priced, whole points. */
  listPrice: number;
  /** Whole points off (0 without a code). */
  discount: number;
  discountCodeId: string | null;
  status: string;
  createdAt: Date;
}

/**
 * Inserts the order unless the buyer has one for the collection (one prepared statement);
 * @returns the buyer's order either way
 */
export async function insertOrGet(db: DbOrTx, row: NewOrder): Promise<OrderRow> {
  const { rows } = await run<RawOrder>(db, insertOrderSql, [
    row.id,
    row.buyerId,
    row.sellerId,
    row.collectionId,
    row.amount,
    row.listPrice,
    row.discount,
    row.discountCodeId,
    row.status,
    row.createdAt,
  ]);
  if (rows[0]) return orderOf(rows[0]);
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
  const { rows } = await run<RawOrder & BuyViewExtra>(db, buyViewSql, [buyerId, collectionId]);
  const row = rows[0];
  if (!row) return { collection: null, existing: null, available: 0n };
  return buyViewOf(row);
}

/** What a buy decides on, from a row of {@link buyViewSql} or {@link buyManySql} (`c_id` null: no collection). */
function buyViewOf(row: RawOrder & BuyViewExtra): Awaited<ReturnType<typeof buyView>> {
  return {
    collection:
      row.c_id === null
        ? null
        : {
            id: row.c_id,
            ownerId: row.c_owner_id,
            status: row.c_status,
            price: row.c_price,
            hidden: row.c_hidden,
            sellerSuspended: row.c_seller_suspended,
          },
    existing: row.id === null ? null : orderOf(row),
    available: row.available === null ? 0n : BigInt(row.available),
  };
}

/** The collection's and balance's columns of {@link buyViewSql} (the order's are null when there is none). */
interface BuyViewExtra {
  c_id: string;
  c_owner_id: string;
  c_status: string;
  c_price: number;
  c_hidden: boolean;
  c_seller_suspended: boolean;
  available: string | null;
}

const buyViewSql = statement(
  'orders_buy_view',
  `select c.id as c_id, c.owner_id as c_owner_id, c.status as c_status, c.price as c_price,
     c.hidden_at is not null as c_hidden,
     exists (select 1 from users u where u.id = c.owner_id and u.suspended_at is not null) as c_seller_suspended,
     ${ORDER_COLUMNS}, a.balance::text as available
   from collections c
   left join orders o on o.collection_id = c.id and o.buyer_id = $1
   left join ledger_accounts a on a.user_id = $1 and a.kind = 'available'
   where c.id = $2`,
);

/** One `collection/buy` of a batch: the new order's id (used when it is inserted) and the pair. */
export interface BuyAsk {
  id: string;
  buyerId: string;
  collectionId: string;
}

/** What {@link buyMany} found for one ask (as {@link buyView}), and whether it inserted the order. */
export interface BuyResult {
  collection: Awaited<ReturnType<typeof buyView>>['collection'];
  existing: OrderRow | null;
  /** The buyer's available balance, minor units (0 without an account). */
  available: bigint;
  /** True when this statement inserted the pending order `ask.id` at the collection's price. */
  inserted: boolean;
}

/**
 * Many `collection/buy` calls without a discount code in ONE statement (group commit of the buys,
 * docs/decisions/0033-purchase-hot-path.md): for each ask, reads what {@link buyView} reads and
 * inserts the pending order at the collection's price (list price, no discount) exactly when every
 * check of the buy passes — the collection exists, is published, not taken down, its seller not
 * suspended and not the buyer; the buyer has no order for it; the available balance covers the
 * price. The caller decides each answer from the returned view with the same checks; an ask whose
 * checks pass but which was not inserted met a concurrent insert of the same pair. Rows are
 * inserted in (buyer, collection) order. The asks must hold distinct (buyer, collection) pairs.
 * @returns one result per ask, in the order given
 * @throws the driver's error (the whole statement, every ask, fails: e.g. a foreign key or a deadlock)
 */
export async function buyMany(db: DbOrTx, asks: BuyAsk[], createdAt: Date): Promise<BuyResult[]> {
  if (!asks.length) return [];
  const json = JSON.stringify(asks.map((a, i) => ({ i, id: a.id, buyer_id: a.buyerId, collection_id: a.collectionId })));
  const { rows } = await run<RawOrder & BuyViewExtra & { i: number; inserted: boolean }>(db, buyManySql, [
    json,
    OrderStatus.Pending,
    createdAt,
    CollectionStatus.Published,
  ]);
  const out: BuyResult[] = [];
  for (const row of rows) out[row.i] = { ...buyViewOf(row), inserted: row.inserted };
  return out;
}

const buyManySql = statement(
  'orders_buy_many',
  `with d as (
     select * from jsonb_to_recordset($1::jsonb) as d(i integer, id text, buyer_id text, collection_id text)
   ),
   v as (
     select d.i, d.id as new_id, d.buyer_id as b_id, c.id as c_id, c.owner_id as c_owner_id, c.status as c_status,
       c.price as c_price, c.hidden_at is not null as c_hidden, coalesce(s.suspended, false) as c_seller_suspended,
       ${ORDER_COLUMNS}, a.balance::text as available
     from d
     left join lateral (select * from collections c where c.id = d.collection_id offset 0) c on true
     left join lateral (select true as suspended from users u where u.id = c.owner_id and u.suspended_at is not null offset 0) s on true
     left join lateral (select * from orders o where o.collection_id = d.collection_id and o.buyer_id = d.buyer_id offset 0) o on true
     left join lateral (select a.balance from ledger_accounts a where a.user_id = d.buyer_id and a.kind = 'available' offset 0) a on true
   ),
   ins as (
     insert into orders (id, buyer_id, seller_id, collection_id, amount, list_price, discount, discount_code_id, status, created_at)
     select v.new_id, v.b_id, v.c_owner_id, v.c_id, v.c_price, v.c_price, 0, null::text, $2::text, $3::timestamptz
     from v
     where v.c_id is not null and v.id is null and v.c_owner_id <> v.b_id and v.c_status = $4::text
       and not v.c_hidden and not v.c_seller_suspended
       and coalesce(v.available::bigint, 0) >= v.c_price::bigint * 100
     order by v.b_id, v.c_id
     on conflict (buyer_id, collection_id) do nothing
     returning id
   )
   select v.*, ins.id is not null as inserted from v left join ins on ins.id = v.new_id order by v.i`,
);

/**
 * Sets a pending order's price (product §28: list price, discount, code, amount paid) and the time it
 * was quoted (product.md "The price the buyer saw"); an order paid
 * or refunded meanwhile is left as it is. @returns the repriced order, or null when it was not pending
 */
export async function reprice(
  db: DbOrTx,
  id: string,
  p: { amount: number; listPrice: number; discount: number; discountCodeId: string | null; quotedAt: Date },
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
 * (product §28), and what its receipt mail tells (title, buyer's address), in one statement. The
 * joined rows are each reached by their key (lateral, behind `offset 0`), so the plan never scans a
 * table for a list the planner takes for 100 rows (docs/decisions/0037-batch-statement-plans.md).
 */
export async function lockManyForPay(
  db: DbOrTx,
  ids: string[],
): Promise<
  {
    order: OrderRow;
    collectionStatus: string | null;
    /** The collection's price now, whole points (null without a collection row). */
    collectionPrice: number | null;
    notForSale: boolean | null;
    licenceKeys: boolean | null;
    /** What the receipt mail tells: the collection's title (null without a collection), the buyer's address. */
    receipt: { title: string | null; email: string; buyerDeletedAt: Date | null };
  }[]
> {
  if (!ids.length) return [];
  const { rows } = await run<
    RawOrder & {
      c_status: string | null;
      c_price: number | null;
      c_title: string | null;
      not_for_sale: boolean | null;
      licence_keys: boolean | null;
      buyer_email: string;
      buyer_deleted_at: Date | null;
    }
  >(db, lockManyForPaySql, [JSON.stringify(ids)]);
  return rows.map((r) => ({
    order: orderOf(r),
    collectionStatus: r.c_status,
    collectionPrice: r.c_price,
    notForSale: r.not_for_sale,
    licenceKeys: r.licence_keys,
    receipt: { title: r.c_title, email: r.buyer_email, buyerDeletedAt: r.buyer_deleted_at },
  }));
}

const lockManyForPaySql = statement(
  'orders_lock_many_for_pay',
  `select ${ORDER_COLUMNS}, c.status as c_status, c.price as c_price, c.title as c_title,
     (c.hidden_at is not null or s.suspended is not null) as not_for_sale,
     l.enabled as licence_keys, b.email as buyer_email, b.deleted_at as buyer_deleted_at
   from orders o
   join lateral (select u.email, u.deleted_at from users u where u.id = o.buyer_id offset 0) b on true
   left join lateral (select c.status, c.price, c.title, c.hidden_at, c.owner_id from collections c where c.id = o.collection_id offset 0) c on true
   left join lateral (select true as suspended from users u where u.id = c.owner_id and u.suspended_at is not null offset 0) s on true
   left join lateral (select l.enabled from collection_licences l where l.collection_id = o.collection_id offset 0) l on true
   where o.id = any(array(select jsonb_array_elements_text($1::jsonb)))
   order by o.id
   for update of o`,
);

/**
 * Marks many orders paid at `paidAt`, each with its own platform fee (minor units) and the time its
 * proceeds clear (`clearsAt`, null without a hold: product.md "Clearance"), in one statement.
 */
export async function markPaidMany(
  db: DbOrTx,
  paid: { id: string; fee: bigint; clearsAt: Date | null }[],
  paidAt: Date,
): Promise<void> {
  if (!paid.length) return;
  const rows = JSON.stringify(paid.map((p) => ({ id: p.id, fee: p.fee.toString(), clears_at: p.clearsAt?.toISOString() ?? null })));
  await run(db, markPaidManySql, [rows, OrderStatus.Paid, paidAt]);
}

const markPaidManySql = statement(
  'orders_mark_paid_many',
  `update orders set status = $2::text, paid_at = $3::timestamptz, fee = d.fee, clears_at = d.clears_at
   from jsonb_to_recordset($1::jsonb) as d(id text, fee bigint, clears_at timestamptz)
   where orders.id = d.id and orders.id = any(array(select jsonb_array_elements($1::jsonb) ->> 'id'))`,
);

export async function markPaid(db: DbOrTx, id: string, paidAt: Date, fee: bigint): Promise<OrderRow> {
  const [row] = await db.update(orders).set({ status: OrderStatus.Paid, paidAt, fee }).where(eq(orders.id, id)).returning();
  return row!;
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

/**
 * Claims up to `limit` paid orders whose proceeds are due to clear at `now` (clears_at <= now, not
 * cleared, no open "This wasn't me" report), locked `FOR UPDATE SKIP LOCKED` so instances clearing
 * at once take disjoint rows (docs/decisions/0045-clearance-and-step-up.md).
 */
export async function claimDueClearances(db: DbOrTx, now: Date, limit: number): Promise<OrderRow[]> {
  const { rows } = await run<RawOrder>(db, claimDueClearancesSql, [now, limit]);
  return rows.map(orderOf);
}

const claimDueClearancesSql = statement(
  'orders_claim_due_clearances',
  `select ${ORDER_COLUMNS} from orders o
   where o.status = 'OrderStatusPaid' and o.cleared_at is null and o.clears_at is not null and o.clears_at <= $1::timestamptz
     and (o.reported_at is null or o.report_outcome is not null)
   order by o.clears_at, o.id
   limit $2
   for update skip locked`,
);

/** Sets `cleared_at` on the given orders (claimed by {@link claimDueClearances} in the same transaction). */
export async function markCleared(db: DbOrTx, ids: string[], at: Date): Promise<void> {
  if (!ids.length) return;
  await db.update(orders).set({ clearedAt: at }).where(and(inArray(orders.id, ids), isNull(orders.clearedAt)));
}

/**
 * The earliest time a seller's pending proceeds clear (ms), or null when none is pending (read only
 * when the seller's pending balance is above zero; by the seller index).
 */
export async function nextClearance(db: DbOrTx, sellerId: string): Promise<number | null> {
  const res = (await db.execute(sql`select min(o.clears_at) as at from orders o
    where o.seller_id = ${sellerId} and o.status = ${OrderStatus.Paid} and o.cleared_at is null and o.clears_at is not null`)) as unknown as {
    rows: { at: Date | string | null }[];
  };
  const at = res.rows[0]?.at;
  return at ? new Date(at).getTime() : null;
}

/** The earliest time any pending proceeds clear (ms), or null: when the clearance worker wakes next. */
export async function nextClearanceOverall(db: DbOrTx): Promise<number | null> {
  const { rows } = await run<{ at: Date | null }>(db, nextClearanceOverallSql, []);
  return rows[0]?.at ? rows[0].at.getTime() : null;
}

const nextClearanceOverallSql = statement(
  'orders_next_clearance_overall',
  `select min(o.clears_at) as at from orders o
   where o.status = 'OrderStatusPaid' and o.cleared_at is null and o.clears_at is not null
     and (o.reported_at is null or o.report_outcome is not null)`,
);

/** Records the buyer's "This wasn't me" report on a locked order. @returns the order as it is now */
export async function setReport(db: DbOrTx, id: string, details: string, at: Date): Promise<OrderRow> {
  const [row] = await db
    .update(orders)
    .set({ reportedAt: at, reportDetails: details, reportOutcome: null })
    .where(eq(orders.id, id))
    .returning();
  if (!row) throw new Error(`order ${id} vanished`);
  return row;
}

/** Closes a report ('reversed' or 'dismissed'). */
export async function closeReport(db: DbOrTx, id: string, outcome: 'reversed' | 'dismissed'): Promise<void> {
  await db.update(orders).set({ reportOutcome: outcome }).where(eq(orders.id, id));
}

/** Open "This wasn't me" reports, oldest first, with the buyer's and seller's usernames (the operator's list). */
export async function openReports(db: DbOrTx, limit: number) {
  const res = (await db.execute(
    sql.raw(`select ${ORDER_COLUMNS}, b.username as buyer_username, s.username as seller_username, c.title
     from orders o
     join users b on b.id = o.buyer_id
     join users s on s.id = o.seller_id
     left join collections c on c.id = o.collection_id
     where o.reported_at is not null and o.report_outcome is null
     order by o.reported_at, o.id
     limit ${Math.max(1, Math.floor(limit))}`),
  )) as unknown as { rows: (RawOrder & { buyer_username: string; seller_username: string; title: string | null })[] };
  // A plain query answers timestamps as the driver reads them (strings on PostgreSQL): as Dates here.
  const date = (v: unknown) => (v == null ? null : new Date(v as string));
  return res.rows.map((r) => ({
    order: orderOf({
      ...r,
      created_at: date(r.created_at)!,
      paid_at: date(r.paid_at),
      refund_requested_at: date(r.refund_requested_at),
      refunded_at: date(r.refunded_at),
      quoted_at: date(r.quoted_at),
      clears_at: date(r.clears_at),
      cleared_at: date(r.cleared_at),
      reported_at: date(r.reported_at),
    }),
    buyer: r.buyer_username,
    seller: r.seller_username,
    title: r.title,
  }));
}

/**
 * Makes a seller's pending proceeds due at `now` (the sandbox's `/api/dev/sandbox/clear`): their
 * paid, uncleared orders without an open report get `clears_at = now`. @returns how many
 */
export async function makeDueNow(db: DbOrTx, sellerId: string, now: Date): Promise<number> {
  const res = (await db.execute(sql`update orders o set clears_at = ${now.toISOString()}::timestamptz
    where o.seller_id = ${sellerId} and o.status = ${OrderStatus.Paid} and o.cleared_at is null and o.clears_at is not null
      and o.clears_at > ${now.toISOString()}::timestamptz and (o.reported_at is null or o.report_outcome is not null)
    returning o.id`)) as unknown as { rows: { id: string }[] };
  return res.rows.length;
}

/**
 * The statements of a purchase (product §16-§17, §28; docs/purchases.md): `collection/buy` reads and
 * inserts the buyer's pending order, `account/order/pay` locks the batch's orders and marks them paid.
 * Only purchase.service.ts calls this. Every statement of the buy and pay batches is a named prepared
 * statement whose text does not change with the batch's size (db/raw.ts; lists travel as one JSON
 * parameter), and reaches its rows by key under a generic plan
 * (docs/decisions/0037-batch-statement-plans.md; db/statement-plans.pg.test.ts).
 *
 * Units: an order's `amount`, `list_price`, `discount` and a collection's `price` are whole points;
 * `available` balances and `fee` are bigint minor units. Errors: the driver's (a deadlock or
 * serialization failure is retried by the caller, lib/group-commit.ts).
 */
import { CollectionStatus, OrderStatus } from '@coffer/contract';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { run, statement } from '../../db/raw';
import { orders } from '../../db/schema/index';
import { ORDER_COLUMNS, orderOf, type OrderRow, type RawOrder } from './orders.repository';

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
  const rows = JSON.stringify(
    paid.map((p) => ({ id: p.id, fee: p.fee.toString(), clears_at: p.clearsAt?.toISOString() ?? null })),
  );
  await run(db, markPaidManySql, [rows, OrderStatus.Paid, paidAt]);
}

const markPaidManySql = statement(
  'orders_mark_paid_many',
  `update orders set status = $2::text, paid_at = $3::timestamptz, fee = d.fee, clears_at = d.clears_at
   from jsonb_to_recordset($1::jsonb) as d(id text, fee bigint, clears_at timestamptz)
   where orders.id = d.id and orders.id = any(array(select jsonb_array_elements($1::jsonb) ->> 'id'))`,
);

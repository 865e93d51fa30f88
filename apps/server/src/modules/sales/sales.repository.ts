/**
 * The seller's sales aggregates (product §29), SQL over the orders table. Only the sales service calls
 * this. Days are UTC dates; money sums are minor units (hundredths of a point) as bigint, exact.
 */
import { sql } from 'drizzle-orm';
import { OrderStatus } from '@coffer/contract';
import type { DbOrTx } from '../../db/client';

type Rows<T> = { rows: T[] };

/** Per UTC day of `paid_at` in [from, to): orders paid (now paid or refunded since) and what the seller earned. */
export async function salesPerDay(db: DbOrTx, sellerId: string, from: Date, to: Date) {
  const res = (await db.execute(sql`
    select to_char(paid_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n,
           sum(amount::bigint * 100 - fee)::text as earned
    from orders
    where seller_id = ${sellerId} and status in (${OrderStatus.Paid}, ${OrderStatus.Refunded})
      and paid_at >= ${from.toISOString()}::timestamptz and paid_at < ${to.toISOString()}::timestamptz
    group by 1`)) as unknown as Rows<{ day: string; n: number; earned: string | null }>;
  return res.rows.map((r) => ({ day: r.day, count: Number(r.n), minor: BigInt(r.earned ?? '0') }));
}

/**
 * The seller's proceeds in their holding period now (minor units), those that cleared in [from, to),
 * and the earliest pending `clears_at` (product.md §30).
 */
export async function clearance(db: DbOrTx, sellerId: string, from: Date, to: Date) {
  const res = (await db.execute(sql`
    select
      coalesce(sum(amount::bigint * 100 - fee) filter (where cleared_at is null), 0)::text as pending,
      coalesce(sum(amount::bigint * 100 - fee) filter (
        where cleared_at >= ${from.toISOString()}::timestamptz and cleared_at < ${to.toISOString()}::timestamptz), 0)::text as cleared,
      min(clears_at) filter (where cleared_at is null) as next
    from orders
    where seller_id = ${sellerId} and status = ${OrderStatus.Paid} and clears_at is not null`)) as unknown as Rows<{
    pending: string;
    cleared: string;
    next: Date | string | null;
  }>;
  const r = res.rows[0];
  return {
    pending: BigInt(r?.pending ?? '0'),
    cleared: BigInt(r?.cleared ?? '0'),
    next: r?.next ? new Date(r.next).getTime() : null,
  };
}

/** Per UTC day of `refunded_at` in [from, to): refunds and what left the seller (price minus the fee returned). */
export async function refundsPerDay(db: DbOrTx, sellerId: string, from: Date, to: Date) {
  const res = (await db.execute(sql`
    select to_char(refunded_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n,
           sum(amount::bigint * 100 - fee)::text as refunded
    from orders
    where seller_id = ${sellerId} and status = ${OrderStatus.Refunded}
      and refunded_at >= ${from.toISOString()}::timestamptz and refunded_at < ${to.toISOString()}::timestamptz
    group by 1`)) as unknown as Rows<{ day: string; n: number; refunded: string | null }>;
  return res.rows.map((r) => ({ day: r.day, count: Number(r.n), minor: BigInt(r.refunded ?? '0') }));
}

/** The seller's collections by minor units earned from orders paid in [from, to), then sales, then id; at most `limit`. */
export async function topCollections(db: DbOrTx, sellerId: string, from: Date, to: Date, limit: number) {
  const res = (await db.execute(sql`
    select o.collection_id as id, c.title, count(*)::int as n, sum(o.amount::bigint * 100 - o.fee)::text as earned
    from orders o join collections c on c.id = o.collection_id
    where o.seller_id = ${sellerId} and o.status in (${OrderStatus.Paid}, ${OrderStatus.Refunded})
      and o.paid_at >= ${from.toISOString()}::timestamptz and o.paid_at < ${to.toISOString()}::timestamptz
    group by o.collection_id, c.title
    order by sum(o.amount::bigint * 100 - o.fee) desc, count(*) desc, o.collection_id
    limit ${limit}`)) as unknown as Rows<{ id: string; title: string; n: number; earned: string | null }>;
  return res.rows.map((r) => ({ id: r.id, title: r.title, count: Number(r.n), minor: BigInt(r.earned ?? '0') }));
}

/**
 * Per collection of the seller with a paid or refunded order, all time: the files handed out under its
 * orders (`orders.downloads`, product §25) and its paid buyers; most downloads first, then id.
 */
export async function downloadsPerCollection(db: DbOrTx, sellerId: string) {
  const res = (await db.execute(sql`
    select o.collection_id as id, c.title, coalesce(sum(o.downloads), 0)::int as downloads,
           (count(*) filter (where o.status = ${OrderStatus.Paid}))::int as buyers
    from orders o join collections c on c.id = o.collection_id
    where o.seller_id = ${sellerId} and o.status in (${OrderStatus.Paid}, ${OrderStatus.Refunded})
    group by o.collection_id, c.title
    order by 3 desc, o.collection_id`)) as unknown as Rows<{ id: string; title: string; downloads: number; buyers: number }>;
  return res.rows.map((r) => ({ id: r.id, title: r.title, downloads: Number(r.downloads), buyers: Number(r.buyers) }));
}

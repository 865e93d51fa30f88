/**
 * The statements of clearance (product.md "Clearance", docs/decisions/0045-clearance-and-step-up.md):
 * claiming due orders `FOR UPDATE SKIP LOCKED`, marking them cleared, and when the next proceeds fall
 * due. Only clearance.service.ts calls this. Times are Dates or epoch milliseconds as each function
 * says; `fee` is bigint minor units. Errors: the driver's.
 */
import { OrderStatus } from '@coffer/contract';
import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { run, statement } from '../../db/raw';
import { orders } from '../../db/schema/index';
import { ORDER_COLUMNS, orderOf, type OrderRow, type RawOrder } from './orders.repository';

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
  await db
    .update(orders)
    .set({ clearedAt: at })
    .where(and(inArray(orders.id, ids), isNull(orders.clearedAt)));
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

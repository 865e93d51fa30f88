/**
 * The statements of refunds (product §25) and of "This wasn't me" reports (product.md): the order's
 * row lock, the refunded mark, the buyer's stored request, and a report opened, closed and listed.
 * Only refunds.service.ts calls this. Units: `amount` whole points, `fee` bigint minor units.
 * Errors: the driver's; `setReport` throws Error when the order vanished.
 */
import { OrderStatus } from '@coffer/contract';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { orders } from '../../db/schema/index';
import { ORDER_COLUMNS, orderOf, type OrderRow, type RawOrder } from './orders.repository';

/** The order, locked for the rest of the transaction. */
export async function findForUpdate(db: DbOrTx, id: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).for('update');
  return row ?? null;
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

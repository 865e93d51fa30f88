/**
 * The pages of the order lists (product §3 Pagination): the buyer's orders (`my/orders`,
 * `my/purchased/collections`) and the seller's sales (`my/sales`), newest first, each with its total
 * count. Only listings.service.ts calls this. Errors: the driver's.
 */
import { OrderStatus } from '@coffer/contract';
import { and, count, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { orders, users } from '../../db/schema/index';

/** The buyer's orders (any status), newest first. */
export async function pageOfBuyer(db: DbOrTx, buyerId: string, offset: number, limit: number, onlyPaid = false) {
  const where = onlyPaid ? and(eq(orders.buyerId, buyerId), eq(orders.status, OrderStatus.Paid)) : eq(orders.buyerId, buyerId);
  const [rows, [total]] = await Promise.all([
    db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).offset(offset).limit(limit),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
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

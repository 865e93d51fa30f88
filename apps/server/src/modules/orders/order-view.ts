/**
 * An order as the API answers it (`Order` of packages/contract), and when its quote lapses. Shared by
 * the module's services (purchase, refunds, listings); no I/O, nothing thrown.
 *
 * Units: `amount`, `list_price` and `discount` are whole points (the row's `fee`, bigint minor units,
 * is not answered); every time is epoch milliseconds (`expires_at` only while the order is pending).
 */
import { ORDER_QUOTE_TTL_SECONDS, OrderStatus, type Order } from '@coffer/contract';
import type { OrderRow } from './orders.repository';

/** How long a pending order's quote stands, milliseconds. */
export const ORDER_QUOTE_TTL_MS = ORDER_QUOTE_TTL_SECONDS * 1000;

/** True when a pending order's quote lapsed at `now` (ms). */
export function quoteExpired(row: { quotedAt: Date | null; createdAt: Date }, now: number): boolean {
  return now - (row.quotedAt ?? row.createdAt).getTime() > ORDER_QUOTE_TTL_MS;
}

/** The API's `Order` of a row (product §16-§17, §25, §28, §30). */
export function toOrder(row: OrderRow): Order {
  const pending = row.status === OrderStatus.Pending;
  return {
    id: row.id,
    collection_id: row.collectionId,
    amount: row.amount,
    status: row.status as Order['status'],
    created_at: row.createdAt.getTime(),
    paid_at: row.paidAt ? row.paidAt.getTime() : null,
    refunded_at: row.refundedAt ? row.refundedAt.getTime() : null,
    list_price: row.listPrice ?? row.amount,
    discount: row.discount,
    refund_request:
      row.refundRequestedAt && row.refundRequestReason !== null
        ? { reason: row.refundRequestReason, requested_at: row.refundRequestedAt.getTime() }
        : null,
    expires_at: pending ? (row.quotedAt ?? row.createdAt).getTime() + ORDER_QUOTE_TTL_MS : null,
    clears_at: row.clearsAt ? row.clearsAt.getTime() : null,
    cleared_at: row.clearedAt ? row.clearedAt.getTime() : null,
    reported_at: row.reportedAt ? row.reportedAt.getTime() : null,
  };
}

/**
 * Refunds (product §25, docs/decisions/0027-refunds-and-download-all.md) and "This wasn't me" reports
 * (product.md, docs/decisions/0045-clearance-and-step-up.md). SQL: refunds.repository.ts.
 *
 * - `refund`: the seller of the order's collection refunds a paid order, any time
 *   (`account/order/refund`).
 * - `requestRefund`: the buyer asks (`account/order/refund/request`): refunded at once within
 *   REFUND_WINDOW_DAYS of payment when no file was downloaded under the order (and the seller's
 *   balance covers it), else stored for the seller.
 * - `report`, `openReports`, `reverseReported`, `dismissReport`: the buyer reports a paid order whose
 *   proceeds are still pending (`account/order/report`); clearing of that sale waits until an
 *   operator reverses it (a refund) or dismisses the report (`npm run admin -- disputes`).
 *
 * A refund is one database transaction (retried on a deadlock or serialization failure through
 * lib/group-commit.ts `retryTransient`; refunds are not batched): the order row is locked, the
 * collection's sold_count and earned go down, ONE ledger transaction under `refund:<order id>`
 * reverses the sale (the seller's `pending` inside the hold or `available` after it, and the platform
 * `fees` account -> buyer available), the order becomes OrderStatusRefunded, its licence key is
 * revoked, both `Refund` records are written (buyer Incoming, seller Outgoing, status
 * RecordStatusRefunded), the buyer's review (if any) leaves the collection's average (ADR 0031) and the
 * seller's `refund` event is appended. A refunded order is answered unchanged (idempotent), never
 * refunded twice.
 *
 * Shapes: the contract's `Order`. Units: order `amount` whole points (to minor units only through
 * `wholePointsToMinor`); `fee`, ledger amounts and record amounts bigint minor units. Errors: AppError
 * NOT_FOUND, CONFLICT, INSUFFICIENT_BALANCE (each method says which).
 */
import {
  Direction,
  OrderStatus,
  RecordStatus,
  RecordType,
  REFUND_WINDOW_DAYS,
  wholePointsToMinor,
  type Order,
} from '@coffer/contract';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, errors } from '../../lib/errors';
import { retryTransient } from '../../lib/group-commit';
import type { CollectionsService } from '../collections/collections.service';
import { refundEvent, type EventWriter } from '../events/events.service';
import { LedgerTransactionKind, type LedgerService } from '../ledger/ledger.service';
import type { LicencesService } from '../licences/licences.service';
import type { RecordsService } from '../records/records.service';
import { toOrder } from './order-view';
import type { OrderRow } from './orders.repository';
import * as repo from './refunds.repository';

export interface RefundsDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  records: RecordsService;
  /** The collection's sold_count and earned go down with a refund. */
  collections: CollectionsService;
  /**
   * Reviews (product §29): a refund marks the buyer's review refunded in the refund's transaction
   * (ADR 0031). Optional for tests that build the service alone.
   */
  reviews?: { refunded(tx: Tx, buyerId: string, collectionId: string): Promise<void> };
  /** Writes the seller's `refund` event in the refund's transaction (product §23). */
  events: EventWriter;
  /** Licence keys: a refund revokes the order's key (product §28). */
  licences: LicencesService;
}

/** Rolls back an automatic refund the seller's balance cannot cover (the request is stored instead). */
class ShortSeller extends Error {}

/** The refund window of product §25, milliseconds. */
export const REFUND_WINDOW_MS = REFUND_WINDOW_DAYS * 24 * 3_600_000;

/** Builds the refunds service; see the module comment. */
export function createRefundsService(deps: RefundsDeps) {
  const { db, clock, ledger, records, collections, events, licences } = deps;

  /** Runs `fn` in a transaction, again (up to 4 attempts) after a deadlock or serialization failure. */
  function inTx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return retryTransient(() => db.transaction(fn));
  }

  /**
   * Refunds a paid order whose row `tx` holds locked (see the module comment). The collection's
   * counters are locked before the balances, as a purchase does, to keep the lock order close to it.
   * @throws AppError INSUFFICIENT_BALANCE when the seller's available balance is short (the caller's
   * transaction rolls back)
   */
  async function refundLocked(
    tx: Tx,
    row: OrderRow,
    by: 'seller' | 'automatic' | 'operator',
    reason: string | null,
  ): Promise<OrderRow> {
    const now = new Date(clock.now());
    const price = wholePointsToMinor(row.amount);
    const fee = row.fee;
    const sellerGave = price - fee;
    // Inside the hold the sale's proceeds are still in the seller's `pending` account: the refund
    // takes them from there, so it never waits on what the seller spent or cashed out.
    const from = row.clearsAt !== null && row.clearedAt === null ? ('pending' as const) : ('available' as const);
    await collections.recordSales([{ id: row.collectionId, count: -1, earned: -sellerGave }], tx);
    if (price > 0n) {
      await ledger.post(
        {
          key: `refund:${row.id}`,
          kind: LedgerTransactionKind.Refund,
          bizId: row.id,
          entries: [
            { account: { userId: row.buyerId, kind: 'available' }, amount: price },
            ...(sellerGave > 0n ? [{ account: { userId: row.sellerId, kind: from }, amount: -sellerGave }] : []),
            ...(fee > 0n ? [{ account: { platform: 'fees' as const }, amount: -fee }] : []),
          ],
        },
        tx,
      );
    }
    const refunded = await repo.markRefunded(tx, row.id, now, reason);
    await licences.revoke(tx, row.id, now);
    await records.writeMany(
      [
        {
          userId: row.buyerId,
          bizId: row.id,
          type: RecordType.Refund,
          direction: Direction.Incoming,
          amount: price,
          status: RecordStatus.Refunded,
          createdAt: now.getTime(),
        },
        {
          userId: row.sellerId,
          bizId: row.id,
          type: RecordType.Refund,
          direction: Direction.Outgoing,
          amount: sellerGave,
          status: RecordStatus.Refunded,
          createdAt: now.getTime(),
        },
      ],
      tx,
    );
    // The buyer's review leaves the average (ADR 0031); before the event, which is written last.
    await deps.reviews?.refunded(tx, row.buyerId, row.collectionId);
    await events.append(tx, [
      refundEvent({
        orderId: row.id,
        sellerId: row.sellerId,
        buyerId: row.buyerId,
        collectionId: row.collectionId,
        amount: row.amount,
        fee,
        earned: sellerGave,
        by,
        reason,
        from,
      }),
    ]);
    return refunded;
  }

  return {
    /**
     * The seller refunds a paid order of one of their collections in full, at any time (product §25).
     * @param reason optional; a waiting refund request's reason is kept when none is given
     * @returns the refunded order (an order refunded before, unchanged: idempotent)
     * @throws NOT_FOUND (no such order of the caller's collections), CONFLICT (not paid yet),
     * INSUFFICIENT_BALANCE (the seller's available balance is below what the sale earned them)
     */
    async refund(sellerId: string, orderId: string, reason?: string): Promise<Order> {
      try {
        return await inTx(async (tx) => {
          const row = await repo.findForUpdate(tx, orderId);
          if (!row || row.sellerId !== sellerId) throw errors.notFound('The order does not exist');
          if (row.status === OrderStatus.Refunded) return toOrder(row);
          if (row.status !== OrderStatus.Paid) throw errors.conflict('Only a paid order can be refunded');
          return toOrder(await refundLocked(tx, row, 'seller', reason ?? row.refundRequestReason ?? null));
        });
      } catch (err) {
        if (err instanceof AppError && err.reason === 'INSUFFICIENT_BALANCE') {
          throw errors.insufficientBalance('Your available balance is too low to refund this order. Top up, then try again.');
        }
        throw err;
      }
    },

    /**
     * The buyer asks for a refund (product §25): within REFUND_WINDOW_DAYS of payment and with no file
     * downloaded under the order, it is refunded at once; otherwise (or when the seller's balance is
     * short) the request is stored with its reason and the order stays paid until the seller refunds.
     * @returns the order: refunded, or paid with `refund_request` (a refunded order unchanged)
     * @throws NOT_FOUND (not the caller's order), CONFLICT (not paid yet)
     */
    async requestRefund(buyerId: string, orderId: string, reason: string): Promise<Order> {
      const auto = await inTx(async (tx) => {
        const row = await repo.findForUpdate(tx, orderId);
        if (!row || row.buyerId !== buyerId) throw errors.notFound('The order does not exist');
        if (row.status === OrderStatus.Refunded) return toOrder(row);
        if (row.status !== OrderStatus.Paid) throw errors.conflict('Only a paid order can be refunded');
        const inWindow = row.paidAt !== null && clock.now() - row.paidAt.getTime() <= REFUND_WINDOW_MS;
        if (!inWindow || row.downloads > 0) return null;
        try {
          return toOrder(await refundLocked(tx, row, 'automatic', reason));
        } catch (err) {
          // The seller's balance is short: this transaction rolls back and the request waits.
          if (err instanceof AppError && err.reason === 'INSUFFICIENT_BALANCE') throw new ShortSeller();
          throw err;
        }
      }).catch((err: unknown) => {
        if (err instanceof ShortSeller) return null;
        throw err;
      });
      if (auto) return auto;
      return inTx(async (tx) => {
        const row = await repo.findForUpdate(tx, orderId);
        if (!row || row.buyerId !== buyerId) throw errors.notFound('The order does not exist');
        if (row.status !== OrderStatus.Paid) return toOrder(row);
        return toOrder(await repo.setRefundRequest(tx, orderId, reason, new Date(clock.now())));
      });
    },

    /**
     * "This wasn't me" (product.md): the buyer reports a paid order as not made by them while its
     * proceeds are pending. Clearing of that sale stops until an operator reverses it ({@link
     * reverseReported}) or dismisses the report. Idempotent: an open report is answered as it is.
     * @throws NOT_FOUND (not the caller's order), CONFLICT (not paid, or its proceeds already cleared
     * or never held)
     */
    async report(buyerId: string, orderId: string, details: string): Promise<Order> {
      return inTx(async (tx) => {
        const row = await repo.findForUpdate(tx, orderId);
        if (!row || row.buyerId !== buyerId) throw errors.notFound('The order does not exist');
        if (row.status !== OrderStatus.Paid) throw errors.conflict('Only a paid purchase can be reported');
        if (row.reportedAt && row.reportOutcome === null) return toOrder(row);
        if (row.clearsAt === null || row.clearedAt !== null) {
          throw errors.conflict(
            'This purchase can no longer be reported here: its payment has cleared. Ask the seller for a refund, or contact support.',
          );
        }
        return toOrder(await repo.setReport(tx, orderId, details, new Date(clock.now())));
      });
    },

    /** Open "This wasn't me" reports, oldest first (`npm run admin -- disputes`). */
    openReports(limit: number) {
      return repo.openReports(db, limit);
    },

    /**
     * An operator reverses a reported sale (one ledger posting, `refund:<order id>`, from the seller's
     * pending proceeds) and closes the report as 'reversed'. Idempotent on a refunded order.
     * @returns the refunded order and the buyer's id (whose sessions the caller may revoke)
     * @throws NOT_FOUND (no such order), CONFLICT (no open report, or not paid)
     */
    async reverseReported(orderId: string, reason: string): Promise<{ order: Order; buyerId: string }> {
      return inTx(async (tx) => {
        const row = await repo.findForUpdate(tx, orderId);
        if (!row) throw errors.notFound('The order does not exist');
        if (row.status === OrderStatus.Refunded && row.reportOutcome === 'reversed')
          return { order: toOrder(row), buyerId: row.buyerId };
        if (!row.reportedAt || row.reportOutcome !== null) throw errors.conflict('This order has no open report');
        if (row.status !== OrderStatus.Paid) throw errors.conflict('Only a paid order can be reversed');
        const refunded = await refundLocked(tx, row, 'operator', reason);
        await repo.closeReport(tx, orderId, 'reversed');
        return { order: toOrder({ ...refunded, reportOutcome: 'reversed' }), buyerId: row.buyerId };
      });
    },

    /**
     * An operator dismisses a report: the sale stands and its proceeds clear as scheduled (at once
     * when already due). @throws NOT_FOUND, CONFLICT (no open report)
     */
    async dismissReport(orderId: string): Promise<Order> {
      return inTx(async (tx) => {
        const row = await repo.findForUpdate(tx, orderId);
        if (!row) throw errors.notFound('The order does not exist');
        if (!row.reportedAt || row.reportOutcome !== null) throw errors.conflict('This order has no open report');
        await repo.closeReport(tx, orderId, 'dismissed');
        return toOrder({ ...row, reportOutcome: 'dismissed' });
      });
    },
  };
}

/** The refunds service: refunds, refund requests and "This wasn't me" reports. */
export type RefundsService = ReturnType<typeof createRefundsService>;

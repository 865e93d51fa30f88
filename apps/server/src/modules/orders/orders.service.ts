/**
 * Purchases (DESIGN 7-8): `collection/buy` answers the buyer's order for a collection (one per buyer
 * and collection, the same on every repeat) and `account/order/pay` settles it.
 *
 * Paying is ONE database transaction: the order row is locked, the order is marked paid, the
 * `Purchase` (buyer, Outgoing) and `Sale` (seller, Incoming) records are written with status
 * Success, the collection's sold_count and earned rise, and the ledger posts buyer available ->
 * seller available (minus PLATFORM_FEE_BPS to the platform `fees` account) under the idempotency
 * key `purchase:<order id>`. A paid order is answered unchanged, so paying twice never charges twice.
 *
 * Statement order: the hot rows (the collection's counters, then the seller's balance) are updated
 * last, after the buyer's debit and the ledger entries, just before COMMIT, so their row locks are
 * held as briefly as possible
 * (docs/decisions/0004-purchase-order.md). Because the seller's balance leaves the
 * ledger's id order, two users buying from each other at the same instant can deadlock; PostgreSQL
 * aborts one and it is retried here.
 *
 * Units: order `amount` is whole points; ledger amounts and fees are bigint minor units.
 */
import { CollectionStatus, Direction, OrderStatus, RecordStatus, RecordType, type Order } from '@coffer/contract';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toPage } from '../../lib/page';
import { isRetryableTxError } from '../../lib/pg-errors';
import type { AccountService } from '../account/account.service';
import type { CollectionsService } from '../collections/collections.service';
import type { LedgerService } from '../ledger/ledger.service';
import type { RecordsService } from '../records/records.service';
import * as repo from './orders.repository';

export interface OrdersDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  records: RecordsService;
  accounts: AccountService;
  collections: CollectionsService;
  /** PLATFORM_FEE_BPS: the platform's share of each sale in basis points. */
  feeBps: number;
}

/** The platform fee of a sale: floor(price * bps / 10000), minor units. */
export function feeOf(priceMinor: bigint, feeBps: number): bigint {
  return (priceMinor * BigInt(feeBps)) / 10_000n;
}

export function toOrder(row: repo.OrderRow): Order {
  return {
    id: row.id,
    collection_id: row.collectionId,
    amount: row.amount,
    status: row.status as Order['status'],
    created_at: row.createdAt.getTime(),
    paid_at: row.paidAt ? row.paidAt.getTime() : null,
  };
}

export function createOrdersService(deps: OrdersDeps) {
  const { db, clock, ledger, records, accounts, collections } = deps;

  async function settle(buyerId: string, orderId: string): Promise<Order> {
    return db.transaction(async (tx) => {
      const order = await repo.findForUpdate(tx, orderId);
      if (!order || order.buyerId !== buyerId) throw errors.notFound('The order does not exist');
      if (order.status === OrderStatus.Paid) return toOrder(order);
      const c = await collections.find(order.collectionId, tx);
      if (!c || c.status !== CollectionStatus.Published) throw errors.conflict('This collection is no longer for sale');

      const price = BigInt(order.amount) * 100n;
      const fee = feeOf(price, deps.feeBps);
      const sellerGets = price - fee;
      const now = new Date(clock.now());
      const paid = await repo.markPaid(tx, order.id, now, fee);
      await records.write(
        {
          userId: buyerId,
          bizId: order.id,
          type: RecordType.Purchase,
          direction: Direction.Outgoing,
          amount: price,
          status: RecordStatus.Success,
          createdAt: now.getTime(),
        },
        tx,
      );
      await records.write(
        {
          userId: order.sellerId,
          bizId: order.id,
          type: RecordType.Sale,
          direction: Direction.Incoming,
          amount: sellerGets,
          status: RecordStatus.Success,
          createdAt: now.getTime(),
        },
        tx,
      );
      // Hot rows last: after the buyer's debit and the entries, the collection's counters, then the
      // seller's balance, just before COMMIT.
      if (price === 0n) await collections.recordSale(c.id, sellerGets, tx);
      else {
        await ledger.post(
          {
            key: `purchase:${order.id}`,
            kind: 'purchase',
            bizId: order.id,
            postings: [
              { account: { userId: buyerId, kind: 'available' }, amount: -price },
              ...(sellerGets > 0n
                ? [{ account: { userId: order.sellerId, kind: 'available' as const }, amount: sellerGets }]
                : []),
              ...(fee > 0n ? [{ account: { platform: 'fees' as const }, amount: fee }] : []),
            ],
            applyLast: { userId: order.sellerId, kind: 'available' },
            beforeLast: () => collections.recordSale(c.id, sellerGets, tx),
          },
          tx,
        );
      }
      return toOrder(paid);
    });
  }

  return {
    /**
     * The buyer's order for a collection, created on the first call (status OrderStatusPending) and
     * the same order on every repeat (also once paid, whatever the collection's status now).
     * @throws NOT_FOUND (no such collection, or unpublished and not the caller's), FORBIDDEN (own
     * collection), CONFLICT (archived or deleted), INSUFFICIENT_BALANCE (available < price)
     */
    async buy(buyerId: string, collectionId: string): Promise<Order> {
      const existing = await repo.findByBuyerAndCollection(db, buyerId, collectionId);
      if (existing?.status === OrderStatus.Paid) return toOrder(existing);
      const c = await collections.find(collectionId);
      if (!c) throw errors.notFound('The collection does not exist');
      if (c.ownerId === buyerId) throw errors.forbidden('You cannot buy your own collection');
      if (c.status === CollectionStatus.Archived || c.status === CollectionStatus.Deleted) {
        throw errors.conflict('This collection is no longer for sale');
      }
      if (c.status !== CollectionStatus.Published) throw errors.notFound('The collection does not exist');
      const { available } = await ledger.balances(buyerId);
      if (available < BigInt(c.price) * 100n) throw errors.insufficientBalance();
      if (existing) return toOrder(existing);
      const row = await repo.insertOrGet(db, {
        id: newId(),
        buyerId,
        sellerId: c.ownerId,
        collectionId: c.id,
        amount: c.price,
        status: OrderStatus.Pending,
        createdAt: new Date(clock.now()),
      });
      return toOrder(row);
    },

    /**
     * Settles the caller's order in one database transaction (see the module comment).
     * @param password optional MD5 digest of the login password; checked when present
     * @returns the paid order (a paid order unchanged)
     * @throws NOT_FOUND (not the caller's order), INVALID_CREDENTIALS (wrong password), CONFLICT (no
     * longer for sale), INSUFFICIENT_BALANCE
     */
    async pay(buyerId: string, orderId: string, password?: string): Promise<Order> {
      if (password) {
        // The cheap refusals come first, so no answer tells a right password from a wrong one
        // (docs/abuse.md); `settle` checks all of them again under the order's lock.
        const order = await repo.findById(db, orderId);
        if (!order || order.buyerId !== buyerId) throw errors.notFound('The order does not exist');
        if (order.status !== OrderStatus.Paid) {
          const c = await collections.find(order.collectionId);
          if (!c || c.status !== CollectionStatus.Published) throw errors.conflict('This collection is no longer for sale');
          const { available } = await ledger.balances(buyerId);
          if (available < BigInt(order.amount) * 100n) throw errors.insufficientBalance();
        }
        await accounts.checkPassword(buyerId, password);
      }
      for (let attempt = 1; ; attempt++) {
        try {
          return await settle(buyerId, orderId);
        } catch (err) {
          if (attempt < 4 && !(err instanceof AppError) && isRetryableTxError(err)) continue;
          throw err;
        }
      }
    },

    /** True when the user has a paid order for the collection. */
    hasPaid(userId: string, collectionId: string): Promise<boolean> {
      return repo.hasPaid(db, userId, collectionId);
    },

    /** The caller's orders (pending and paid), newest first, each with its collection, as a page (SPEC 3 Pagination). */
    async mine(buyerId: string, paginator: { page: number; size: number }) {
      const { rows, count } = await repo.pageOfBuyer(db, buyerId, paginator.page * paginator.size, paginator.size);
      const byId = new Map((await collections.byIds(rows.map((r) => r.collectionId))).map((c) => [c.id, c]));
      const orders = rows.map((r) => {
        const c = byId.get(r.collectionId);
        return { ...toOrder(r), ...(c ? { collection: c } : {}) };
      });
      return toPage('orders', orders, paginator, count);
    },

    /** The collections the caller bought (paid orders), most recent first, whatever their status now, as a page (SPEC 3 Pagination). */
    async purchased(buyerId: string, paginator: { page: number; size: number }) {
      const { rows, count } = await repo.pageOfBuyer(db, buyerId, paginator.page * paginator.size, paginator.size, true);
      return toPage('collections', await collections.byIds(rows.map((r) => r.collectionId)), paginator, count);
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;

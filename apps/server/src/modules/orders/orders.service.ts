/**
 * The reads the orders module lends other modules (product §24-§25, §29, §31 records): built once by
 * the composition root (services.ts), which hands each to the module that asks for it, so no other
 * module and not the composition root imports orders.repository.ts (eslint.config.js).
 *
 * - `purchases` ({@link PurchaseLookup}): the paid purchases collections and downloads ask about
 *   (`purchased`, download rights, the download counts of product §25).
 * - `paidOrders` ({@link PaidOrderLock}): the paid order a review needs, share-locked in the review's
 *   transaction (product §29).
 * - `collectionsOfOrders`: the collection (id and title) of each order id, by order id, in one query
 *   (the `biz_id` of Purchase, Sale and Refund records).
 *
 * Each is one statement on the orders table (the buyers' mails join `users`); errors: the driver's.
 */
import type { Db } from '../../db/client';
import type { PurchaseLookup } from '../collections/collections.service';
import type { PaidOrderLock } from '../reviews/reviews.service';
import * as repo from './orders.repository';

/** The reads the orders module lends, over `db`; see the module comment. */
export function createOrderReads(db: Db) {
  const purchases: PurchaseLookup = {
    hasPaid: (userId, collectionId) => repo.hasPaid(db, userId, collectionId),
    orderStatus: (userId, collectionId) => repo.orderStatusOf(db, userId, collectionId),
    paidOrder: (userId, collectionId) => repo.paidOrder(db, userId, collectionId),
    buyersToMail: (collectionId, tx) => repo.buyersToMail(tx ?? db, collectionId),
    countDownloads: (userId, collectionId, files) => repo.countDownloads(db, userId, collectionId, files),
  };
  const paidOrders: PaidOrderLock = {
    lockPaid: (tx, buyerId, collectionId) => repo.lockPaidOrder(tx, buyerId, collectionId),
    hasPaid: (buyerId, collectionId) => repo.hasPaid(db, buyerId, collectionId),
  };
  return {
    purchases,
    paidOrders,
    /** @param orderIds order ids (any number; none answers an empty map without a query) */
    collectionsOfOrders: (orderIds: string[]): Promise<Map<string, { id: string; title: string }>> =>
      repo.collectionsOfOrders(db, orderIds),
  };
}

export type OrderReads = ReturnType<typeof createOrderReads>;

/**
 * Discount codes (product §28, docs/decisions/0030-discount-codes-and-licence-keys.md).
 *
 * A seller's code takes a percent or a fixed number of points off one collection or every collection
 * of the seller, optionally until an expiry, for at most `max_uses` paid orders and once per buyer.
 * Codes are case-insensitive (stored upper-case) and unique per seller.
 *
 * Pricing (`applyDiscount` in the contract): percent codes take floor(list × percent / 100) off, the
 * discount rounded down; fixed codes take min(value, list) off; a price never goes below 0 points.
 *
 * When a use counts: when the order is PAID, inside the pay transaction ({@link DiscountsService.claim}),
 * never at `collection/buy`: a pending order that is never paid burns no use. `collection/buy` checks
 * the code (so the buyer sees a refusal early) and stores the list price, the discount and the price
 * on the order; the pay transaction counts the use with one guarded UPDATE (`uses < max_uses`, not
 * disabled, not expired) and, for once-per-buyer codes, inserts the (code, buyer) row whose primary
 * key refuses a second use. A refused claim refuses that purchase (CONFLICT); the buyer buys again
 * without the code to drop it. A refund does not give a use back.
 *
 * Units: values, list prices, discounts and prices are whole points; times are ms since the epoch.
 */
import { applyDiscount, CollectionStatus, DiscountKind, type DiscountCode, type DiscountCreateRequest } from '@coffer/contract';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toPage } from '../../lib/page';
import type { CollectionsService } from '../collections/collections.service';
import * as repo from './discounts.repository';

export interface DiscountsDeps {
  db: Db;
  clock: Clock;
  collections: CollectionsService;
}

/** What a code does to one collection's price: whole points. */
export interface DiscountQuote {
  codeId: string;
  code: string;
  listPrice: number;
  discount: number;
  amount: number;
}

/** The collection fields a quote needs. */
export interface PricedCollection {
  id: string;
  ownerId: string;
  price: number;
}

export const NOT_VALID = 'This code is not valid for this collection';

export function toDiscountCode(row: repo.DiscountCodeRow, now: number): DiscountCode {
  const expired = row.expiresAt !== null && row.expiresAt.getTime() <= now;
  const usedUp = row.maxUses !== null && row.uses >= row.maxUses;
  return {
    id: row.id,
    code: row.code,
    kind: row.kind as DiscountCode['kind'],
    value: row.value,
    collection_id: row.collectionId,
    expires_at: row.expiresAt ? row.expiresAt.getTime() : null,
    max_uses: row.maxUses,
    uses: row.uses,
    once_per_buyer: row.oncePerBuyer,
    active: row.disabledAt === null && !expired && !usedUp,
    disabled_at: row.disabledAt ? row.disabledAt.getTime() : null,
    created_at: row.createdAt.getTime(),
  };
}

export function createDiscountsService(deps: DiscountsDeps) {
  const { db, clock, collections } = deps;

  /**
   * The price of `collection` with the seller's `code` (upper-case) for `buyerId` (null: signed out).
   * @throws VALIDATION_FAILED (no such code of the collection's seller, not for this collection, or
   * disabled), CONFLICT (expired, used up, or once per buyer and already used by this buyer)
   */
  async function quote(buyerId: string | null, collection: PricedCollection, code: string, tx?: Tx): Promise<DiscountQuote> {
    const row = await repo.findByCode(tx ?? db, collection.ownerId, code);
    if (!row || row.disabledAt || (row.collectionId !== null && row.collectionId !== collection.id)) {
      throw errors.validation(NOT_VALID);
    }
    if (row.expiresAt && row.expiresAt.getTime() <= clock.now()) throw errors.conflict('This code has expired');
    if (row.maxUses !== null && row.uses >= row.maxUses) throw errors.conflict('This code has been used up');
    if (buyerId && row.oncePerBuyer && (await repo.hasBuyerUse(tx ?? db, row.id, buyerId))) {
      throw errors.conflict('You have already used this code');
    }
    const { discount, amount } = applyDiscount(collection.price, row.kind as DiscountKind, row.value);
    return { codeId: row.id, code: row.code, listPrice: collection.price, discount, amount };
  }

  return {
    quote,

    /**
     * A new code of the seller (SPEC-free: product §28).
     * @throws NOT_FOUND (collection_id not one of the seller's), VALIDATION_FAILED (expiry not in the
     * future), CONFLICT (the seller already has this code)
     */
    async create(sellerId: string, body: DiscountCreateRequest): Promise<DiscountCode> {
      if (body.collection_id) {
        const c = await collections.find(body.collection_id);
        if (!c || c.ownerId !== sellerId || c.status === CollectionStatus.Deleted) {
          throw errors.notFound('The collection does not exist');
        }
      }
      const now = clock.now();
      if (body.expires_at != null && body.expires_at <= now) throw errors.validation('The expiry must be in the future');
      const row = await repo.insert(db, {
        id: newId(),
        sellerId,
        collectionId: body.collection_id ?? null,
        code: body.code,
        kind: body.kind,
        value: body.value,
        expiresAt: body.expires_at != null ? new Date(body.expires_at) : null,
        maxUses: body.max_uses ?? null,
        oncePerBuyer: body.once_per_buyer,
        createdAt: new Date(now),
      });
      if (!row) throw errors.conflict(`You already have a code ${body.code}`);
      return toDiscountCode(row, now);
    },

    /** The seller's codes, newest first, as a page (product §3 Pagination). */
    async list(sellerId: string, paginator: { page: number; size: number }) {
      const { rows, count } = await repo.pageOfSeller(db, sellerId, paginator.page * paginator.size, paginator.size);
      const now = clock.now();
      return toPage(
        'codes',
        rows.map((r) => toDiscountCode(r, now)),
        paginator,
        count,
      );
    },

    /**
     * Disables one of the seller's codes from now on (a disabled code is answered unchanged). Orders
     * priced with it and not yet paid are refused at payment.
     * @throws NOT_FOUND (not the caller's code)
     */
    async disable(sellerId: string, id: string): Promise<DiscountCode> {
      const row = await repo.findById(db, id);
      if (!row || row.sellerId !== sellerId) throw errors.notFound('The discount code does not exist');
      const done = await repo.disable(db, id, new Date(clock.now()));
      return toDiscountCode(done!, clock.now());
    },

    /**
     * What `code` takes off a published collection (the buy dialog and `?code=` links).
     * @throws NOT_FOUND (no such published collection), and the refusals of {@link quote}
     */
    async preview(buyerId: string | null, collectionId: string, code: string) {
      const c = await collections.find(collectionId);
      if (!c || c.status !== CollectionStatus.Published) throw errors.notFound('The collection does not exist');
      const q = await quote(buyerId, c, code);
      return { code: q.code, list_price: q.listPrice, discount: q.discount, amount: q.amount };
    },

    /**
     * Counts one use of the code by a purchase that is being paid, in the pay transaction `tx`: the
     * guarded UPDATE (not disabled, not expired at `now`, below max_uses), then, for a once-per-buyer
     * code, the (code, buyer) row. Nothing is left counted when it refuses.
     * @returns null when counted, or the AppError (CONFLICT) refusing the purchase
     */
    async claim(tx: Tx, codeId: string, buyerId: string, orderId: string, now: Date): Promise<AppError | null> {
      const claimed = await repo.claimUse(tx, codeId, now);
      if (!claimed) return errors.conflict('This discount code can no longer be used. Buy again without it.');
      if (claimed.oncePerBuyer && !(await repo.claimBuyerUse(tx, codeId, buyerId, orderId))) {
        await repo.releaseUse(tx, codeId);
        return errors.conflict('You have already used this code');
      }
      return null;
    },

    /** Gives back a use {@link claim} counted in the same transaction (the debit was refused). */
    async release(tx: Tx, codeId: string, buyerId: string): Promise<void> {
      await repo.releaseUse(tx, codeId);
      await repo.releaseBuyerUse(tx, codeId, buyerId);
    },
  };
}

export type DiscountsService = ReturnType<typeof createDiscountsService>;

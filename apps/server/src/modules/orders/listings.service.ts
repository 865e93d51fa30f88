/**
 * The order lists (product §3 Pagination, §16-§17, §25): the buyer's orders (`my/orders`), the
 * collections they bought (`my/purchased/collections`) and the seller's sales (`my/sales`). Read-only;
 * SQL: listings.repository.ts.
 *
 * Shapes: pages `{orders | collections, page, size, totalCount, totalPages, hasNextPage, count}`
 * (lib/page.ts `toPage`); each order is the contract's `Order` with its collection (when it still exists) and licence key (when one was issued),
 * a sale also with its buyer `{id, nickname}`. Units: `amount`, `list_price`, `discount` whole points.
 * Errors: none of its own.
 */
import type { SaleOrder } from '@coffer/contract';
import type { Db } from '../../db/client';
import { toPage } from '../../lib/page';
import type { CollectionsService } from '../collections/collections.service';
import type { LicencesService } from '../licences/licences.service';
import { toOrder } from './order-view';
import * as repo from './listings.repository';

export interface ListingsDeps {
  db: Db;
  /** The orders' collections, as the catalogue shows them. */
  collections: CollectionsService;
  /** The orders' licence keys (product §28). */
  licences: LicencesService;
}

/** Builds the order lists service; see the module comment. */
export function createListingsService(deps: ListingsDeps) {
  const { db, collections, licences } = deps;
  return {
    /**
     * Orders of the caller's collections (paid and refunded), newest first, each with the buyer's
     * id and nickname and any refund request waiting, as a page (product §3 Pagination);
     * `pendingOnly`: only paid orders with a refund request.
     */
    async sales(sellerId: string, paginator: { page: number; size: number }, pendingOnly: boolean) {
      const { rows, count } = await repo.pageOfSeller(db, sellerId, paginator.page * paginator.size, paginator.size, pendingOnly);
      const byId = new Map((await collections.byIds([...new Set(rows.map((r) => r.order.collectionId))])).map((c) => [c.id, c]));
      const keys = await licences.keysOf(rows.map((r) => r.order.id));
      const orders: SaleOrder[] = rows.map((r) => {
        const c = byId.get(r.order.collectionId);
        const k = keys.get(r.order.id);
        return {
          ...toOrder(r.order),
          ...(k ? { licence_key: k.key, licence_revoked: k.revoked } : {}),
          ...(c ? { collection: c } : {}),
          buyer: { id: r.order.buyerId, nickname: r.nickname || r.username },
        };
      });
      return toPage('orders', orders, paginator, count);
    },

    /** The caller's orders (pending and paid), newest first, each with its collection, as a page (product §3 Pagination). */
    async mine(buyerId: string, paginator: { page: number; size: number }) {
      const { rows, count } = await repo.pageOfBuyer(db, buyerId, paginator.page * paginator.size, paginator.size);
      const byId = new Map((await collections.byIds(rows.map((r) => r.collectionId))).map((c) => [c.id, c]));
      const keys = await licences.keysOf(rows.map((r) => r.id));
      const orders = rows.map((r) => {
        const c = byId.get(r.collectionId);
        const k = keys.get(r.id);
        return {
          ...toOrder(r),
          ...(c ? { collection: c } : {}),
          ...(k ? { licence_key: k.key, licence_revoked: k.revoked } : {}),
        };
      });
      return toPage('orders', orders, paginator, count);
    },

    /** The collections the caller bought (paid orders), most recent first, whatever their status now, as a page (product §3 Pagination). */
    async purchased(buyerId: string, paginator: { page: number; size: number }) {
      const { rows, count } = await repo.pageOfBuyer(db, buyerId, paginator.page * paginator.size, paginator.size, true);
      return toPage('collections', await collections.byIds(rows.map((r) => r.collectionId)), paginator, count);
    },
  };
}

/** The order lists: my orders, my purchased collections, my sales. */
export type ListingsService = ReturnType<typeof createListingsService>;

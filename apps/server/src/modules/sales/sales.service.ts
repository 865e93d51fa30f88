/**
 * The seller's sales dashboard (product §29, docs/decisions/0031-reviews-and-sales-dashboard.md):
 * `my/sales/dashboard` {days: 7 | 30 | 90}.
 *
 * The window is the last `days` UTC days, today (UTC) included: from 00:00 UTC of the first day to
 * 00:00 UTC after today. Everything is read from the orders table with SQL aggregates, never
 * estimated or cached:
 * - `series`: every day of the window, oldest first, zeros on days without activity; a sale counts on
 *   the UTC day it was paid (also when refunded later), `earned` = price - platform fee; a refund
 *   counts on the UTC day it was made, `refunded` = what left the seller (the sale's earned);
 * - `totals`: the sums of the series and `net` = earned - refunded;
 * - `top_collections`: at most 5 collections by earned in the window (then sales, then id);
 * - `clearance`: proceeds pending now, cleared in the window, and the next clearance (product.md §30);
 * - `downloads`: per collection with an order, all time (downloads carry no date): files handed out
 *   under its orders and its paid buyers.
 *
 * Units: sums are bigint minor units in SQL, answered as points strings with 2 decimals.
 */
import { minorToPoints, type SalesDashboard, type SalesDashboardDays, type SalesDay } from '@coffer/contract';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import * as repo from './sales.repository';

const DAY_MS = 86_400_000;
/** Most rows of `top_collections`. */
export const TOP_COLLECTIONS = 5;

export interface SalesDeps {
  db: Db;
  clock: Clock;
}

/** A signed minor-unit amount as a points string ("-12.50"). */
const points = (minor: bigint): string => (minor < 0n ? `-${minorToPoints(-minor)}` : minorToPoints(minor));

export function createSalesService(deps: SalesDeps) {
  const { db, clock } = deps;
  return {
    /** The caller's dashboard over the last `days` UTC days. @returns SalesDashboard (contract) */
    async dashboard(sellerId: string, days: SalesDashboardDays): Promise<SalesDashboard> {
      const today = Math.floor(clock.now() / DAY_MS) * DAY_MS;
      const from = new Date(today - (days - 1) * DAY_MS);
      const to = new Date(today + DAY_MS);
      const [sales, refunds, top, downloads, held] = await Promise.all([
        repo.salesPerDay(db, sellerId, from, to),
        repo.refundsPerDay(db, sellerId, from, to),
        repo.topCollections(db, sellerId, from, to, TOP_COLLECTIONS),
        repo.downloadsPerCollection(db, sellerId),
        repo.clearance(db, sellerId, from, to),
      ]);
      const salesBy = new Map(sales.map((s) => [s.day, s]));
      const refundsBy = new Map(refunds.map((r) => [r.day, r]));
      const series: SalesDay[] = [];
      let earned = 0n;
      let refunded = 0n;
      let salesCount = 0;
      let refundsCount = 0;
      for (let i = 0; i < days; i += 1) {
        const day = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
        const s = salesBy.get(day);
        const r = refundsBy.get(day);
        earned += s?.minor ?? 0n;
        refunded += r?.minor ?? 0n;
        salesCount += s?.count ?? 0;
        refundsCount += r?.count ?? 0;
        series.push({
          day,
          sales: s?.count ?? 0,
          earned: points(s?.minor ?? 0n),
          refunds: r?.count ?? 0,
          refunded: points(r?.minor ?? 0n),
        });
      }
      return {
        days,
        from: from.getTime(),
        to: to.getTime(),
        series,
        totals: {
          sales: salesCount,
          earned: points(earned),
          refunds: refundsCount,
          refunded: points(refunded),
          net: points(earned - refunded),
        },
        clearance: { pending: points(held.pending), cleared: points(held.cleared), next_clears_at: held.next },
        top_collections: top.map((t) => ({ collection_id: t.id, title: t.title, sales: t.count, earned: points(t.minor) })),
        downloads: downloads.map((d) => ({ collection_id: d.id, title: d.title, downloads: d.downloads, buyers: d.buyers })),
      };
    },
  };
}

export type SalesService = ReturnType<typeof createSalesService>;

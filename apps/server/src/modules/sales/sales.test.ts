/**
 * The sales dashboard (product §29) through the real app, with known data: exact per-day sales,
 * earnings (price minus the 10 % fee), a refund on a later day, zero days filled, UTC day edges,
 * totals, top collections, downloads per collection, the 7/30/90 windows, and envelope errors.
 *
 * On PostgreSQL the file runs on a scratch database of its own: the clearance job clears every due
 * sale in its database, and another file's job (on a clock months later than this file's) would clear
 * this file's held sales between its steps.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, type TestApp, type TestUser } from '../../test/harness';
import { createScratchDatabase, type ScratchDatabase } from '../../test/scratch-database';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';

let t: TestApp;
let scratch: ScratchDatabase | undefined;
const DAY = 86_400_000;
/** The test's "now": 2026-03-10 15:00 UTC. */
const NOW = Date.UTC(2026, 2, 10, 15);
const TODAY = Date.UTC(2026, 2, 10);

beforeAll(async () => {
  scratch = await createScratchDatabase('coffer_sales');
  t = await createTestApp({ PLATFORM_FEE_BPS: '1000', ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
});
afterAll(async () => {
  await t.close();
  await scratch?.drop();
});

/** A paid order of `collectionId` by a new buyer, its payment moved to `paidAt` (ms). @returns order id */
async function saleAt(collectionId: string, paidAt: number, downloads = 0): Promise<{ id: string; buyer: TestUser }> {
  const b = await createUser(t);
  await fund(t, b.id, '1000');
  const paid = await buyAndPay(t, b, collectionId);
  const id = paid.body.data.id as string;
  await t.app.ctx.database.db.execute(
    sql`update orders set paid_at = ${new Date(paidAt).toISOString()}::timestamptz, downloads = ${downloads} where id = ${id}`,
  );
  return { id, buyer: b };
}

const dashboard = (u: TestUser, days?: number) => ok(t, '/sl/v1/my/sales/dashboard', days === undefined ? {} : { days }, u.token);

describe('my/sales/dashboard', () => {
  it('answers exact integer sums per UTC day with zero days, a refund, totals, top collections and downloads', async () => {
    const seller = await createUser(t);
    const brushes = await publishedCollection(t, seller, 20, 'Brushes');
    const icons = await publishedCollection(t, seller, 7, 'Icons');
    const quiet = await publishedCollection(t, seller, 3, 'Quiet');
    // Someone else's sale never shows.
    const other = await createUser(t);
    const elsewhere = await publishedCollection(t, other, 50, 'Elsewhere');
    await saleAt(elsewhere.id, TODAY + 1_000);

    // 6 days ago: two Brushes sales (one at 00:00:00.000 UTC, one at 23:59:59.999 UTC), earned 2 x 18.00.
    await saleAt(brushes.id, TODAY - 6 * DAY, 3);
    const refundedLater = await saleAt(brushes.id, TODAY - 5 * DAY - 1, 0);
    // 2 days ago: one Icons sale, 7 - 0.70 = 6.30.
    await saleAt(icons.id, TODAY - 2 * DAY + 3_600_000, 5);
    // 7 days ago: outside the 7-day window, inside 30.
    await saleAt(quiet.id, TODAY - 7 * DAY + 1, 1);

    // Today the late Brushes order is refunded: 18.00 leaves the seller.
    t.clock.set(NOW);
    await ok(t, '/api/uc/v1/account/order/refund', { order_id: refundedLater.id }, seller.token);

    const week = await dashboard(seller, 7);
    expect(week).toMatchObject({ days: 7, from: TODAY - 6 * DAY, to: TODAY + DAY });
    expect(week.series).toEqual([
      { day: '2026-03-04', sales: 2, earned: '36.00', refunds: 0, refunded: '0.00' },
      { day: '2026-03-05', sales: 0, earned: '0.00', refunds: 0, refunded: '0.00' },
      { day: '2026-03-06', sales: 0, earned: '0.00', refunds: 0, refunded: '0.00' },
      { day: '2026-03-07', sales: 0, earned: '0.00', refunds: 0, refunded: '0.00' },
      { day: '2026-03-08', sales: 1, earned: '6.30', refunds: 0, refunded: '0.00' },
      { day: '2026-03-09', sales: 0, earned: '0.00', refunds: 0, refunded: '0.00' },
      { day: '2026-03-10', sales: 0, earned: '0.00', refunds: 1, refunded: '18.00' },
    ]);
    expect(week.totals).toEqual({ sales: 3, earned: '42.30', refunds: 1, refunded: '18.00', net: '24.30' });
    expect(week.top_collections).toEqual([
      { collection_id: brushes.id, title: 'Brushes', sales: 2, earned: '36.00' },
      { collection_id: icons.id, title: 'Icons', sales: 1, earned: '6.30' },
    ]);
    expect(week.downloads).toEqual([
      { collection_id: icons.id, title: 'Icons', downloads: 5, buyers: 1 },
      { collection_id: brushes.id, title: 'Brushes', downloads: 3, buyers: 1 },
      { collection_id: quiet.id, title: 'Quiet', downloads: 1, buyers: 1 },
    ]);

    const month = await dashboard(seller);
    expect(month.days).toBe(30);
    expect(month.series).toHaveLength(30);
    expect(month.series[0].day).toBe('2026-02-09');
    expect(month.series.find((d: { day: string }) => d.day === '2026-03-03')).toMatchObject({ sales: 1, earned: '2.70' });
    expect(month.totals).toEqual({ sales: 4, earned: '45.00', refunds: 1, refunded: '18.00', net: '27.00' });
    expect((await dashboard(seller, 90)).series).toHaveLength(90);
  });

  it('shows the proceeds pending now, those cleared in the window and the next clearance (product.md §30)', async () => {
    t.clock.set(NOW);
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10, 'Held');
    const first = await saleAt(c.id, NOW);
    await saleAt(c.id, NOW);
    // The first sale's hold ends now; the job clears it.
    await t.app.ctx.database.db.execute(sql`update orders set clears_at = paid_at where id = ${first.id}`);
    await t.app.ctx.services.clearance.clearDue();
    const week = await dashboard(seller, 7);
    expect(week.clearance).toEqual({ pending: '9.00', cleared: '9.00', next_clears_at: NOW + 7 * DAY });
    expect(week.totals).toMatchObject({ sales: 2, earned: '18.00' });
  });

  it('answers zeros and empty lists for a seller without sales', async () => {
    const u = await createUser(t);
    const d = await dashboard(u, 7);
    expect(d.series).toHaveLength(7);
    expect(d.series.every((s: { sales: number; refunds: number }) => s.sales === 0 && s.refunds === 0)).toBe(true);
    expect(d.totals).toEqual({ sales: 0, earned: '0.00', refunds: 0, refunded: '0.00', net: '0.00' });
    expect(d.top_collections).toEqual([]);
    expect(d.downloads).toEqual([]);
  });

  it('refuses other windows and signed-out callers with envelope errors', async () => {
    const u = await createUser(t);
    for (const days of [0, 14, '7', 7.5]) {
      const res = await t.call('/sl/v1/my/sales/dashboard', { days }, u.token);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ reason: 'VALIDATION_FAILED' });
      expect(res.body.code).not.toBe(10000);
    }
    expect((await t.call('/sl/v1/my/sales/dashboard', { days: 7 })).status).toBe(401);
  });
});

/**
 * Refunds under real concurrency (product §25), on PostgreSQL only: PGlite runs one connection, so
 * races can only be tested with DATABASE_URL. Skipped, with a message, without it. The app runs on a
 * scratch database of its own, so the ledger invariants (ledger.verify.ts) checked after each race see
 * only this file's postings; exactly one `refund:<order id>` transaction exists per refunded order.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, onPostgres, type TestApp } from '../../test/harness';
import { createScratchDatabase, type ScratchDatabase } from '../../test/scratch-database';
import { verifyLedger } from '../ledger/ledger.verify';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';

if (!onPostgres) console.warn('refunds.pg.test.ts: skipped — set DATABASE_URL to a PostgreSQL database to run the refund races');

describe.skipIf(!onPostgres)('refunds on PostgreSQL', () => {
  let t: TestApp;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    scratch = await createScratchDatabase('coffer_refunds');
    t = await createTestApp({ PLATFORM_FEE_BPS: '500', DATABASE_URL: scratch!.url });
  });
  afterAll(async () => {
    await t?.close();
    await scratch?.drop();
  });

  const refundPostings = async (orderId: string) => {
    const res = (await t.app.ctx.database.db.execute(
      sql`select count(*)::int as n from ledger_transactions where idempotency_key = ${`refund:${orderId}`}`,
    )) as unknown as { rows: { n: number }[] };
    return res.rows[0]!.n;
  };
  /** Available plus pending (a seller's proceeds are held, product.md "Clearance"), minor units. */
  const available = async (userId: string) => {
    const b = await t.app.ctx.services.ledger.balances(userId);
    return b.available + b.pending;
  };

  it('20 concurrent refunds of one order (seller and buyer mixed) post once', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const c = await publishedCollection(t, seller, 40, 'Raced');
    await fund(t, buyer.id, '40');
    const order = (await buyAndPay(t, buyer, c.id)).body.data;

    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2
        ? t.call('/api/uc/v1/account/order/refund', { order_id: order.id }, seller.token)
        : t.call('/api/uc/v1/account/order/refund/request', { order_id: order.id, reason: 'race' }, buyer.token),
    );
    const results = await Promise.all(calls);
    expect(results.every((r) => r.body.code === 10000 && r.body.data.status === 'OrderStatusRefunded')).toBe(true);

    expect(await refundPostings(order.id)).toBe(1);
    expect(await available(buyer.id)).toBe(4000n);
    expect(await available(seller.id)).toBe(0n);
    const detail = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id }, seller.token);
    expect(detail.collection).toMatchObject({ sold_count: 0, earned: 0 });
    expect((await verifyLedger(t.app.ctx.database.db)).violations).toEqual([]);
  });

  it('a refund request racing downloads: refunded with no download after it, or waiting after one', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10, 'Download race');
    for (let round = 0; round < 10; round++) {
      const buyer = await createUser(t);
      await fund(t, buyer.id, '10');
      const order = (await buyAndPay(t, buyer, c.id)).body.data;
      const [dl, req] = await Promise.all([
        t.call('/sl/v1/resource/download/url', { collection_id: c.id, resource_id: c.resource.id }, buyer.token),
        t.call('/api/uc/v1/account/order/refund/request', { order_id: order.id, reason: 'race' }, buyer.token),
      ]);
      expect(req.body.code).toBe(10000);
      if (req.body.data.status === 'OrderStatusRefunded') {
        // The refund came first: the download found no paid order.
        expect(dl.body.reason).toBe('FORBIDDEN');
        expect(await available(buyer.id)).toBe(1000n);
      } else {
        // The download came first: the request waits for the seller.
        expect(dl.body.code).toBe(10000);
        expect(req.body.data.refund_request).toMatchObject({ reason: 'race' });
        expect(await available(buyer.id)).toBe(0n);
      }
      expect(await refundPostings(order.id)).toBe(req.body.data.status === 'OrderStatusRefunded' ? 1 : 0);
    }
    expect((await verifyLedger(t.app.ctx.database.db)).violations).toEqual([]);
  });

  it('refunds racing new purchases of the same collection keep balances and counters exact', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 20, 'Busy');
    const first = await Promise.all(Array.from({ length: 10 }, () => createUser(t)));
    const second = await Promise.all(Array.from({ length: 10 }, () => createUser(t)));
    await Promise.all([...first, ...second].map((b) => fund(t, b.id, '20')));
    const orders = await Promise.all(first.map(async (b) => (await buyAndPay(t, b, c.id)).body.data));

    const [refunds, buys] = await Promise.all([
      Promise.all(orders.map((o) => t.call('/api/uc/v1/account/order/refund', { order_id: o.id }, seller.token))),
      Promise.all(second.map((b) => buyAndPay(t, b, c.id))),
    ]);
    expect(refunds.every((r) => r.body.data?.status === 'OrderStatusRefunded')).toBe(true);
    expect(buys.every((r) => r.body.data?.status === 'OrderStatusPaid')).toBe(true);

    // 10 sales remain: 10 x 19 points earned (5 % fee).
    expect(await available(seller.id)).toBe(10n * 1900n);
    const detail = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id }, seller.token);
    expect(detail.collection).toMatchObject({ sold_count: 10, earned: 190 });
    for (const b of first) expect(await available(b.id)).toBe(2000n);
    for (const o of orders) expect(await refundPostings(o.id)).toBe(1);
    expect((await verifyLedger(t.app.ctx.database.db)).violations).toEqual([]);
  });
});

/**
 * Purchases under real concurrency (issue 5), on PostgreSQL only: PGlite runs one connection, so
 * lock contention can only be tested with DATABASE_URL. Skipped, with a message, without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, onPostgres, type TestApp, type TestUser } from '../../test/harness';
import { verifyLedger } from '../ledger/ledger.verify';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';

if (!onPostgres)
  console.warn('orders.pg.test.ts: skipped — set DATABASE_URL to a PostgreSQL database to run the purchase concurrency tests');

describe.skipIf(!onPostgres)('purchases on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Available plus pending (a seller's proceeds are held, product.md "Clearance"), minor units. */
  const balance = async (user: TestUser) => {
    const b = await t.app.ctx.services.ledger.balances(user.id);
    return b.available + b.pending;
  };

  it('100 buyers buying the same collection at once: 100 sales, exact balances and counters', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 7, 'Hot item');
    const buyers = await Promise.all(Array.from({ length: 100 }, () => createUser(t)));
    await Promise.all(buyers.map((b) => fund(t, b.id, '10')));

    const results = await Promise.all(buyers.map((b) => buyAndPay(t, b, c.id)));
    expect(results.filter((r) => r.body.code === 10000 && r.body.data.status === 'OrderStatusPaid')).toHaveLength(100);

    expect(await balance(seller)).toBe(700n * 100n);
    for (const b of buyers) expect(await balance(b)).toBe(300n);
    const detail = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id });
    expect(detail.collection).toMatchObject({ sold_count: 100, earned: 700 });
    const report = await verifyLedger(t.app.ctx.database.db);
    expect(report.violations).toEqual([]);
  });

  it('one buyer firing 50 concurrent buys of 50 collections with money for 10: exactly 10 succeed', async () => {
    const seller = await createUser(t);
    const collections = [];
    for (let i = 0; i < 50; i++) collections.push(await publishedCollection(t, seller, 10, `Item ${i}`));
    const buyer = await createUser(t);
    await fund(t, buyer.id, '100');

    const results = await Promise.all(collections.map((c) => buyAndPay(t, buyer, c.id)));
    const paid = results.filter((r) => r.body.code === 10000);
    const refused = results.filter((r) => r.body.code !== 10000);
    expect(paid).toHaveLength(10);
    expect(refused).toHaveLength(40);
    expect(refused.every((r) => r.body.reason === 'INSUFFICIENT_BALANCE')).toBe(true);

    expect(await balance(buyer)).toBe(0n);
    expect(await balance(seller)).toBe(100n * 100n);
    let sold = 0;
    let earned = 0;
    for (const c of collections) {
      const d = (await ok(t, '/sl/v1/collection/detail', { collection_id: c.id })).collection;
      sold += d.sold_count;
      earned += d.earned;
      expect(d.sold_count === 0 || d.sold_count === 1).toBe(true);
    }
    expect(sold).toBe(10);
    expect(earned).toBe(100);
    const bought = await ok(t, '/sl/v1/my/purchased/collections', { paginator: { page: 0, size: 50 } }, buyer.token);
    expect(bought.count).toBe(10);

    // Repeating every buy + pay afterwards charges nothing more.
    await Promise.all(collections.map((c) => buyAndPay(t, buyer, c.id)));
    expect(await balance(buyer)).toBe(0n);
    const report = await verifyLedger(t.app.ctx.database.db);
    expect(report.violations).toEqual([]);
  });

  it('two users buying from each other at the same instant both succeed (deadlock retried)', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const ca = await publishedCollection(t, a, 1, 'From A');
    const cb = await publishedCollection(t, b, 1, 'From B');
    await fund(t, a.id, '1');
    await fund(t, b.id, '1');
    const [ra, rb] = await Promise.all([buyAndPay(t, a, cb.id), buyAndPay(t, b, ca.id)]);
    expect(ra.body.data?.status).toBe('OrderStatusPaid');
    expect(rb.body.data?.status).toBe('OrderStatusPaid');
    expect(await balance(a)).toBe(100n);
    expect(await balance(b)).toBe(100n);
  });
});

/**
 * Discount code limits under real concurrency (product §28), on PostgreSQL only: two app instances on
 * one database (two group-commit queues, so pays of one code run in concurrent transactions) fire
 * many buys and pays at a code with max_uses N: exactly N orders are paid with it, the others are
 * refused and stay pending; a once-per-buyer code raced by one buyer across collections is used
 * once. The ledger is verified after each race. Skipped, with a message, without DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, onPostgres, type TestApp, type TestUser } from '../../test/harness';
import { ok, publishedCollection } from '../collections/collections.fixtures';
import { verifyLedger } from '../ledger/ledger.verify';

if (!onPostgres)
  console.warn('discounts.pg.test.ts: skipped — set DATABASE_URL to a PostgreSQL database to run the discount races');

describe.skipIf(!onPostgres)('discount code limits on PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ PLATFORM_FEE_BPS: '0' });
    b = await createTestApp({ PLATFORM_FEE_BPS: '0' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  /** Available plus pending (a seller's proceeds are held, product.md "Clearance"), minor units. */
  const balance = async (u: TestUser) => {
    const b = await a.app.ctx.services.ledger.balances(u.id);
    return b.available + b.pending;
  };

  /** Buys with the code and pays, on instance `t`; @returns the pay envelope (or the buy's refusal). */
  async function buyAndPay(t: TestApp, u: TestUser, collectionId: string, code: string) {
    const order = await t.call('/sl/v1/collection/buy', { collection_id: collectionId, code }, u.token);
    if (order.body.code !== 10000) return order;
    return t.call('/api/uc/v1/account/order/pay', { order_id: order.body.data.id }, u.token);
  }

  it('40 buyers racing a code with max_uses 7 on two instances: exactly 7 orders get it', async () => {
    const N = 7;
    const seller = await createUser(a);
    const c = await publishedCollection(a, seller, 20, 'Limited');
    const code = await ok(a, '/sl/v1/discount/create', { code: 'RACE7', kind: 'percent', value: 25, max_uses: N }, seller.token);
    const buyers = await Promise.all(Array.from({ length: 40 }, () => createUser(a)));
    await Promise.all(buyers.map((u) => fund(a, u.id, '20')));

    // Every buy is priced first (all see the code usable), then every pay races.
    const orders = await Promise.all(
      buyers.map((u, i) => (i % 2 ? b : a).call('/sl/v1/collection/buy', { collection_id: c.id, code: 'race7' }, u.token)),
    );
    expect(orders.every((o) => o.body.code === 10000 && o.body.data.amount === 15)).toBe(true);
    const pays = await Promise.all(
      buyers.map((u, i) => (i % 2 ? a : b).call('/api/uc/v1/account/order/pay', { order_id: orders[i]!.body.data.id }, u.token)),
    );
    const paid = pays.filter((p) => p.body.code === 10000);
    expect(paid).toHaveLength(N);
    expect(paid.every((p) => p.body.data.amount === 15 && p.body.data.discount === 5)).toBe(true);
    const refused = pays.filter((p) => p.body.code !== 10000);
    expect(refused.every((p) => p.status === 409 && p.body.reason === 'CONFLICT')).toBe(true);

    const listed = (await ok(a, '/sl/v1/discount/list', {}, seller.token)).codes.find((x: { id: string }) => x.id === code.id);
    expect(listed.uses).toBe(N);
    expect(await balance(seller)).toBe(BigInt(N * 15 * 100));
    const charged = (await Promise.all(buyers.map(balance))).filter((v) => v === 500n);
    expect(charged).toHaveLength(N);
    const report = await verifyLedger(a.app.ctx.database.db);
    expect(report.violations).toEqual([]);
  });

  it('buys and pays racing together (no pre-pricing) never pass the limit either', async () => {
    const N = 5;
    const seller = await createUser(a);
    const c = await publishedCollection(a, seller, 10, 'Limited 2');
    await ok(a, '/sl/v1/discount/create', { code: 'FIVE', kind: 'fixed', value: 4, max_uses: N }, seller.token);
    const buyers = await Promise.all(Array.from({ length: 30 }, () => createUser(a)));
    await Promise.all(buyers.map((u) => fund(a, u.id, '10')));
    const results = await Promise.all(buyers.map((u, i) => buyAndPay(i % 2 ? b : a, u, c.id, 'FIVE')));
    expect(results.filter((r) => r.body.code === 10000 && r.body.data.status === 'OrderStatusPaid')).toHaveLength(N);
    expect(await balance(seller)).toBe(BigInt(N * 6 * 100));
    expect((await verifyLedger(a.app.ctx.database.db)).violations).toEqual([]);
  });

  it('one buyer racing a once-per-buyer code across 6 collections on two instances uses it once', async () => {
    const seller = await createUser(a);
    const cs = [];
    for (let i = 0; i < 6; i++) cs.push(await publishedCollection(a, seller, 10, `Once ${i}`));
    await ok(a, '/sl/v1/discount/create', { code: 'ONEEACH', kind: 'fixed', value: 10, once_per_buyer: true }, seller.token);
    const u = await createUser(a);
    await fund(a, u.id, '100');
    const orders = await Promise.all(
      cs.map((c) => a.call('/sl/v1/collection/buy', { collection_id: c.id, code: 'ONEEACH' }, u.token)),
    );
    const pays = await Promise.all(
      orders.map((o, i) => (i % 2 ? b : a).call('/api/uc/v1/account/order/pay', { order_id: o.body.data.id }, u.token)),
    );
    expect(pays.filter((p) => p.body.code === 10000)).toHaveLength(1);
    expect(await balance(u)).toBe(10000n); // the one it paid was free
    expect((await verifyLedger(a.app.ctx.database.db)).violations).toEqual([]);
  });
});

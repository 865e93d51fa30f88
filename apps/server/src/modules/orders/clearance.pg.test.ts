/**
 * Clearance on PostgreSQL with two instances (product.md "Clearance", ADR 0045): both run the job at
 * once over the same due sales; `FOR UPDATE SKIP LOCKED` gives each sale to one of them, so every
 * sale clears exactly once (one `clear:<order id>` posting), refunds racing the job take the money
 * from wherever it is at their turn, and the ledger reconciles.
 *
 * PostgreSQL only (PGlite belongs to one process): skipped, with a message, without DATABASE_URL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, onPostgres, type TestApp } from '../../test/harness';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';
import { verifyLedger } from '../ledger/ledger.verify';

if (!onPostgres) console.warn('clearance.pg.test.ts: skipped — two instances need a shared PostgreSQL database (set DATABASE_URL)');

const DAY = 24 * 3_600_000;

describe.skipIf(!onPostgres)('clearance on two instances', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ SESSION_TTL_HOURS: '2000', PLATFORM_FEE_BPS: '500' });
    b = await createTestApp({ SESSION_TTL_HOURS: '2000', PLATFORM_FEE_BPS: '500' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('clears each due sale exactly once while both instances run the job and refunds race it', async () => {
    const seller = await createUser(a);
    const c = await publishedCollection(a, seller, 20, 'Race');
    const buyers = await Promise.all(Array.from({ length: 30 }, () => createUser(b)));
    await Promise.all(buyers.map((u) => fund(a, u.id, '20')));
    const orders: string[] = [];
    for (const [i, u] of buyers.entries()) {
      const paid = await buyAndPay(i % 2 ? a : b, u, c.id);
      expect(paid.body.code).toBe(10000);
      orders.push(paid.body.data.id as string);
    }
    // 20 points minus the 5 % fee, held for each of the 30 sales.
    expect(await a.app.ctx.services.ledger.balances(seller.id)).toMatchObject({ available: 0n, pending: 30n * 1900n });

    a.clock.advance(8 * DAY);
    b.clock.advance(8 * DAY);
    const refunded = buyers.slice(0, 5);
    const cleared = await Promise.all([
      a.app.ctx.services.clearance.clearDue(),
      b.app.ctx.services.clearance.clearDue(),
      ...refunded.map((_, i) =>
        ok(i % 2 ? a : b, '/api/uc/v1/account/order/refund', { order_id: orders[i] }, seller.token).then(() => 0),
      ),
      a.app.ctx.services.clearance.clearDue(),
      b.app.ctx.services.clearance.clearDue(),
    ]);
    // (The jobs also clear other test files' due sales on a shared database: their counts are not checked.)
    expect(cleared).toHaveLength(9);
    // Whatever was left due after the race (none, or a refund's leftovers) clears now.
    await a.app.ctx.services.clearance.clearDue();

    // Whatever the order of the race: every sale is either refunded or cleared once.
    const db = a.app.ctx.database.db;
    const { rows } = (await db.execute(
      sql`select o.status, o.cleared_at is not null as cleared,
            (select count(*)::int from ledger_transactions t where t.idempotency_key = 'clear:' || o.id) as clears
          from orders o where o.collection_id = ${c.id}`,
    )) as unknown as { rows: { status: string; cleared: boolean; clears: number }[] };
    expect(rows).toHaveLength(30);
    for (const r of rows) {
      expect(r.clears).toBe(r.cleared ? 1 : 0);
      if (r.status === 'OrderStatusPaid') expect(r.cleared).toBe(true);
    }
    const stillPaid = rows.filter((r) => r.status === 'OrderStatusPaid').length;
    expect(stillPaid).toBe(25);
    // The seller holds exactly the 25 sales that stand, all available now.
    expect(await b.app.ctx.services.ledger.balances(seller.id)).toMatchObject({ available: 25n * 1900n, pending: 0n });
    for (const u of refunded) expect((await b.app.ctx.services.ledger.balances(u.id)).available).toBe(2000n);
    expect((await verifyLedger(db)).violations).toEqual([]);
  });
});

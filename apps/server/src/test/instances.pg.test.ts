/**
 * Two instances of the app on one PostgreSQL database (and one Redis), as behind a load balancer
 * (docs/abuse.md, "Several instances"): wrong logins and wrong passwords spread over both hit the same
 * limit as on one; a logout on one is refused on the other without waiting for the session cache
 * (the clock is frozen, so the cache alone would trust the token for ever); purchases and payouts
 * through both stay exact (ledger verify). Then the same revocation through PostgreSQL LISTEN/NOTIFY without Redis.
 *
 * PostgreSQL only (PGlite belongs to one process): skipped, with a message, without DATABASE_URL.
 * Redis at REDIS_TEST_URL (default redis://127.0.0.1:6379), keys under a prefix unique to the run.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_READ_CACHE_TTL_MS } from '../lib/read-cache';
import { verifyLedger } from '../modules/ledger/ledger.verify';
import { buyAndPay, ok, publishedCollection } from '../modules/collections/collections.fixtures';
import { createTestApp, createUser, fund, md5, onPostgres, PASSWORD, type TestApp } from './harness';

if (!onPostgres)
  console.warn('instances.pg.test.ts: skipped — two instances need a shared PostgreSQL database (set DATABASE_URL)');

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const uc = (p: string) => `/api/uc/v1/account${p}`;
const WRONG = md5('Wrong#1234');

/** Polls `probe` (every 20 ms, up to 10 s) until it answers true; @returns how many probes it took. */
async function until(probe: () => Promise<boolean>): Promise<number> {
  for (let i = 1; i <= 500; i++) {
    if (await probe()) return i;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not reached within 10 s');
}

/** Two instances sharing the database (and Redis when `redis`), with one signing secret. */
async function twoInstances(redis: boolean): Promise<[TestApp, TestApp]> {
  const env = {
    STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex'),
    ...(redis ? { REDIS_URL, REDIS_KEY_PREFIX: `coffer-test-${randomBytes(6).toString('hex')}:` } : {}),
  };
  const a = await createTestApp(env);
  const b = await createTestApp(env);
  return [a, b];
}

describe.skipIf(!onPostgres)('two instances, one PostgreSQL and one Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    [a, b] = await twoInstances(true);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('wrong logins from one address spread over both instances hit the per-(account, address) limit of one (10)', async () => {
    const user = await createUser(a);
    for (let i = 0; i < 10; i++) {
      const res = await (i % 2 ? b : a).call(uc('/login'), { account: user.username, password: WRONG });
      expect(res.body.reason).toBe('INVALID_CREDENTIALS');
    }
    for (const app of [a, b]) {
      const res = await app.call(uc('/login'), { account: user.username, password: md5(PASSWORD) });
      expect(res.status).toBe(429);
      expect(res.body.reason).toBe('RATE_LIMITED');
    }
  });

  it("wrong passwords spread over both instances spend one user's budget (10 in 15 minutes)", async () => {
    const user = await createUser(a);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? b : a).call(uc('/delete'), { password: WRONG }, user.token)),
    );
    const reasons = results.map((r) => r.body.reason);
    expect(reasons.filter((r) => r === 'INVALID_CREDENTIALS')).toHaveLength(10);
    expect(reasons.filter((r) => r === 'RATE_LIMITED')).toHaveLength(20);
    const right = await b.call(uc('/delete'), { password: md5(PASSWORD) }, user.token);
    expect(right.status).toBe(429);
    expect((await a.call(uc('/get/me'), {}, user.token)).body.code).toBe(10000);
  });

  it('a logout on one instance is refused on the other without waiting for its session cache', async () => {
    const user = await createUser(a);
    // B caches the live session (its clock is frozen: the 5 s cache lifetime never passes by itself).
    expect((await b.call(uc('/get/me'), {}, user.token)).body.code).toBe(10000);
    expect((await a.call(uc('/logout'), {}, user.token)).body.code).toBe(10000);
    const probes = await until(async () => (await b.call(uc('/get/me'), {}, user.token)).status === 401);
    expect(probes).toBeGreaterThanOrEqual(1);
    const refused = await b.call(uc('/get/me'), {}, user.token);
    expect(refused.body).toMatchObject({ reason: 'UNAUTHORIZED' });
  });

  it('purchases through both instances at once stay exact (ledger verify)', async () => {
    const seller = await createUser(a);
    const c = await publishedCollection(a, seller, 7, 'Shared');
    const buyers = await Promise.all(Array.from({ length: 20 }, () => createUser(b)));
    await Promise.all(buyers.map((u) => fund(a, u.id, '10')));
    const held = async () => {
      const x = await b.app.ctx.services.ledger.balances(seller.id);
      return x.available + x.pending; // proceeds are held (product.md "Clearance")
    };
    const before = await held();
    const paid = await Promise.all(buyers.map((u, i) => buyAndPay(i % 2 ? b : a, u, c.id)));
    expect(paid.every((p) => p.body.code === 10000)).toBe(true);
    // Buying again through the other instance changes nothing.
    await Promise.all(buyers.slice(0, 4).map((u, i) => buyAndPay(i % 2 ? a : b, u, c.id)));
    const after = await held();
    expect(after - before).toBe(20n * 700n);
    for (const u of buyers) expect((await b.app.ctx.services.ledger.balances(u.id)).available).toBe(300n);
    const collection = await ok(b, '/sl/v1/collection/detail', { collection_id: c.id });
    expect(collection.collection.sold_count).toBe(20);
    const report = await verifyLedger(a.app.ctx.database.db);
    expect(report.violations).toEqual([]);
  });

  it('payouts confirmed on both and worked by both payout workers at once are each paid once (ledger verify)', async () => {
    const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser(a)));
    await Promise.all(users.map((u) => fund(b, u.id, '3000')));
    const bills = await Promise.all(
      users.map(async (u, i) => {
        const app = i % 2 ? b : a;
        const created = await ok(
          app,
          uc('/withdraw/create'),
          { user_id: u.id, currency: 'usdttrc20', network: 'TRX', amount: '2500', address: TRON, memo: '' },
          u.token,
        );
        await ok(i % 2 ? a : b, uc('/withdraw/confirm'), { bill_id: created.bill.id, password: md5(PASSWORD) }, u.token);
        return created.bill.id as string;
      }),
    );
    const wa = a.app.ctx.services.withdrawals;
    const wb = b.app.ctx.services.withdrawals;
    await Promise.all([wa.runPayouts(), wb.runPayouts(), wa.runPayouts(), wb.runPayouts()]);
    for (const [i, u] of users.entries()) {
      const bill = await ok(a, uc('/withdraw/bill/detail'), { user_id: u.id, bill_id: bills[i] }, u.token);
      expect(bill.bill.status).toBe('WithdrawStatusSuccess');
      expect(await b.app.ctx.services.ledger.balances(u.id)).toMatchObject({ available: 50_000n, frozen: 0n });
    }
    expect((await verifyLedger(b.app.ctx.database.db)).violations).toEqual([]);
  });

  it("public reads on the other instance show a deleted seller's collection for at most the 2 s bound", async () => {
    const leaving = await createUser(a);
    const c = await publishedCollection(a, leaving, 0, 'Bound');
    const detail = (app: TestApp) => app.call('/sl/v1/collection/detail', { collection_id: c.id });
    // Instance b caches the public read.
    expect((await detail(b)).body.data.collection.status).toBe('Published');
    await ok(a, uc('/delete'), { password: md5(PASSWORD) }, leaving.token);
    // a archived through its collections service: its own reads show it at once.
    expect((await detail(a)).body.reason).toBe('NOT_FOUND');
    // b serves its cached row until the bound has passed on its clock, never after.
    b.clock.advance(PUBLIC_READ_CACHE_TTL_MS - 1);
    expect((await detail(b)).body.data.collection.status).toBe('Published');
    b.clock.advance(1);
    expect((await detail(b)).body.reason).toBe('NOT_FOUND');
  });
});

describe.skipIf(!onPostgres)('two instances without Redis: revocations through PostgreSQL LISTEN/NOTIFY', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    [a, b] = await twoInstances(false);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a password change on one instance revokes the sessions cached on the other', async () => {
    const user = await createUser(a);
    expect((await b.call(uc('/get/me'), {}, user.token)).body.code).toBe(10000);
    const changed = await a.call(
      uc('/password/change'),
      { password_old: md5(PASSWORD), password_new: md5('Other#1234') },
      user.token,
    );
    expect(changed.body.code).toBe(10000);
    await until(async () => (await b.call(uc('/get/me'), {}, user.token)).status === 401);
    expect((await b.call(uc('/get/me'), {}, changed.body.data.access_token)).body.code).toBe(10000);
  });
});

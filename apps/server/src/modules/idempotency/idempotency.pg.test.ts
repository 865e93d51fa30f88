/**
 * The same Idempotency-Key raced from two instances on one PostgreSQL database (docs/decisions/
 * 0051-idempotency-keys.md): for each of many keys, eight requests at once, half through each
 * instance, create exactly one top-up bill; every answer is that bill (first or replayed) or 409
 * IDEMPOTENCY_KEY_IN_USE, never a second bill or a 500. Then purchases: eight concurrent order/pay
 * with one key debit the buyer once (ledger verify).
 *
 * PostgreSQL only (PGlite is one connection: nothing races): skipped without DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, ledgerViolations, onPostgres, type TestApp } from '../../test/harness';
import { publishedCollection } from '../collections/collections.fixtures';

if (!onPostgres) console.warn('idempotency.pg.test.ts: skipped — two instances racing a key need PostgreSQL (set DATABASE_URL)');

/** Keys raced; a user holds at most 10 open top-up bills (MAX_OPEN_DEPOSIT_BILLS), so each user takes 10. */
const KEYS = 30;
const PER_KEY = 8;

describe.skipIf(!onPostgres)('Idempotency-Key raced from two instances', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex') };
    a = await createTestApp(env);
    b = await createTestApp(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const post = (t: TestApp, url: string, body: unknown, token: string, key: string) =>
    t.app
      .inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': key },
        payload: JSON.stringify(body),
      })
      .then((r) => ({ status: r.statusCode, body: r.json() }));

  it(`${KEYS} keys x ${PER_KEY} concurrent top-ups through both instances: one bill per key`, async () => {
    const users = [await createUser(a), await createUser(a), await createUser(a)];
    const outcomes = { first: 0, replayed: 0, inUse: 0 };
    for (let k = 0; k < KEYS; k++) {
      const key = `race-${k}`;
      const u = users[Math.floor(k / 10)]!;
      const answers = await Promise.all(
        Array.from({ length: PER_KEY }, (_, i) =>
          post(i % 2 ? b : a, '/api/uc/v1/account/deposit', { amount: '500', pay_currency: 'usdttrc20' }, u.token, key),
        ),
      );
      const ids = new Set<string>();
      for (const r of answers) {
        if (r.status === 200) ids.add(r.body.data.bill.id);
        else {
          expect(r.status).toBe(409);
          expect(r.body.reason, r.body.msg).toBe('IDEMPOTENCY_KEY_IN_USE');
          outcomes.inUse++;
        }
      }
      expect(ids.size).toBeLessThanOrEqual(1);
      // A last repeat, after all answered, is the stored answer.
      const after = await post(b, '/api/uc/v1/account/deposit', { amount: '500', pay_currency: 'usdttrc20' }, u.token, key);
      expect(after.status).toBe(200);
      if (ids.size) expect(after.body.data.bill.id).toBe([...ids][0]);
      outcomes.first++;
      outcomes.replayed += answers.filter((r) => r.status === 200).length - 1;
    }
    for (const u of users) {
      const bills = (await a.app.ctx.database.db.execute(sql`select count(*)::int as n from deposit_bills where user_id = ${u.id}`)) as unknown as {
        rows: { n: number }[];
      };
      expect(Number(bills.rows[0]!.n)).toBe(10);
    }
    console.log(`idempotency race: ${KEYS} keys, ${KEYS * PER_KEY} requests: ${KEYS} bills, ${outcomes.replayed} replays, ${outcomes.inUse} answered 409 in use`);
  });

  it(`${PER_KEY} concurrent order/pay with one key through both instances debit the buyer once`, async () => {
    const seller = await createUser(a);
    const buyer = await createUser(a);
    await fund(a, buyer.id, '100');
    const c = await publishedCollection(a, seller, 30, 'Raced');
    const order = await post(a, '/sl/v1/collection/buy', { collection_id: c.id }, buyer.token, 'order-1');
    expect(order.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: PER_KEY }, (_, i) =>
        post(i % 2 ? b : a, '/api/uc/v1/account/order/pay', { order_id: order.body.data.id }, buyer.token, 'pay-raced'),
      ),
    );
    for (const r of answers) expect([200, 409]).toContain(r.status);
    expect(answers.some((r) => r.status === 200)).toBe(true);
    expect((await a.app.ctx.services.ledger.balances(buyer.id)).available).toBe(7_000n);
    expect(await ledgerViolations(a)).toEqual([]);
  });
});

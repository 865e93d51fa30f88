/**
 * Idempotency keys through the real app (docs/decisions/0051-idempotency-keys.md, docs/api.md
 * "Idempotency keys"): a repeat answers the first success byte for byte and creates nothing; another
 * body answers 422; a running first request 409; a failed first request gives its key up; a claim
 * whose request died is taken over after 60 s; keys last 24 h, belong to one user, and a bad header
 * is refused with nothing done. The OpenAPI document shows the header on every idempotent call.
 */
import { ENDPOINTS, ERROR_TABLE } from '@coffer/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, type TestApp, type TestUser } from '../../test/harness';
import { publishedCollection } from '../collections/collections.fixtures';
import { KEY_TTL_MS, STALE_CLAIM_MS } from './idempotency.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** POSTs `body` to `url` with the token and the given Idempotency-Key header value(s). */
async function post(url: string, body: unknown, token: string, key?: string | string[]) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(key !== undefined ? { 'idempotency-key': key } : {}) },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, raw: res.body, body: res.json(), replayed: res.headers['idempotent-replayed'] };
}

const deposit = (u: TestUser, key?: string | string[], amount = '500') =>
  post('/api/uc/v1/account/deposit', { amount, pay_currency: 'usdttrc20' }, u.token, key);

async function billsOf(u: TestUser): Promise<number> {
  const res = (await t.app.ctx.database.db.execute(sql`select count(*)::int as n from deposit_bills where user_id = ${u.id}`)) as unknown as {
    rows: { n: number }[];
  };
  return Number(res.rows[0]!.n);
}

describe('Idempotency-Key', () => {
  it('answers a repeat with the first answer, byte for byte, and creates one top-up bill', async () => {
    const u = await createUser(t);
    const first = await deposit(u, 'topup-1');
    expect(first.status).toBe(200);
    expect(first.replayed).toBeUndefined();
    const again = await deposit(u, 'topup-1');
    expect(again.status).toBe(200);
    expect(again.replayed).toBe('true');
    expect(again.raw).toBe(first.raw);
    expect(await billsOf(u)).toBe(1);
    // The quoted form of the draft (an RFC 8941 sf-string) names the same key.
    expect((await deposit(u, '"topup-1"')).raw).toBe(first.raw);
    // Fields in another order are the same request.
    const reordered = await post('/api/uc/v1/account/deposit', { pay_currency: 'usdttrc20', amount: '500' }, u.token, 'topup-1');
    expect(reordered.raw).toBe(first.raw);
    // Without a key every call is new.
    await deposit(u);
    expect(await billsOf(u)).toBe(2);
  });

  it('group-commits concurrent claims and answers: 40 keys at once each run once and replay their own answer; two of one key run once', async () => {
    // Five users with eight keys each (a user holds at most 10 open bills), all sent at once, so their
    // claims (and then their answers) share batches.
    const users = await Promise.all(Array.from({ length: 5 }, () => createUser(t)));
    const asks = users.flatMap((u) => Array.from({ length: 8 }, (_, i) => ({ u, key: `burst-${i}` })));
    const [firsts, twins] = await Promise.all([
      Promise.all(asks.map(({ u, key }) => deposit(u, key))),
      Promise.all([deposit(users[0]!, 'twin'), deposit(users[0]!, 'twin')]),
    ]);
    expect(firsts.map((r) => r.status)).toEqual(asks.map(() => 200));
    expect(new Set(firsts.map((r) => r.body.data.bill.id)).size).toBe(40);
    // Of the two sent with one key, one ran; the other found it running (409) or replayed its answer.
    const ran = twins.filter((r) => r.status === 200 && r.replayed === undefined);
    expect(ran).toHaveLength(1);
    const other = twins.find((r) => r !== ran[0])!;
    if (other.status === 200) expect([other.replayed, other.raw]).toEqual(['true', ran[0]!.raw]);
    else expect(other.status).toBe(409);
    expect(await Promise.all(users.map(billsOf))).toEqual([9, 8, 8, 8, 8]);
    const replays = await Promise.all(asks.map(({ u, key }) => deposit(u, key)));
    replays.forEach((r, i) => expect([r.replayed, r.raw]).toEqual(['true', firsts[i]!.raw]));
    expect(await Promise.all(users.map(billsOf))).toEqual([9, 8, 8, 8, 8]);
  });

  it('refuses the same key with another body or another call with 422, doing nothing', async () => {
    const u = await createUser(t);
    await deposit(u, 'k-reuse');
    const other = await deposit(u, 'k-reuse', '600');
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ reason: 'IDEMPOTENCY_KEY_REUSED', code: ERROR_TABLE.IDEMPOTENCY_KEY_REUSED.code });
    expect(other.body.msg).toMatch(/different request/);
    const c = await publishedCollection(t, await createUser(t), 5, 'Reuse');
    const otherCall = await post('/sl/v1/collection/buy', { collection_id: c.id }, u.token, 'k-reuse');
    expect(otherCall.status).toBe(422);
    expect(await billsOf(u)).toBe(1);
  });

  it('gives the key up when the first request fails, so the retry runs (and then replays)', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const c = await publishedCollection(t, seller, 30, 'Pricey');
    const buy = () => post('/sl/v1/collection/buy', { collection_id: c.id }, buyer.token, 'buy-1');
    const short = await buy();
    expect(short.body.reason).toBe('INSUFFICIENT_BALANCE');
    await fund(t, buyer.id, '100');
    const order = await buy();
    expect(order.status).toBe(200);
    expect(order.replayed).toBeUndefined();
    const pay = () => post('/api/uc/v1/account/order/pay', { order_id: order.body.data.id }, buyer.token, 'pay-1');
    const paid = await pay();
    expect(paid.body).toMatchObject({ code: 10000, data: { status: 'OrderStatusPaid' } });
    const replay = await pay();
    expect(replay.replayed).toBe('true');
    expect(replay.raw).toBe(paid.raw);
    expect((await t.app.ctx.services.ledger.balances(buyer.id)).available).toBe(7_000n);
  });

  it('answers 409 while the first request runs, and lets a repeat take a claim that is 60 s old', async () => {
    const u = await createUser(t);
    const store = t.app.ctx.services.idempotency;
    // The first request holds the claim (as it would between its claim and its answer).
    const body = { amount: '500', pay_currency: 'usdttrc20' };
    const { requestFingerprint } = await import('../../lib/idempotency');
    const begun = await store.begin({ userId: u.id, key: 'slow', operation: 'deposit', fingerprint: requestFingerprint('deposit', body) });
    expect(begun.kind).toBe('claimed');
    const busy = await deposit(u, 'slow');
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ reason: 'IDEMPOTENCY_KEY_IN_USE', code: ERROR_TABLE.IDEMPOTENCY_KEY_IN_USE.code });
    expect(await billsOf(u)).toBe(0);
    // The first request's instance stopped: after STALE_CLAIM_MS a repeat runs.
    t.clock.advance(STALE_CLAIM_MS);
    const taken = await deposit(u, 'slow');
    expect(taken.status).toBe(200);
    expect(await billsOf(u)).toBe(1);
    // The dead request's late answer no longer writes over the key.
    if (begun.kind === 'claimed') await store.complete(begun.claim, 200, '{"stale":true}');
    expect((await deposit(u, 'slow')).raw).toBe(taken.raw);
  });

  it('keeps a key 24 h, then the same key is a new request; the purge deletes expired keys', async () => {
    const u = await createUser(t);
    const first = await deposit(u, 'daily');
    t.clock.advance(KEY_TTL_MS - 1);
    expect((await deposit(u, 'daily')).raw).toBe(first.raw);
    t.clock.advance(1);
    const next = await deposit(u, 'daily');
    expect(next.replayed).toBeUndefined();
    expect(next.body.data.bill.id).not.toBe(first.body.data.bill.id);
    expect(await billsOf(u)).toBe(2);
    t.clock.advance(KEY_TTL_MS);
    expect(await t.app.ctx.services.idempotency.purgeExpired()).toBeGreaterThanOrEqual(1);
    const left = (await t.app.ctx.database.db.execute(sql`select count(*)::int as n from idempotency_keys where user_id = ${u.id}`)) as unknown as {
      rows: { n: number }[];
    };
    expect(Number(left.rows[0]!.n)).toBe(0);
  });

  it('scopes keys to their user', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const fromA = await deposit(a, 'shared-key');
    const fromB = await deposit(b, 'shared-key');
    expect(fromB.replayed).toBeUndefined();
    expect(fromB.body.data.bill.id).not.toBe(fromA.body.data.bill.id);
    expect(await billsOf(b)).toBe(1);
  });

  it('refuses a bad header with 400 in the envelope and does nothing', async () => {
    const u = await createUser(t);
    for (const key of ['', '""', 'x'.repeat(256), 'clé', 'tab\there', ['a', 'b'], '"bad\\escape"']) {
      const res = await deposit(u, key);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body).toMatchObject({ reason: 'VALIDATION_FAILED' });
      expect(res.body.msg).toMatch(/Idempotency-Key/);
    }
    expect(await billsOf(u)).toBe(0);
    expect((await deposit(u, 'x'.repeat(255))).status).toBe(200);
  });

  it('documents the header, the replay header and 422 on every idempotent call', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json();
    const idempotent = Object.entries(ENDPOINTS).filter(([, e]) => 'idempotent' in e && e.auth === 'required');
    expect(idempotent.map(([k]) => k)).toEqual(expect.arrayContaining(['deposit', 'orderPay', 'collectionBuy', 'withdrawCreate', 'withdrawConfirm']));
    for (const [key, e] of idempotent) {
      const op = doc.paths[e.paths[0]]?.post;
      if (!op) continue; // sandboxPay is registered only in the sandbox (it is here)
      expect(op.parameters?.some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key'), key).toBe(true);
      expect(op.responses['422'], key).toBeDefined();
      expect(op.responses['200'].headers?.['Idempotent-Replayed'], key).toBeDefined();
    }
    expect(doc.paths['/api/uc/v1/account/get/me'].post.parameters ?? []).not.toContainEqual(expect.objectContaining({ name: 'Idempotency-Key' }));
  });
});

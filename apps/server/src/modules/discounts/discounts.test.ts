/**
 * Discount codes (product §28) through the real app: validation errors, percent and fixed math (the
 * discount rounded down, never below 0), case-insensitive codes unique per seller, expiry on the
 * app's manual clock, total and per-buyer limits counted at payment (a pending order burns no use),
 * another seller's code refused, disable, preview, the order's list price / discount / price paid,
 * the ledger posting the price paid and a refund giving back exactly that.
 */
import { applyDiscount } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp, type TestUser } from '../../test/harness';
import { ok, publishedCollection } from '../collections/collections.fixtures';
import { verifyLedger } from '../ledger/ledger.verify';
import { DISCOUNT_BUY_PER_MINUTE, DISCOUNT_PREVIEW_PER_MINUTE } from './discounts.routes';

let t: TestApp;
const DAY = 24 * 3_600_000;

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_FEE_BPS: '0' });
});
afterAll(async () => {
  await t?.close();
});

const available = async (u: TestUser) => (await t.app.ctx.services.ledger.balances(u.id)).available;
const create = (seller: TestUser, body: Record<string, unknown>) => t.call('/sl/v1/discount/create', body, seller.token);
const buy = (u: TestUser, collectionId: string, code?: string) =>
  t.call('/sl/v1/collection/buy', { collection_id: collectionId, ...(code !== undefined ? { code } : {}) }, u.token);
/** Pays with the password (the step-up, product.md "Step-up"): some tests move the clock by days. */
const pay = (u: TestUser, orderId: string) =>
  t.call('/api/uc/v1/account/order/pay', { order_id: orderId, password: md5(PASSWORD) }, u.token);
const pending = async (u: TestUser) => (await t.app.ctx.services.ledger.balances(u.id)).pending;

async function buyer(points = '1000') {
  const u = await createUser(t);
  await fund(t, u.id, points);
  return u;
}

describe('applyDiscount (contract)', () => {
  it('rounds the percent discount down and never goes below 0', () => {
    expect(applyDiscount(99, 'percent', 15)).toEqual({ discount: 14, amount: 85 }); // 14.85 -> 14 off
    expect(applyDiscount(10, 'percent', 100)).toEqual({ discount: 10, amount: 0 });
    expect(applyDiscount(1, 'percent', 50)).toEqual({ discount: 0, amount: 1 });
    expect(applyDiscount(30, 'fixed', 12)).toEqual({ discount: 12, amount: 18 });
    expect(applyDiscount(30, 'fixed', 50)).toEqual({ discount: 30, amount: 0 });
  });
});

describe('discount codes', () => {
  it('refuses bad input with a 400 envelope, never a 500', async () => {
    const seller = await createUser(t);
    const bad: Record<string, unknown>[] = [
      {},
      { code: '', kind: 'percent', value: 10 },
      { code: 'has space', kind: 'percent', value: 10 },
      { code: 'X'.repeat(33), kind: 'percent', value: 10 },
      { code: 'OK', kind: 'half', value: 10 },
      { code: 'OK', kind: 'percent', value: 101 },
      { code: 'OK', kind: 'percent', value: 0 },
      { code: 'OK', kind: 'fixed', value: 1.5 },
      { code: 'OK', kind: 'fixed', value: -3 },
      { code: 'OK', kind: 'fixed', value: 3, max_uses: 0 },
      { code: 'OK', kind: 'fixed', value: 3, collection_id: 'nope' },
      { code: 'OK', kind: 'fixed', value: 3, expires_at: 'tomorrow' },
      { code: 'OK', kind: 'fixed', value: 3, expires_at: t.clock.now() - 1 },
    ];
    for (const body of bad) {
      const res = await create(seller, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).not.toBe(10000);
      expect(res.body.reason).toBe('VALIDATION_FAILED');
    }
    const c = await publishedCollection(t, seller, 10);
    const b = await buyer();
    for (const code of ['bad code', 'X'.repeat(40), 42]) {
      const res = await t.call('/sl/v1/collection/buy', { collection_id: c.id, code }, b.token);
      expect(res.status).toBe(400);
    }
    expect((await t.call('/sl/v1/discount/disable', { discount_id: 'x' }, seller.token)).status).toBe(400);
    expect((await t.call('/sl/v1/discount/preview', { collection_id: c.id }, b.token)).status).toBe(400);
  });

  it('prices an order with a percent code: list price, discount (rounded down), price paid; the ledger posts the price paid', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 99);
    const created = await ok(
      t,
      '/sl/v1/discount/create',
      { code: 'spring15', kind: 'percent', value: 15, collection_id: c.id },
      seller.token,
    );
    expect(created).toMatchObject({ code: 'SPRING15', kind: 'percent', value: 15, uses: 0, active: true, collection_id: c.id });
    const b = await buyer('100');
    const preview = await ok(t, '/sl/v1/discount/preview', { collection_id: c.id, code: 'Spring15' });
    expect(preview).toEqual({ code: 'SPRING15', list_price: 99, discount: 14, amount: 85 });
    const order = (await buy(b, c.id, 'spring15')).body.data;
    expect(order).toMatchObject({ amount: 85, list_price: 99, discount: 14, status: 'OrderStatusPending' });
    // A pending order burns no use.
    expect((await ok(t, '/sl/v1/discount/list', {}, seller.token)).codes[0].uses).toBe(0);
    const paid = await pay(b, order.id);
    expect(paid.body.data).toMatchObject({ status: 'OrderStatusPaid', amount: 85 });
    expect(await available(b)).toBe(1500n); // 100 - 85 points, minor units
    expect(await pending(seller)).toBe(8500n); // held until it clears (product.md "Clearance")
    expect((await ok(t, '/sl/v1/discount/list', {}, seller.token)).codes[0].uses).toBe(1);
    // The refund gives back what was paid, not the list price.
    await ok(t, '/api/uc/v1/account/order/refund', { order_id: order.id }, seller.token);
    expect(await available(b)).toBe(10000n);
    expect(await available(seller)).toBe(0n);
    expect((await verifyLedger(t.app.ctx.database.db)).ok).toBe(true);
  });

  it('takes fixed points off, and a code worth more than the price makes a 0-point order', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 30);
    await ok(t, '/sl/v1/discount/create', { code: 'TENOFF', kind: 'fixed', value: 10 }, seller.token);
    await ok(t, '/sl/v1/discount/create', { code: 'FREE', kind: 'fixed', value: 500 }, seller.token);
    const b1 = await buyer('30');
    expect((await buy(b1, c.id, 'tenoff')).body.data).toMatchObject({ amount: 20, list_price: 30, discount: 10 });
    const b2 = await createUser(t); // no points at all
    const order = (await buy(b2, c.id, 'FREE')).body.data;
    expect(order).toMatchObject({ amount: 0, discount: 30 });
    expect((await pay(b2, order.id)).body.data.status).toBe('OrderStatusPaid');
    expect(await available(b2)).toBe(0n);
  });

  it('keeps codes unique per seller, case-insensitively; another seller may use the same code', async () => {
    const s1 = await createUser(t);
    const s2 = await createUser(t);
    await ok(t, '/sl/v1/discount/create', { code: 'Launch', kind: 'percent', value: 10 }, s1.token);
    const dup = await create(s1, { code: 'LAUNCH', kind: 'fixed', value: 1 });
    expect(dup.status).toBe(409);
    expect(dup.body.reason).toBe('CONFLICT');
    expect((await create(s2, { code: 'launch', kind: 'fixed', value: 1 })).body.code).toBe(10000);
  });

  it("refuses another seller's code, a code for another collection, and a collection of someone else", async () => {
    const s1 = await createUser(t);
    const s2 = await createUser(t);
    const c1 = await publishedCollection(t, s1, 10);
    const c1b = await publishedCollection(t, s1, 10);
    const c2 = await publishedCollection(t, s2, 10);
    await ok(t, '/sl/v1/discount/create', { code: 'ONLYONE', kind: 'percent', value: 50, collection_id: c1.id }, s1.token);
    const b = await buyer();
    const wrongSeller = await buy(b, c2.id, 'ONLYONE');
    expect(wrongSeller.status).toBe(400);
    expect(wrongSeller.body.msg).toBe('This code is not valid for this collection');
    expect((await buy(b, c1b.id, 'ONLYONE')).status).toBe(400);
    expect((await t.call('/sl/v1/discount/preview', { collection_id: c2.id, code: 'ONLYONE' })).status).toBe(400);
    const foreign = await create(s2, { code: 'MINE', kind: 'fixed', value: 1, collection_id: c1.id });
    expect(foreign.status).toBe(404);
    expect(
      (
        await t.call(
          '/sl/v1/discount/disable',
          { discount_id: (await ok(t, '/sl/v1/discount/list', {}, s1.token)).codes[0].id },
          s2.token,
        )
      ).status,
    ).toBe(404);
  });

  it('refuses an expired code at buy, and at payment when it expires in between', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10);
    await ok(
      t,
      '/sl/v1/discount/create',
      { code: 'SOON', kind: 'fixed', value: 5, expires_at: t.clock.now() + DAY },
      seller.token,
    );
    const b = await buyer();
    const order = (await buy(b, c.id, 'SOON')).body.data;
    expect(order.amount).toBe(5);
    t.clock.advance(DAY + 1);
    try {
      const expired = await buy(b, c.id, 'SOON');
      expect(expired.status).toBe(409);
      expect(expired.body.msg).toBe('This code has expired');
      const refused = await pay(b, order.id);
      expect(refused.status).toBe(409);
      expect(await available(b)).toBe(100000n);
      // Buying again without the code drops it: list price.
      const again = (await buy(b, c.id)).body.data;
      expect(again).toMatchObject({ id: order.id, amount: 10, discount: 0 });
      expect((await pay(b, order.id)).body.data.amount).toBe(10);
    } finally {
      t.clock.advance(-(DAY + 1));
    }
  });

  it('counts total uses at payment and never beyond max_uses; a refused debit gives its use back', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10);
    await ok(t, '/sl/v1/discount/create', { code: 'TWO', kind: 'percent', value: 50, max_uses: 2 }, seller.token);
    const poor = await buyer('1');
    // Priced at 5 while it had 1 point... refused at buy (balance), so fund just enough, then take it away.
    await fund(t, poor.id, '4');
    const poorOrder = (await buy(poor, c.id, 'TWO')).body.data;
    await t.app.ctx.services.ledger.post({
      key: `drain:${poor.id}`,
      kind: 'deposit',
      bizId: poor.id,
      entries: [
        { account: { userId: poor.id, kind: 'available' }, amount: -500n },
        { account: { platform: 'deposits' }, amount: 500n },
      ],
    });
    expect((await pay(poor, poorOrder.id)).body.reason).toBe('INSUFFICIENT_BALANCE');
    expect((await ok(t, '/sl/v1/discount/list', {}, seller.token)).codes[0].uses).toBe(0);

    const buyers = [await buyer(), await buyer(), await buyer()];
    const orders = [];
    for (const b of buyers) orders.push((await buy(b, c.id, 'TWO')).body.data);
    expect((await pay(buyers[0]!, orders[0].id)).body.code).toBe(10000);
    expect((await pay(buyers[1]!, orders[1].id)).body.code).toBe(10000);
    const third = await pay(buyers[2]!, orders[2].id);
    expect(third.status).toBe(409);
    expect(third.body.msg).toContain('can no longer be used');
    const list = (await ok(t, '/sl/v1/discount/list', {}, seller.token)).codes[0];
    expect(list).toMatchObject({ uses: 2, active: false });
    const usedUp = await buy(await buyer(), c.id, 'TWO');
    expect(usedUp.body.msg).toBe('This code has been used up');
  });

  it('allows one use per buyer when once_per_buyer, across collections', async () => {
    const seller = await createUser(t);
    const c1 = await publishedCollection(t, seller, 10);
    const c2 = await publishedCollection(t, seller, 10);
    await ok(t, '/sl/v1/discount/create', { code: 'ONCE', kind: 'fixed', value: 3, once_per_buyer: true }, seller.token);
    const b = await buyer();
    const o1 = (await buy(b, c1.id, 'once')).body.data;
    const o2 = (await buy(b, c2.id, 'once')).body.data; // both pending: nothing counted yet
    expect((await pay(b, o1.id)).body.data.amount).toBe(7);
    const second = await pay(b, o2.id);
    expect(second.status).toBe(409);
    expect(second.body.msg).toBe('You have already used this code');
    expect((await buy(b, c2.id, 'ONCE')).body.msg).toBe('You have already used this code');
    expect((await ok(t, '/sl/v1/discount/list', {}, seller.token)).codes[0].uses).toBe(1);
    expect((await ok(t, '/sl/v1/discount/preview', { collection_id: c2.id, code: 'ONCE' }, (await buyer()).token)).amount).toBe(
      7,
    );
  });

  it('disables a code (idempotent): refused at buy and at payment of an order priced before', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10);
    const code = await ok(t, '/sl/v1/discount/create', { code: 'OFF', kind: 'fixed', value: 2 }, seller.token);
    const b = await buyer();
    const order = (await buy(b, c.id, 'OFF')).body.data;
    const d1 = await ok(t, '/sl/v1/discount/disable', { discount_id: code.id }, seller.token);
    const d2 = await ok(t, '/sl/v1/discount/disable', { discount_id: code.id }, seller.token);
    expect(d1.active).toBe(false);
    expect(d2.disabled_at).toBe(d1.disabled_at);
    expect((await buy(b, c.id, 'OFF')).status).toBe(400);
    expect((await pay(b, order.id)).status).toBe(409);
  });

  it("pages the seller's codes and needs a session", async () => {
    const seller = await createUser(t);
    for (const code of ['A1', 'A2', 'A3']) await ok(t, '/sl/v1/discount/create', { code, kind: 'fixed', value: 1 }, seller.token);
    const page = await ok(t, '/sl/v1/discount/list', { paginator: { page: 0, size: 2 } }, seller.token);
    expect(page).toMatchObject({ totalCount: 3, totalPages: 2, hasNextPage: true });
    expect(page.codes.map((c: { code: string }) => c.code)).toHaveLength(2);
    expect((await t.call('/sl/v1/discount/list', {})).status).toBe(401);
  });

  it('rate limits discount/preview per IP (codes cannot be guessed)', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10);
    const preview = (ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/sl/v1/discount/preview',
        payload: { collection_id: c.id, code: 'GUESS' },
        remoteAddress: ip,
      });
    for (let i = 0; i < DISCOUNT_PREVIEW_PER_MINUTE; i++) expect((await preview('10.9.0.1')).statusCode).toBe(400);
    const limited = await preview('10.9.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().reason).toBe('RATE_LIMITED');
    expect((await preview('10.9.0.2')).statusCode).toBe(400);
  });

  it('rate limits collection/buy with a code per IP (codes cannot be guessed through the buy); buys without a code are not counted', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10);
    const u = await buyer();
    const buyFrom = (ip: string, code?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/sl/v1/collection/buy',
        headers: { authorization: `Bearer ${u.token}` },
        payload: { collection_id: c.id, ...(code ? { code } : {}) },
        remoteAddress: ip,
      });
    for (let i = 0; i < DISCOUNT_BUY_PER_MINUTE; i++) {
      const guess = await buyFrom('10.9.1.1', `GUESS${i}`);
      expect(guess.statusCode).toBe(400);
      expect(guess.json().reason).not.toBe('RATE_LIMITED');
    }
    const limited = await buyFrom('10.9.1.1', 'GUESSX');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ reason: 'RATE_LIMITED', msg: 'Too many attempts. Please try again later.' });
    // The same IP still buys without a code, and no order was made by the refused guesses.
    const plain = await buyFrom('10.9.1.1');
    expect(plain.statusCode).toBe(200);
    expect(plain.json().data).toMatchObject({ collection_id: c.id, amount: 10 });
    expect((await buyFrom('10.9.1.2', 'GUESSY')).statusCode).toBe(400);
  });
});

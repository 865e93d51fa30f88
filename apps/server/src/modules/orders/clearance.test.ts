/**
 * Money leaves only when it can no longer be undone (product.md "Clearance", "Step-up", "The price
 * the buyer saw", "This wasn't me"; docs/decisions/0045-clearance-and-step-up.md), through the real
 * app on its manual clock: proceeds held in the seller's `pending` account and cleared once by the
 * job; refunds inside the hold taken from pending and never waiting; spending that needs a fresh
 * proof; a buyer never charged more than the amount confirmed; the "This wasn't me" report. The
 * ledger's reconciliation runs after each flow.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp, type TestUser } from '../../test/harness';
import { totpCode } from '../account/two-factor';
import { verifyLedger } from '../ledger/ledger.verify';
import { ok, publishedCollection } from '../collections/collections.fixtures';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let t: TestApp;

const balances = (u: TestUser) => t.app.ctx.services.ledger.balances(u.id);
const assets = async (u: TestUser) => (await ok(t, '/api/uc/v1/account/assets', { user_id: u.id }, u.token)).asset;
const buy = (u: TestUser, collectionId: string) => ok(t, '/sl/v1/collection/buy', { collection_id: collectionId }, u.token);
const pay = (u: TestUser, body: Record<string, unknown>) => t.call('/api/uc/v1/account/order/pay', body, u.token);
const setPrice = (owner: TestUser, collectionId: string, amount: number) =>
  ok(t, '/sl/v1/collection/update', { collection_id: collectionId, amount }, owner.token);
const reconciled = async () => expect((await verifyLedger(t.app.ctx.database.db)).violations).toEqual([]);
/** Signs the user in again (a fresh session steps up): the clock moves past their old session's step-up. */
const signIn = async (u: TestUser): Promise<TestUser> => {
  const res = await ok(t, '/api/uc/v1/account/login', { account: u.username, password: md5(PASSWORD) });
  return { ...u, token: res.access_token as string };
};

/** A seller's collection at `price` and a buyer funded with `funds` points who paid for it. */
async function sale(price = 20, funds = '100') {
  const seller = await createUser(t);
  const buyer = await createUser(t);
  const c = await publishedCollection(t, seller, price, 'Held');
  await fund(t, buyer.id, funds);
  const order = await buy(buyer, c.id);
  const paid = await pay(buyer, { order_id: order.id, amount: order.amount });
  expect(paid.body.data.status).toBe('OrderStatusPaid');
  return { seller, buyer, c, order: paid.body.data as { id: string; paid_at: number; clears_at: number | null } };
}

beforeAll(async () => {
  // Sessions outlive the 7-day hold so the clock can move past it.
  t = await createTestApp({ SESSION_TTL_HOURS: '2000' });
});
afterAll(async () => {
  await t.close();
});

describe('clearance', () => {
  it('holds a sale in pending for 7 days: not spendable, not withdrawable; the job clears it once', async () => {
    const { seller, buyer, c, order } = await sale(20);
    expect(order.clears_at).toBe(order.paid_at + 7 * DAY);
    expect(await balances(seller)).toMatchObject({ available: 0n, pending: 2000n });
    expect(await assets(seller)).toMatchObject({ available: '0.00', freeze: '0.00', pending: '20.00', pending_clears_at: order.clears_at });

    // Pending points are neither spent nor cashed out.
    const other = await createUser(t);
    const elsewhere = await publishedCollection(t, other, 5, 'Elsewhere');
    expect((await t.call('/sl/v1/collection/buy', { collection_id: elsewhere.id }, seller.token)).body.reason).toBe(
      'INSUFFICIENT_BALANCE',
    );
    const cashOut = await t.call(
      '/api/uc/v1/account/withdraw/create',
      { currency: 'USDT', amount: '10', address: '0x' + '1'.repeat(40), network: 'ETH', user_id: seller.id },
      seller.token,
    );
    expect(cashOut.body.code).not.toBe(10000);
    expect(await balances(seller)).toMatchObject({ available: 0n, frozen: 0n, pending: 2000n });

    // Not due yet: nothing of this sale clears. (The job clears every due sale in the database:
    // on PostgreSQL other test files' sales share it, so the seller's balance is what is checked.)
    t.clock.advance(7 * DAY - MINUTE);
    await t.app.ctx.services.clearance.clearDue();
    expect(await balances(seller)).toMatchObject({ available: 0n, pending: 2000n });
    t.clock.advance(2 * MINUTE);
    expect(await t.app.ctx.services.clearance.clearDue()).toBeGreaterThanOrEqual(1);
    expect(await balances(seller)).toMatchObject({ available: 2000n, pending: 0n });
    expect(await assets(seller)).toMatchObject({ available: '20.00', pending: '0.00', pending_clears_at: null });
    // Clearing again changes nothing (one posting per sale, keyed clear:<order id>).
    await t.app.ctx.services.clearance.clearDue();
    expect(await balances(seller)).toMatchObject({ available: 2000n, pending: 0n });
    const { rows } = (await t.app.ctx.database.db.execute(
      sql`select count(*)::int as n from ledger_transactions where idempotency_key = ${`clear:${order.id}`}`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows[0]!.n).toBe(1);

    // The seller's dashboard and event feed show it.
    const sales = await ok(t, '/sl/v1/my/sales', { paginator: { page: 0, size: 10 } }, seller.token);
    expect(sales.orders[0]).toMatchObject({ id: order.id, clears_at: order.clears_at, cleared_at: t.clock.now() });
    const feed = await ok(t, '/api/uc/v1/account/events/list', {}, seller.token);
    expect(feed.events.map((e: { type: string }) => e.type)).toEqual(['sale', 'sale.cleared']);
    expect(feed.events[0].data).toMatchObject({ order_id: order.id, earned: '20.00', clears_at: order.clears_at });
    expect(feed.events[1].data).toMatchObject({ order_id: order.id, collection_id: c.id, earned: '20.00' });
    expect(buyer.id).not.toBe(seller.id);
    await reconciled();
  });

  it('refuses to delete a seller account while proceeds are pending, saying so', async () => {
    const { seller } = await sale(15);
    const res = await t.call('/api/uc/v1/account/delete', { password: md5(PASSWORD) }, seller.token);
    expect(res).toMatchObject({ status: 409, body: { reason: 'CONFLICT' } });
    expect(res.body.msg).toMatch(/proceeds are still pending/);
    expect((await t.call('/api/uc/v1/account/get/me', {}, seller.token)).body.code).toBe(10000);
  });

  it('refunds inside the hold from pending and never waits, even after the seller cashed out the rest', async () => {
    const { seller, buyer, order } = await sale(20);
    // The seller's available points are gone (spent or cashed out); the refund still goes through.
    expect((await balances(seller)).available).toBe(0n);
    const res = await ok(t, '/api/uc/v1/account/order/refund/request', { order_id: order.id, reason: 'not what I wanted' }, buyer.token);
    expect(res.status).toBe('OrderStatusRefunded');
    expect(await balances(seller)).toMatchObject({ available: 0n, pending: 0n });
    expect((await balances(buyer)).available).toBe(10000n);
    // A refunded sale never clears.
    t.clock.advance(8 * DAY);
    await t.app.ctx.services.clearance.clearDue();
    expect(await balances(seller)).toMatchObject({ available: 0n, pending: 0n });
    await reconciled();
  });
});

describe('step-up for spending', () => {
  it('pays without a prompt within 15 minutes of sign-in; then asks for the password; a wrong one changes nothing', async () => {
    const seller = await createUser(t);
    let buyer = await createUser(t);
    const a = await publishedCollection(t, seller, 10, 'A');
    const b = await publishedCollection(t, seller, 10, 'B');
    const free = await publishedCollection(t, seller, 0, 'Free');
    await fund(t, buyer.id, '50');

    t.clock.advance(16 * MINUTE);
    const order = await buy(buyer, a.id);
    const asked = await pay(buyer, { order_id: order.id, amount: 10 });
    expect(asked).toMatchObject({ status: 403, body: { code: 10013, reason: 'STEP_UP_REQUIRED', data: { method: 'password' } } });
    expect(asked.body.msg).toMatch(/enter your password/);
    const wrong = await pay(buyer, { order_id: order.id, amount: 10, password: md5('Wrong#1234') });
    expect(wrong.body.reason).toBe('INVALID_CREDENTIALS');
    expect((await balances(buyer)).available).toBe(5000n);

    const paid = await pay(buyer, { order_id: order.id, amount: 10, password: md5(PASSWORD) });
    expect(paid.body.data.status).toBe('OrderStatusPaid');
    // The step-up holds for the session: the next purchase needs nothing more.
    const next = await buy(buyer, b.id);
    expect((await pay(buyer, { order_id: next.id, amount: 10 })).body.data.status).toBe('OrderStatusPaid');
    expect((await balances(buyer)).available).toBe(3000n);

    // A free order moves nothing and needs no step-up.
    t.clock.advance(16 * MINUTE);
    const gift = await buy(buyer, free.id);
    expect((await pay(buyer, { order_id: gift.id })).body.data.status).toBe('OrderStatusPaid');
    // A fresh sign-in steps up too.
    buyer = await signIn(buyer);
    const c = await publishedCollection(t, seller, 10, 'C');
    const third = await buy(buyer, c.id);
    expect((await pay(buyer, { order_id: third.id, amount: 10 })).body.data.status).toBe('OrderStatusPaid');
    await reconciled();
  });

  it('with two-factor on, asks for a code (a password alone is not enough) and accepts a fresh one', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const c = await publishedCollection(t, seller, 10, '2FA');
    await fund(t, buyer.id, '20');
    const setup = await ok(t, '/api/uc/v1/account/2fa/setup', {}, buyer.token);
    const secret = new URL(setup.otpauth_uri as string).searchParams.get('secret')!;
    await ok(t, '/api/uc/v1/account/2fa/enable', { code: totpCode(secret, t.clock.now()) }, buyer.token);

    t.clock.advance(16 * MINUTE);
    const order = await buy(buyer, c.id);
    const asked = await pay(buyer, { order_id: order.id, amount: 10, password: md5(PASSWORD) });
    expect(asked).toMatchObject({ status: 403, body: { reason: 'STEP_UP_REQUIRED', data: { method: 'code' } } });
    expect((await pay(buyer, { order_id: order.id, code: '000000' === totpCode(secret, t.clock.now()) ? '111111' : '000000' })).body.reason).toBe(
      'INVALID_CREDENTIALS',
    );
    expect((await balances(buyer)).available).toBe(2000n);
    const paid = await pay(buyer, { order_id: order.id, amount: 10, code: totpCode(secret, t.clock.now()) });
    expect(paid.body.data.status).toBe('OrderStatusPaid');
    expect((await balances(buyer)).available).toBe(1000n);
    await reconciled();
  });
});

describe('the price the buyer saw', () => {
  it('never charges a pending order after the price changed: refuses, then re-quotes at the new price', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const c = await publishedCollection(t, seller, 100, 'Cut');
    await fund(t, buyer.id, '200');
    const order = await buy(buyer, c.id);
    expect(order.amount).toBe(100);
    await setPrice(seller, c.id, 10);

    const stale = await pay(buyer, { order_id: order.id });
    expect(stale).toMatchObject({ status: 409, body: { code: 10014, reason: 'PRICE_CHANGED' } });
    expect((await balances(buyer)).available).toBe(20000n);
    const requoted = await buy(buyer, c.id);
    expect(requoted).toMatchObject({ id: order.id, amount: 10, status: 'OrderStatusPending' });
    // The amount confirmed must be the order's: the old figure is refused.
    expect((await pay(buyer, { order_id: order.id, amount: 100 })).body.reason).toBe('PRICE_CHANGED');
    expect((await pay(buyer, { order_id: order.id, amount: 10 })).body.data).toMatchObject({ status: 'OrderStatusPaid', amount: 10 });
    expect((await balances(buyer)).available).toBe(19000n);
    // Once paid, a pay that confirmed another amount is refused rather than answered as paid.
    expect((await pay(buyer, { order_id: order.id, amount: 100 })).body.reason).toBe('PRICE_CHANGED');
    await reconciled();
  });

  it('does not keep a pending order at an old low price after a rise', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const c = await publishedCollection(t, seller, 1, 'Rise');
    await fund(t, buyer.id, '200');
    const order = await buy(buyer, c.id);
    await setPrice(seller, c.id, 90);
    expect((await pay(buyer, { order_id: order.id, amount: 1 })).body.reason).toBe('PRICE_CHANGED');
    expect((await buy(buyer, c.id)).amount).toBe(90);
    expect((await balances(buyer)).available).toBe(20000n);
  });

  it("expires a pending order's quote after 30 minutes ('Order Expired'); buying again quotes it anew", async () => {
    const seller = await createUser(t);
    let buyer = await createUser(t);
    const c = await publishedCollection(t, seller, 10, 'Slow');
    await fund(t, buyer.id, '20');
    const order = await buy(buyer, c.id);
    expect(order.expires_at).toBe(order.created_at + 30 * MINUTE);
    t.clock.advance(30 * MINUTE + 1);
    buyer = await signIn(buyer);
    const late = await pay(buyer, { order_id: order.id, amount: 10 });
    expect(late).toMatchObject({ status: 409, body: { reason: 'ORDER_EXPIRED', msg: 'Order Expired' } });
    const again = await buy(buyer, c.id);
    expect(again).toMatchObject({ id: order.id, amount: 10, expires_at: t.clock.now() + 30 * MINUTE });
    expect((await pay(buyer, { order_id: order.id, amount: 10 })).body.data.status).toBe('OrderStatusPaid');
  });
});

describe("'This wasn't me'", () => {
  it('stops clearing a reported sale; an operator reverses it from pending in one posting', async () => {
    const { seller, buyer, order } = await sale(30);
    const reported = await ok(t, '/api/uc/v1/account/order/report', { order_id: order.id, details: 'Not my purchase' }, buyer.token);
    expect(reported.reported_at).toBe(t.clock.now());
    // Reporting twice answers the same report.
    expect((await ok(t, '/api/uc/v1/account/order/report', { order_id: order.id }, buyer.token)).reported_at).toBe(reported.reported_at);

    t.clock.advance(8 * DAY);
    await t.app.ctx.services.clearance.clearDue();
    expect(await balances(seller)).toMatchObject({ available: 0n, pending: 3000n });
    const open = await t.app.ctx.services.refunds.openReports(50);
    expect(open.map((r) => r.order.id)).toContain(order.id);

    const { order: reversed, buyerId } = await t.app.ctx.services.refunds.reverseReported(order.id, 'card thief');
    expect(buyerId).toBe(buyer.id);
    expect(reversed.status).toBe('OrderStatusRefunded');
    expect(await balances(seller)).toMatchObject({ available: 0n, pending: 0n });
    expect((await balances(buyer)).available).toBe(10000n);
    const feed = await ok(t, '/api/uc/v1/account/events/list', {}, seller.token);
    expect(feed.events.at(-1)).toMatchObject({ type: 'refund', data: { by: 'operator', from: 'pending' } });
    expect((await t.app.ctx.services.refunds.openReports(50)).map((r) => r.order.id)).not.toContain(order.id);
    await reconciled();
  });

  it('a dismissed report lets the sale clear; a cleared sale can no longer be reported', async () => {
    const { seller, buyer, order } = await sale(10);
    await ok(t, '/api/uc/v1/account/order/report', { order_id: order.id }, buyer.token);
    await t.app.ctx.services.refunds.dismissReport(order.id);
    t.clock.advance(8 * DAY);
    await t.app.ctx.services.clearance.clearDue();
    expect(await balances(seller)).toMatchObject({ available: 1000n, pending: 0n });
    const late = await t.call('/api/uc/v1/account/order/report', { order_id: order.id }, buyer.token);
    expect(late).toMatchObject({ status: 409, body: { reason: 'CONFLICT' } });
    await reconciled();
  });
});

describe('the sandbox time machine', () => {
  it('clears the caller\'s own pending proceeds now through /api/dev/sandbox/clear, a reported sale excepted', async () => {
    const { seller, order } = await sale(10);
    const other = await sale(5);
    const buyer2 = await createUser(t);
    await fund(t, buyer2.id, '10');
    const c2 = await publishedCollection(t, seller, 7, 'Reported');
    const o2 = await buy(buyer2, c2.id);
    await pay(buyer2, { order_id: o2.id, amount: 7 });
    await ok(t, '/api/uc/v1/account/order/report', { order_id: o2.id }, buyer2.token);

    expect(await ok(t, '/api/dev/sandbox/clear', {}, seller.token)).toEqual({ cleared: 1 });
    expect(await balances(seller)).toMatchObject({ available: 1000n, pending: 700n });
    // Another seller's proceeds are untouched.
    expect(await balances(other.seller)).toMatchObject({ available: 0n, pending: 500n });
    expect(order.clears_at).not.toBeNull();
    await reconciled();
  });
});

describe('EARNINGS_HOLD_DAYS=0', () => {
  it('credits the seller at once, with no clearance', async () => {
    const f = await createTestApp({ EARNINGS_HOLD_DAYS: '0' });
    try {
      const seller = await createUser(f);
      const buyer = await createUser(f);
      const c = await publishedCollection(f, seller, 12, 'Now');
      await fund(f, buyer.id, '12');
      const order = await ok(f, '/sl/v1/collection/buy', { collection_id: c.id }, buyer.token);
      const paid = await ok(f, '/api/uc/v1/account/order/pay', { order_id: order.id, amount: 12 }, buyer.token);
      expect(paid.clears_at).toBeNull();
      expect(await f.app.ctx.services.ledger.balances(seller.id)).toMatchObject({ available: 1200n, pending: 0n });
      expect((await verifyLedger(f.app.ctx.database.db)).violations).toEqual([]);
    } finally {
      await f.close();
    }
  });
});

/**
 * Refunds (product §25) through the real app: the seller's refund, the buyer's automatic refund (no
 * download, within 14 days, on the app's manual clock), the request that waits (downloaded, late, or
 * the seller short of points), idempotency, access removed, records, counters, the seller's event,
 * my/sales, refusals, and the ledger invariants after it all. The platform fee is 10 % here, so the
 * reversal of the fee is checked too.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, feePosted, fund, type TestApp, type TestUser } from '../../test/harness';
import { verifyLedger } from '../ledger/ledger.verify';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';

let t: TestApp;

const DAY = 24 * 3_600_000;

const available = async (user: TestUser) => (await t.app.ctx.services.ledger.balances(user.id)).available;
const pendingOf = async (user: TestUser) => (await t.app.ctx.services.ledger.balances(user.id)).pending;

/** Lets the order's holding period end now and runs the clearance job (its proceeds become available). */
async function clearNow(orderId: string) {
  await t.app.ctx.database.db.execute(sql`update orders set clears_at = paid_at where id = ${orderId}`);
  await t.app.ctx.services.clearance.clearDue();
}

const recordsOf = async (user: TestUser) =>
  (await ok(t, '/api/uc/v1/account/record/list', { user_id: user.id, paginator: { page: 0, size: 50 } }, user.token)).records as {
    biz_id: string;
    type: string;
    direction: string;
    amount: string;
    status: string;
  }[];

/** Moves the order's payment `ms` into the past (sessions would expire if the clock moved instead). */
const paidAgo = (orderId: string, ms: number) =>
  t.app.ctx.database.db.execute(
    sql`update orders set paid_at = paid_at - ${`${ms} milliseconds`}::interval where id = ${orderId}`,
  );

/** A seller with a 20-point collection, a funded buyer and the buyer's paid order. */
async function sale(price = 20) {
  const seller = await createUser(t);
  const buyer = await createUser(t, { nickname: 'Ada' });
  const c = await publishedCollection(t, seller, price, 'Brushes');
  await fund(t, buyer.id, '100');
  const paid = await buyAndPay(t, buyer, c.id);
  expect(paid.body.data.status).toBe('OrderStatusPaid');
  return { seller, buyer, c, order: paid.body.data as { id: string } };
}

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_FEE_BPS: '1000' });
});
afterAll(async () => {
  await t.close();
});

describe('order/refund (seller)', () => {
  it('reverses the sale in one ledger transaction: balances, fee, records, counters, access, event', async () => {
    const { seller, buyer, c, order } = await sale();
    // Inside the holding period the proceeds are pending; the refund takes them from there.
    expect(await pendingOf(seller)).toBe(1800n);
    expect(await available(seller)).toBe(0n);
    expect(await available(buyer)).toBe(8000n);

    const refunded = await ok(t, '/api/uc/v1/account/order/refund', { order_id: order.id, reason: 'Wrong file' }, seller.token);
    expect(refunded).toMatchObject({ id: order.id, status: 'OrderStatusRefunded', refunded_at: t.clock.now() });

    expect(await available(seller)).toBe(0n);
    expect(await pendingOf(seller)).toBe(0n);
    expect(await available(buyer)).toBe(10000n);
    // The 10 % fee (2.00 points) goes back: the fee account is debited 200 minor units.
    expect(await feePosted(t, `refund:${order.id}`)).toBe(-200n);

    // Each record of the order names its collection (the Transactions rows show it).
    const brushes = { id: c.id, title: 'Brushes' };
    expect((await recordsOf(buyer)).filter((r) => r.biz_id === order.id)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'Refund', direction: 'Incoming', amount: '20.00', status: 'RecordStatusRefunded', collection: brushes }),
        expect.objectContaining({ type: 'Purchase', direction: 'Outgoing', amount: '20.00', collection: brushes }),
      ]),
    );
    expect((await recordsOf(seller)).filter((r) => r.biz_id === order.id && r.type === 'Refund')).toEqual([
      expect.objectContaining({ direction: 'Outgoing', amount: '18.00', status: 'RecordStatusRefunded', collection: brushes }),
    ]);
    expect((await recordsOf(seller)).find((r) => r.biz_id === order.id && r.type === 'Sale')).toMatchObject({ collection: brushes });

    const detail = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id }, buyer.token);
    expect(detail.purchased).toBe(false);
    // The page shows the refund instead of a Buy that cannot succeed (product.md §25.1).
    expect(detail.refunded).toBe(true);
    expect((await ok(t, '/sl/v1/collection/detail', { collection_id: c.id }, seller.token)).refunded).toBe(false);
    expect((await ok(t, '/sl/v1/collection/detail', { collection_id: c.id })).refunded).toBe(false);
    expect(detail.collection).toMatchObject({ sold_count: 0, earned: 0 });

    // Access is gone: single downloads and download all refuse; the purchase list drops it.
    const dl = await t.call('/sl/v1/resource/download/url', { collection_id: c.id, resource_id: c.resource.id }, buyer.token);
    expect(dl).toMatchObject({ status: 403, body: { reason: 'FORBIDDEN' } });
    const all = await t.call('/sl/v1/collection/download/all', { collection_id: c.id }, buyer.token);
    expect(all).toMatchObject({ status: 403, body: { reason: 'FORBIDDEN' } });
    expect((await ok(t, '/sl/v1/my/purchased/collections', { paginator: { page: 0, size: 10 } }, buyer.token)).count).toBe(0);
    const mine = await ok(t, '/sl/v1/my/orders', { paginator: { page: 0, size: 10 } }, buyer.token);
    expect(mine.orders[0]).toMatchObject({ id: order.id, status: 'OrderStatusRefunded' });

    // Paying or buying the refunded order again never charges.
    const again = await t.call('/api/uc/v1/account/order/pay', { order_id: order.id }, buyer.token);
    expect(again).toMatchObject({ status: 409, body: { reason: 'CONFLICT' } });
    expect(await available(buyer)).toBe(10000n);

    const events = await ok(t, '/api/uc/v1/account/events/list', {}, seller.token);
    expect(events.events.map((e: { type: string }) => e.type)).toEqual(['sale', 'refund']);
    expect(events.events[1].data).toMatchObject({ order_id: order.id, amount: 20, earned: '18.00', fee: '2.00', by: 'seller', from: 'pending' });

    expect((await verifyLedger(t.app.ctx.database.db)).violations).toEqual([]);
  });

  it('is idempotent: a second refund answers the refunded order and changes nothing', async () => {
    const { seller, buyer, order } = await sale();
    const first = await ok(t, '/api/uc/v1/account/order/refund', { order_id: order.id }, seller.token);
    const second = await ok(t, '/api/uc/v1/account/order/refund', { order_id: order.id }, seller.token);
    expect(second).toEqual(first);
    expect(await available(buyer)).toBe(10000n);
    expect(await available(seller)).toBe(0n);
    expect((await recordsOf(seller)).filter((r) => r.biz_id === order.id && r.type === 'Refund')).toHaveLength(1);
    const events = await ok(t, '/api/uc/v1/account/events/list', {}, seller.token);
    expect(events.events.filter((e: { type: string }) => e.type === 'refund')).toHaveLength(1);
  });

  it('refuses with INSUFFICIENT_BALANCE when the seller spent the cleared earnings, changing nothing', async () => {
    const { seller, buyer, c, order } = await sale();
    await clearNow(order.id);
    // The seller buys something with their earnings.
    const other = await createUser(t);
    const elsewhere = await publishedCollection(t, other, 10, 'Elsewhere');
    expect((await buyAndPay(t, seller, elsewhere.id)).body.code).toBe(10000);

    const res = await t.call('/api/uc/v1/account/order/refund', { order_id: order.id }, seller.token);
    expect(res).toMatchObject({ status: 409, body: { code: 10007, reason: 'INSUFFICIENT_BALANCE' } });
    expect(res.body.msg).toMatch(/too low to refund/);
    expect(await available(buyer)).toBe(8000n);
    expect((await ok(t, '/sl/v1/collection/detail', { collection_id: c.id }, buyer.token)).purchased).toBe(true);
    expect((await verifyLedger(t.app.ctx.database.db)).violations).toEqual([]);
  });

  it('refuses other users, unknown and pending orders with envelope errors', async () => {
    const { buyer, order } = await sale();
    const stranger = await createUser(t);
    expect(await t.call('/api/uc/v1/account/order/refund', { order_id: order.id }, stranger.token)).toMatchObject({
      status: 404,
      body: { reason: 'NOT_FOUND' },
    });
    // The buyer cannot use the seller's call.
    expect(await t.call('/api/uc/v1/account/order/refund', { order_id: order.id }, buyer.token)).toMatchObject({ status: 404 });
    const unknown = await t.call('/api/uc/v1/account/order/refund', { order_id: 'nope' }, buyer.token);
    expect(unknown.body.code).not.toBe(10000);
    expect(unknown.status).toBeLessThan(500);
    const bad = await t.call('/api/uc/v1/account/order/refund', {}, buyer.token);
    expect(bad).toMatchObject({ status: 400, body: { reason: 'VALIDATION_FAILED' } });
    expect(await t.call('/api/uc/v1/account/order/refund', { order_id: order.id })).toMatchObject({ status: 401 });

    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 5, 'Pending');
    const pending = await ok(t, '/sl/v1/collection/buy', { collection_id: c.id }, buyer.token);
    expect(await t.call('/api/uc/v1/account/order/refund', { order_id: pending.id }, seller.token)).toMatchObject({
      status: 409,
      body: { reason: 'CONFLICT' },
    });
  });
});

describe('order/refund/request (buyer)', () => {
  it('refunds at once within 14 days (13 days after payment) when nothing was downloaded', async () => {
    const { seller, buyer, c, order } = await sale();
    await paidAgo(order.id, 13 * DAY);
    const res = await ok(
      t,
      '/api/uc/v1/account/order/refund/request',
      { order_id: order.id, reason: 'Not what I expected' },
      buyer.token,
    );
    expect(res).toMatchObject({ status: 'OrderStatusRefunded' });
    expect(await available(buyer)).toBe(10000n);
    expect(await available(seller)).toBe(0n);
    expect((await ok(t, '/sl/v1/collection/detail', { collection_id: c.id }, buyer.token)).collection.sold_count).toBe(0);
    const events = await ok(t, '/api/uc/v1/account/events/list', {}, seller.token);
    expect(events.events[1].data).toMatchObject({ by: 'automatic', reason: 'Not what I expected' });
    // Asking again answers the refunded order.
    expect(await ok(t, '/api/uc/v1/account/order/refund/request', { order_id: order.id, reason: 'again' }, buyer.token)).toEqual(
      res,
    );
    expect((await verifyLedger(t.app.ctx.database.db)).violations).toEqual([]);
  });

  it('waits for the seller once a file was downloaded; the seller sees it and refunds', async () => {
    const { seller, buyer, c, order } = await sale();
    await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: c.resource.id }, buyer.token);
    const res = await ok(
      t,
      '/api/uc/v1/account/order/refund/request',
      { order_id: order.id, reason: 'Broken file' },
      buyer.token,
    );
    expect(res).toMatchObject({
      status: 'OrderStatusPaid',
      refund_request: { reason: 'Broken file', requested_at: t.clock.now() },
    });
    expect(await available(buyer)).toBe(8000n);

    const pending = await ok(t, '/sl/v1/my/sales', { paginator: { page: 0, size: 10 }, pending_requests: true }, seller.token);
    expect(pending).toMatchObject({
      count: 1,
      orders: [{ id: order.id, buyer: { id: buyer.id, nickname: 'Ada' }, refund_request: { reason: 'Broken file' } }],
    });
    const all = await ok(t, '/sl/v1/my/sales', { paginator: { page: 0, size: 10 } }, seller.token);
    expect(all.orders[0]).toMatchObject({ id: order.id, status: 'OrderStatusPaid', collection: { id: c.id } });

    const refunded = await ok(t, '/api/uc/v1/account/order/refund', { order_id: order.id }, seller.token);
    expect(refunded.status).toBe('OrderStatusRefunded');
    expect(
      (await ok(t, '/sl/v1/my/sales', { paginator: { page: 0, size: 10 }, pending_requests: true }, seller.token)).count,
    ).toBe(0);
    expect(await available(buyer)).toBe(10000n);
  });

  it('waits after download all, and past 14 days', async () => {
    const a = await sale();
    await ok(t, '/sl/v1/collection/download/all', { collection_id: a.c.id }, a.buyer.token);
    expect(
      (await ok(t, '/api/uc/v1/account/order/refund/request', { order_id: a.order.id, reason: 'r' }, a.buyer.token)).status,
    ).toBe('OrderStatusPaid');

    const b = await sale();
    await paidAgo(b.order.id, 14 * DAY + 1);
    expect(
      (await ok(t, '/api/uc/v1/account/order/refund/request', { order_id: b.order.id, reason: 'late' }, b.buyer.token)).status,
    ).toBe('OrderStatusPaid');
  });

  it('waits when the seller is short of points after clearance (nothing moves)', async () => {
    const { seller, buyer, order } = await sale();
    await clearNow(order.id);
    const other = await createUser(t);
    const elsewhere = await publishedCollection(t, other, 10, 'Elsewhere');
    expect((await buyAndPay(t, seller, elsewhere.id)).body.code).toBe(10000);
    const res = await ok(t, '/api/uc/v1/account/order/refund/request', { order_id: order.id, reason: 'please' }, buyer.token);
    expect(res).toMatchObject({ status: 'OrderStatusPaid', refund_request: { reason: 'please' } });
    expect(await available(buyer)).toBe(8000n);
    expect(await available(seller)).toBe(800n);
    expect((await verifyLedger(t.app.ctx.database.db)).violations).toEqual([]);
  });

  it("refuses another user's order, a missing reason and a pending order", async () => {
    const { buyer, order } = await sale();
    const stranger = await createUser(t);
    expect(
      await t.call('/api/uc/v1/account/order/refund/request', { order_id: order.id, reason: 'x' }, stranger.token),
    ).toMatchObject({ status: 404, body: { reason: 'NOT_FOUND' } });
    expect(
      await t.call('/api/uc/v1/account/order/refund/request', { order_id: order.id, reason: '  ' }, buyer.token),
    ).toMatchObject({
      status: 400,
      body: { reason: 'VALIDATION_FAILED' },
    });
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 5, 'Pending');
    const pending = await ok(t, '/sl/v1/collection/buy', { collection_id: c.id }, buyer.token);
    expect(
      await t.call('/api/uc/v1/account/order/refund/request', { order_id: pending.id, reason: 'x' }, buyer.token),
    ).toMatchObject({ status: 409, body: { reason: 'CONFLICT' } });
  });
});

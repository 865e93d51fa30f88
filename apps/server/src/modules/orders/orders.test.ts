/**
 * Buying (product §16-§17): collection/buy answers one order per buyer and collection, order/pay settles
 * it in one transaction (ledger, order, records, counters), never twice; refusals; the platform fee;
 * the account-deletion hook; and the ledger invariants after it all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, feePosted, fund, md5, PASSWORD, type TestApp, type TestUser } from '../../test/harness';
import { verifyLedger } from '../ledger/ledger.verify';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';

let t: TestApp;
let seller: TestUser;

const balance = async (t: TestApp, user: TestUser) =>
  (await ok(t, '/api/uc/v1/account/assets', { user_id: user.id }, user.token)).asset.available as string;
/** A seller's proceeds still in the holding period (product.md "Clearance"), points. */
const pending = async (t: TestApp, user: TestUser) =>
  (await ok(t, '/api/uc/v1/account/assets', { user_id: user.id }, user.token)).asset.pending as string;

const recordsOf = async (t: TestApp, user: TestUser) =>
  (await ok(t, '/api/uc/v1/account/record/list', { user_id: user.id, paginator: { page: 0, size: 50 } }, user.token)).records as {
    biz_id: string;
    type: string;
    direction: string;
    amount: string;
    status: string;
  }[];

beforeAll(async () => {
  t = await createTestApp();
  seller = await createUser(t);
});
afterAll(async () => {
  await t.close();
});

describe('collection/buy and order/pay', () => {
  it('moves the price from buyer to seller once, with the order, both records and the counters', async () => {
    const c = await publishedCollection(t, seller, 30, 'Brushes');
    const buyer = await createUser(t);
    await fund(t, buyer.id, '100');
    const sellerBefore = await balance(t, seller);
    const sellerPendingBefore = await pending(t, seller);

    const order = await ok(t, '/sl/v1/collection/buy', { collection_id: c.id }, buyer.token);
    expect(order).toMatchObject({ collection_id: c.id, amount: 30, status: 'OrderStatusPending', paid_at: null });
    expect((await ok(t, '/sl/v1/collection/buy', { collection_id: c.id }, buyer.token)).id).toBe(order.id);

    const paid = await ok(t, '/api/uc/v1/account/order/pay', { order_id: order.id }, buyer.token);
    expect(paid).toMatchObject({ id: order.id, status: 'OrderStatusPaid', paid_at: t.clock.now() });
    // Paying again, or buying again, never charges twice.
    expect(await ok(t, '/api/uc/v1/account/order/pay', { order_id: order.id }, buyer.token)).toEqual(paid);
    expect((await ok(t, '/sl/v1/collection/buy', { collection_id: c.id }, buyer.token)).id).toBe(order.id);

    expect(await balance(t, buyer)).toBe('70.00');
    // The proceeds are pending for EARNINGS_HOLD_DAYS (default 7): not available yet.
    expect(await balance(t, seller)).toBe(sellerBefore);
    expect(Number(await pending(t, seller)) - Number(sellerPendingBefore)).toBe(30);
    const detail = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id }, buyer.token);
    expect(detail.purchased).toBe(true);
    expect(detail.collection).toMatchObject({ sold_count: 1, earned: 30 });

    expect((await recordsOf(t, buyer)).filter((r) => r.biz_id === order.id)).toEqual([
      expect.objectContaining({ type: 'Purchase', direction: 'Outgoing', amount: '30.00', status: 'RecordStatusSuccess' }),
    ]);
    expect((await recordsOf(t, seller)).filter((r) => r.biz_id === order.id)).toEqual([
      expect.objectContaining({ type: 'Sale', direction: 'Incoming', amount: '30.00', status: 'RecordStatusSuccess' }),
    ]);

    const orders = await ok(t, '/sl/v1/my/orders', {}, buyer.token);
    expect(orders.count).toBe(1);
    expect(orders).toMatchObject({ page: 0, size: 10, totalCount: 1, totalPages: 1, hasNextPage: false });
    expect(orders.orders[0]).toMatchObject({
      id: order.id,
      status: 'OrderStatusPaid',
      collection: { id: c.id, title: 'Brushes' },
    });
    const bought = await ok(t, '/sl/v1/my/purchased/collections', { paginator: { page: 0, size: 5 } }, buyer.token);
    expect(bought).toMatchObject({
      count: 1,
      collections: [{ id: c.id }],
      page: 0,
      size: 5,
      totalCount: 1,
      totalPages: 1,
      hasNextPage: false,
    });
  });

  it('pages my/orders and my/purchased/collections with the paging fields (product §3 Pagination)', async () => {
    const buyer = await createUser(t);
    await fund(t, buyer.id, '10');
    const [a, b] = [await publishedCollection(t, seller, 1, 'Page A'), await publishedCollection(t, seller, 1, 'Page B')];
    await buyAndPay(t, buyer, a.id);
    t.clock.advance(1000);
    await buyAndPay(t, buyer, b.id);
    const paged = async (path: string, page: number) => ok(t, path, { paginator: { page, size: 1 } }, buyer.token);
    for (const path of ['/sl/v1/my/orders', '/sl/v1/my/purchased/collections']) {
      expect(await paged(path, 0), path).toMatchObject({
        page: 0,
        size: 1,
        totalCount: 2,
        totalPages: 2,
        hasNextPage: true,
        count: 2,
      });
      expect(await paged(path, 1), path).toMatchObject({
        page: 1,
        size: 1,
        totalCount: 2,
        totalPages: 2,
        hasNextPage: false,
        count: 2,
      });
    }
    expect((await paged('/sl/v1/my/orders', 1)).orders).toHaveLength(1);
    expect((await paged('/sl/v1/my/purchased/collections', 0)).collections).toHaveLength(1);
  });

  it('refuses the owner, unpublished collections, short balances and wrong passwords, changing nothing', async () => {
    const c = await publishedCollection(t, seller, 50, 'Textures');
    expect((await t.call('/sl/v1/collection/buy', { collection_id: c.id }, seller.token)).body).toMatchObject({
      reason: 'FORBIDDEN',
      msg: 'You cannot buy your own collection',
    });
    const draft = await ok(t, '/sl/v1/collection/create', { title: 'Draft', amount: 1 }, seller.token);
    const buyer = await createUser(t);
    expect((await t.call('/sl/v1/collection/buy', { collection_id: draft.id }, buyer.token)).body.reason).toBe('NOT_FOUND');

    const short = await t.call('/sl/v1/collection/buy', { collection_id: c.id }, buyer.token);
    expect(short.status).toBe(409);
    expect(short.body).toMatchObject({ reason: 'INSUFFICIENT_BALANCE', msg: 'Insufficient balance' });

    await fund(t, buyer.id, '60');
    const order = await ok(t, '/sl/v1/collection/buy', { collection_id: c.id }, buyer.token);
    const wrong = await t.call('/api/uc/v1/account/order/pay', { order_id: order.id, password: md5('Wrong#1234') }, buyer.token);
    expect(wrong.body.reason).toBe('INVALID_CREDENTIALS');
    // Someone else cannot pay (or see) the order.
    const other = await createUser(t);
    expect((await t.call('/api/uc/v1/account/order/pay', { order_id: order.id }, other.token)).body.reason).toBe('NOT_FOUND');
    expect(await balance(t, buyer)).toBe('60.00');

    // The balance drops below the price between buy and pay: the pay is refused and nothing moves.
    await t.app.ctx.services.ledger.post({
      key: `test-spend:${buyer.id}`,
      kind: 'withdraw_settle',
      bizId: buyer.id,
      entries: [
        { account: { userId: buyer.id, kind: 'available' }, amount: -2000n },
        { account: { platform: 'withdrawals' }, amount: 2000n },
      ],
    });
    const refused = await t.call('/api/uc/v1/account/order/pay', { order_id: order.id }, buyer.token);
    expect(refused.body.reason).toBe('INSUFFICIENT_BALANCE');
    // The cheap refusal comes before the password: a right and a wrong one get the same answer.
    for (const password of [md5(PASSWORD), md5('Wrong#1234')]) {
      const same = await t.call('/api/uc/v1/account/order/pay', { order_id: order.id, password }, buyer.token);
      expect(same.body).toMatchObject({ reason: 'INSUFFICIENT_BALANCE', msg: 'Insufficient balance' });
    }
    expect(await balance(t, buyer)).toBe('40.00');
    expect((await ok(t, '/sl/v1/my/orders', {}, buyer.token)).orders[0].status).toBe('OrderStatusPending');
    expect((await ok(t, '/sl/v1/collection/detail', { collection_id: c.id })).collection.sold_count).toBe(0);
    expect((await recordsOf(t, buyer)).some((r) => r.biz_id === order.id)).toBe(false);

    await fund(t, buyer.id, '10');
    const paid = await ok(t, '/api/uc/v1/account/order/pay', { order_id: order.id, password: md5(PASSWORD) }, buyer.token);
    expect(paid.status).toBe('OrderStatusPaid');
    expect(await balance(t, buyer)).toBe('0.00');
  });

  it('refuses to pay a pending order once the collection is deleted', async () => {
    const c = await publishedCollection(t, seller, 5, 'Gone');
    const buyer = await createUser(t);
    await fund(t, buyer.id, '5');
    const order = await ok(t, '/sl/v1/collection/buy', { collection_id: c.id }, buyer.token);
    await ok(t, '/sl/v1/collection/delete', { collection_id: c.id }, seller.token);
    const res = await t.call('/api/uc/v1/account/order/pay', { order_id: order.id }, buyer.token);
    expect(res.body).toMatchObject({ reason: 'CONFLICT', msg: 'This collection is no longer for sale' });
    expect(await balance(t, buyer)).toBe('5.00');
  });

  it('lets a free collection be bought without moving points', async () => {
    const c = await publishedCollection(t, seller, 0, 'Free');
    const buyer = await createUser(t);
    const res = await buyAndPay(t, buyer, c.id);
    expect(res.body.data.status).toBe('OrderStatusPaid');
    expect((await ok(t, '/sl/v1/collection/detail', { collection_id: c.id }, buyer.token)).purchased).toBe(true);
  });
});

describe('order/pay rate limit', () => {
  it('answers 429 after 120 calls a minute from one session', async () => {
    const user = await createUser(t);
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++)
      statuses.push((await t.call('/api/uc/v1/account/order/pay', { order_id: 'x' }, user.token)).status);
    expect(statuses.slice(0, 120).every((s) => s === 400)).toBe(true);
    expect(statuses[120]).toBe(429);
    // Another session is not affected.
    const other = await createUser(t);
    expect((await t.call('/api/uc/v1/account/order/pay', { order_id: 'x' }, other.token)).status).toBe(400);
  });
});

describe('account deletion', () => {
  it('archives the deleted seller’s published collections; buyers keep them', async () => {
    const leaving = await createUser(t);
    const c = await publishedCollection(t, leaving, 0, 'Farewell');
    const buyer = await createUser(t);
    await buyAndPay(t, buyer, c.id);
    // A visitor's reads are cached (for 2 s on the app's clock, which does not move here).
    const market = () => ok(t, '/sl/v1/market/collections', { paginator: { page: 0, size: 100 }, q: 'Farewell' });
    expect((await ok(t, '/sl/v1/collection/detail', { collection_id: c.id })).collection.status).toBe('Published');
    expect((await market()).collections.map((x: { id: string }) => x.id)).toContain(c.id);
    await ok(t, '/api/uc/v1/account/delete', { password: md5(PASSWORD) }, leaving.token);
    expect((await t.app.ctx.services.collections.find(c.id))?.status).toBe('Archived');
    // The archive went through the collections service: this instance shows it at once.
    expect((await t.call('/sl/v1/collection/detail', { collection_id: c.id })).body.reason).toBe('NOT_FOUND');
    expect((await market()).collections.map((x: { id: string }) => x.id)).not.toContain(c.id);
    expect((await ok(t, '/sl/v1/collection/detail', { collection_id: c.id }, buyer.token)).purchased).toBe(true);
    const link = await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: c.resource.id }, buyer.token);
    expect(link.url).toMatch(/\/files\/o\/(sealed\/)?resources\//);
  });
});

describe('platform fee', () => {
  it('sends PLATFORM_FEE_BPS of each sale to the fees account; the seller earns the rest', async () => {
    const f = await createTestApp({ PLATFORM_FEE_BPS: '250' });
    try {
      const s = await createUser(f);
      const b = await createUser(f);
      await fund(f, b.id, '10');
      const c = await publishedCollection(f, s, 9, 'Taxed');
      // The first fee ever is posted by a purchase that rolls back (the buyer spent the money
      // between buy and pay); the next purchase must still find the fees account.
      const early = await createUser(f);
      await fund(f, early.id, '9');
      const order = await ok(f, '/sl/v1/collection/buy', { collection_id: c.id }, early.token);
      await f.app.ctx.services.ledger.post({
        key: `test-spend:${early.id}`,
        kind: 'withdraw_settle',
        bizId: early.id,
        entries: [
          { account: { userId: early.id, kind: 'available' }, amount: -100n },
          { account: { platform: 'withdrawals' }, amount: 100n },
        ],
      });
      expect((await f.call('/api/uc/v1/account/order/pay', { order_id: order.id }, early.token)).body.reason).toBe(
        'INSUFFICIENT_BALANCE',
      );
      const paid = (await buyAndPay(f, b, c.id)).body.data as { id: string; status: string };
      expect(paid.status).toBe('OrderStatusPaid');
      expect(await balance(f, b)).toBe('1.00');
      expect(await pending(f, s)).toBe('8.78'); // 9.00 - floor(900 * 250 / 10000) = 9.00 - 0.22, held
      expect((await ok(f, '/sl/v1/collection/detail', { collection_id: c.id })).collection.earned).toBe(8.78);
      const report = await verifyLedger(f.app.ctx.database.db);
      expect(report.violations).toEqual([]);
      // From this purchase's own ledger transaction (other test files post fees on PostgreSQL too).
      expect(await feePosted(f, `purchase:${paid.id}`)).toBe(22n);
    } finally {
      await f.close();
    }
  });
});

describe('ledger', () => {
  it('holds every invariant after the flows above', async () => {
    const report = await verifyLedger(t.app.ctx.database.db);
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

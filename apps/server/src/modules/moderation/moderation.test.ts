/**
 * Reports, takedowns and suspensions (product §27) through the real app: `collection/report`, and
 * the operator actions (the moderation service the admin command drives) with their effects on the
 * market, details, buying, downloads, sign-in, sessions and cash-out; every action's audit row is
 * written in the action's own transaction.
 */
import { REPORT_DETAILS_MAX, REPORTS_PER_USER_PER_HOUR } from '@coffer/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, collections as collectionsTable, sellerEvents } from '../../db/schema/index';
import { createTestApp, createUser, fund, md5, type TestApp, type TestUser } from '../../test/harness';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';
import { createModerationService } from './moderation.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const services = () => t.app.ctx.services;
const db = () => t.app.ctx.database.db;
const operator = { by: 'ana', reason: 'DMCA notice 42' };

/** A seller with a published collection (unique title), a paying buyer and a stranger. */
async function scene(amount = 10) {
  const seller = await createUser(t);
  const buyer = await createUser(t);
  const stranger = await createUser(t);
  const title = `Pack ${seller.username}`;
  const c = await publishedCollection(t, seller, amount, title);
  await fund(t, buyer.id, '100');
  const paid = await buyAndPay(t, buyer, c.id);
  expect(paid.body.code, JSON.stringify(paid.body)).toBe(10000);
  return { seller, buyer, stranger, c, title };
}

const market = async (q: string) =>
  (await ok(t, '/sl/v1/market/collections', { paginator: { page: 0, size: 10 }, q })).collections;
const detail = (id: string, user?: TestUser) => t.call('/sl/v1/collection/detail', { collection_id: id }, user?.token);
const download = (c: { id: string; resource: { id: string } }, user: TestUser) =>
  t.call('/sl/v1/resource/download/url', { collection_id: c.id, resource_id: c.resource.id }, user.token);
const login = (user: TestUser) => t.call('/api/uc/v1/account/login', { account: user.username, password: md5(user.password) });
const auditOf = (target: string) => db().select().from(auditLog).where(eq(auditLog.target, target));

describe('collection/report', () => {
  it('stores one open report per reporter and collection; a repeat answers the same report', async () => {
    const { c, stranger } = await scene();
    const first = await t.call(
      '/sl/v1/collection/report',
      { collection_id: c.id, reason: 'copyright', details: ' mine ' },
      stranger.token,
    );
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'open', already_reported: false });
    const again = await t.call('/api/sl/v1/collection/report', { collection_id: c.id, reason: 'spam' }, stranger.token);
    expect(again.body.data).toMatchObject({ report_id: first.body.data.report_id, already_reported: true });
    const open = (await services().moderation.reports()).filter((r) => r.collectionId === c.id);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ reason: 'copyright', details: 'mine', reporter: stranger.username, status: 'open' });
  });

  it('answers envelope errors for bad input, a missing or own collection, and no session', async () => {
    const { c, seller, stranger } = await scene();
    const call = (body: unknown, token?: string) => t.call('/sl/v1/collection/report', body, token);
    const bad = await call({ collection_id: c.id, reason: 'ugly' }, stranger.token);
    expect([bad.status, bad.body.reason]).toEqual([400, 'VALIDATION_FAILED']);
    const long = await call(
      { collection_id: c.id, reason: 'other', details: 'x'.repeat(REPORT_DETAILS_MAX + 1) },
      stranger.token,
    );
    expect([long.status, long.body.reason]).toEqual([400, 'VALIDATION_FAILED']);
    expect(long.body.msg).toContain(`at most ${REPORT_DETAILS_MAX}`);
    const missing = await call({ collection_id: '0190d0d0-0000-7000-8000-000000000000', reason: 'spam' }, stranger.token);
    expect([missing.status, missing.body.reason]).toEqual([404, 'NOT_FOUND']);
    const own = await call({ collection_id: c.id, reason: 'spam' }, seller.token);
    expect([own.status, own.body.reason, own.body.msg]).toEqual([403, 'FORBIDDEN', 'You cannot report your own collection']);
    const visitor = await call({ collection_id: c.id, reason: 'spam' });
    expect([visitor.status, visitor.body.reason]).toEqual([401, 'UNAUTHORIZED']);
    expect((await call('not json at all', stranger.token)).status).toBe(400);
  });

  it(`allows ${REPORTS_PER_USER_PER_HOUR} reports an hour per user, then 429 RATE_LIMITED`, async () => {
    const { c } = await scene();
    const reporter = await createUser(t);
    for (let i = 0; i < REPORTS_PER_USER_PER_HOUR; i++) {
      const res = await t.call('/sl/v1/collection/report', { collection_id: c.id, reason: 'spam' }, reporter.token);
      expect(res.status).toBe(200);
    }
    const over = await t.call('/sl/v1/collection/report', { collection_id: c.id, reason: 'spam' }, reporter.token);
    expect([over.status, over.body.reason]).toEqual([429, 'RATE_LIMITED']);
    // Another user has a budget of their own.
    const other = await createUser(t);
    expect((await t.call('/sl/v1/collection/report', { collection_id: c.id, reason: 'spam' }, other.token)).status).toBe(200);
  });
});

describe('hide and unhide', () => {
  it('takes a collection off the market, search, details and buying; buyers and the owner keep it', async () => {
    const { seller, buyer, stranger, c, title } = await scene();
    expect((await market(title)).map((x: { id: string }) => x.id)).toEqual([c.id]);

    const row = await services().moderation.hide(c.id, operator);
    expect(row).toMatchObject({
      action: 'collection.hide',
      actor: 'ana',
      target: `collection:${c.id}`,
      reason: 'DMCA notice 42',
    });

    expect(await market(title)).toEqual([]);
    const page = await ok(t, '/sl/v1/user/collections', { user_id: seller.id, paginator: { page: 0, size: 10 } });
    expect(page.collections).toEqual([]);
    expect((await detail(c.id)).status).toBe(404);
    expect((await detail(c.id, stranger)).body.reason).toBe('NOT_FOUND');
    const buy = await t.call('/sl/v1/collection/buy', { collection_id: c.id }, stranger.token);
    expect([buy.status, buy.body.reason]).toEqual([404, 'NOT_FOUND']);
    const report = await t.call('/sl/v1/collection/report', { collection_id: c.id, reason: 'spam' }, stranger.token);
    expect(report.status).toBe(404);

    // The buyer keeps detail and downloads, without the owner's notice.
    const bought = await detail(c.id, buyer);
    expect(bought.body.data.purchased).toBe(true);
    expect(bought.body.data.collection.moderation).toBeUndefined();
    expect((await download(c, buyer)).status).toBe(200);
    // The owner sees the notice on the detail page and on My Collections.
    const own = await detail(c.id, seller);
    expect(own.body.data.collection.moderation).toMatchObject({ hidden: true, reason: 'DMCA notice 42', files_removed: false });
    const mine = await ok(t, '/sl/v1/my/collections', { paginator: { page: 0, size: 10 } }, seller.token);
    expect(mine.collections[0].moderation).toMatchObject({ hidden: true, reason: 'DMCA notice 42' });
    expect((await download(c, seller)).status).toBe(200);

    // The owner's seller event, written with the takedown.
    const events = await db()
      .select()
      .from(sellerEvents)
      .where(and(eq(sellerEvents.userId, seller.id), eq(sellerEvents.type, 'collection.hidden')));
    expect(events.map((e) => e.data)).toEqual([{ collection_id: c.id, reason: 'DMCA notice 42', files_removed: false }]);

    const lifted = await services().moderation.unhide(c.id, { by: 'ana', reason: 'counter-notice accepted' });
    expect(lifted.action).toBe('collection.unhide');
    expect((await market(title)).map((x: { id: string }) => x.id)).toEqual([c.id]);
    expect((await detail(c.id)).status).toBe(200);
    expect((await detail(c.id, seller)).body.data.collection.moderation).toBeUndefined();
    expect((await auditOf(`collection:${c.id}`)).map((r) => r.action).sort()).toEqual(['collection.hide', 'collection.unhide']);
  });

  it('--remove-files refuses every download (409) but keeps the stored file; unhide gives it back', async () => {
    const { seller, buyer, c } = await scene();
    await services().moderation.hide(c.id, { ...operator, removeFiles: true });
    for (const user of [buyer, seller]) {
      const res = await download(c, user);
      expect([res.status, res.body.reason]).toEqual([409, 'CONFLICT']);
      expect(res.body.msg).toBe('Coffer took this collection down and its files can no longer be downloaded.');
      const all = await t.call('/sl/v1/collection/download/all', { collection_id: c.id }, user.token);
      expect([all.status, all.body.reason]).toEqual([409, 'CONFLICT']);
    }
    // The buyer still sees what they bought; nothing was deleted.
    expect((await detail(c.id, buyer)).body.data.resources).toHaveLength(1);
    expect((await detail(c.id, seller)).body.data.collection.moderation.files_removed).toBe(true);
    await services().moderation.unhide(c.id, operator);
    const back = await download(c, buyer);
    expect(back.status).toBe(200);
    const file = await t.app.inject({
      method: 'GET',
      url: new URL(back.body.data.url).pathname + new URL(back.body.data.url).search,
    });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('contents of');
  });

  it('resolves the report it acts on, in the same transaction; refuses a report of another collection', async () => {
    const { c, stranger } = await scene();
    const other = await scene();
    const sent = await ok(t, '/sl/v1/collection/report', { collection_id: c.id, reason: 'illegal' }, stranger.token);
    const wrong = services().moderation.hide(other.c.id, { ...operator, reportId: sent.report_id });
    await expect(wrong).rejects.toMatchObject({ reason: 'CONFLICT' });
    const [untouched] = await db().select().from(collectionsTable).where(eq(collectionsTable.id, other.c.id));
    expect(untouched!.hiddenAt).toBeNull();

    await services().moderation.hide(c.id, { ...operator, reportId: sent.report_id });
    const [closed] = (await services().moderation.reports({ all: true })).filter((r) => r.id === sent.report_id);
    expect(closed).toMatchObject({ status: 'resolved', closedBy: 'ana', hidden: true });
    const [audit] = await auditOf(`collection:${c.id}`);
    expect(audit!.details).toMatchObject({ report_id: sent.report_id, remove_files: false });
    // A closed report cannot be closed again.
    await expect(services().moderation.closeReport(sent.report_id, 'dismissed', operator)).rejects.toMatchObject({
      reason: 'CONFLICT',
    });
  });

  it('refuses to pay an order created before the takedown, or while the seller is suspended', async () => {
    const { seller, stranger, c } = await scene();
    await fund(t, stranger.id, '100');
    const order = await ok(t, '/sl/v1/collection/buy', { collection_id: c.id }, stranger.token);
    const pay = () => t.call('/api/uc/v1/account/order/pay', { order_id: order.id }, stranger.token);
    await services().moderation.hide(c.id, operator);
    expect((await pay()).body).toMatchObject({ reason: 'CONFLICT', msg: 'This collection is no longer for sale' });
    await services().moderation.unhide(c.id, operator);
    await services().moderation.suspend(seller.id, operator);
    expect((await pay()).body).toMatchObject({ reason: 'CONFLICT', msg: 'This collection is no longer for sale' });
    await services().moderation.unsuspend(seller.id, operator);
    expect((await pay()).body.data.status).toBe('OrderStatusPaid');
  });

  it('writes nothing when the audit or event write fails: action and audit row commit together', async () => {
    const { c, title } = await scene();
    const failing = createModerationService({
      db: db(),
      clock: t.clock,
      collections: services().collections,
      events: {
        append: () => Promise.reject(new Error('event store down')),
      },
    });
    await expect(failing.hide(c.id, operator)).rejects.toThrow('event store down');
    const [row] = await db().select().from(collectionsTable).where(eq(collectionsTable.id, c.id));
    expect(row!.hiddenAt).toBeNull();
    expect(await auditOf(`collection:${c.id}`)).toEqual([]);
    expect((await market(title)).map((x: { id: string }) => x.id)).toEqual([c.id]);
  });

  it('refuses operator input that is missing or names nothing, with envelope-style errors', async () => {
    const { c } = await scene();
    await expect(services().moderation.hide(c.id, { by: '', reason: 'x' })).rejects.toMatchObject({
      reason: 'VALIDATION_FAILED',
    });
    await expect(services().moderation.hide(c.id, { by: 'ana', reason: '  ' })).rejects.toMatchObject({
      reason: 'VALIDATION_FAILED',
    });
    await expect(services().moderation.hide('nope', operator)).rejects.toMatchObject({ reason: 'NOT_FOUND' });
    await expect(services().moderation.unhide(c.id, operator)).rejects.toMatchObject({ reason: 'CONFLICT' });
    await expect(services().moderation.suspend('no_such_user', operator)).rejects.toMatchObject({ reason: 'NOT_FOUND' });
    await expect(services().moderation.closeReport('nope', 'resolved', operator)).rejects.toMatchObject({ reason: 'NOT_FOUND' });
    expect(await auditOf(`collection:${c.id}`)).toEqual([]);
  });
});

describe('suspend and unsuspend', () => {
  it('blocks sign-in, revokes sessions, stops sales and cash-out, keeps balances; lifting restores', async () => {
    const { seller, stranger, c, title } = await scene();
    await fund(t, seller.id, '5000');
    const before = await services().ledger.balances(seller.id);

    const row = await services().moderation.suspend(seller.username.toUpperCase(), { by: 'ana', reason: 'fraud' });
    expect(row).toMatchObject({ action: 'user.suspend', target: `user:${seller.id}`, reason: 'fraud' });
    expect(row.details).toMatchObject({ sessions_revoked: 1 });

    const denied = await login(seller);
    expect([denied.status, denied.body.reason]).toEqual([403, 'ACCOUNT_SUSPENDED']);
    expect(denied.body.msg).toContain('suspended by Coffer: fraud');
    // A wrong password still reads as a wrong password (the suspension is told only to the owner).
    const wrong = await t.call('/api/uc/v1/account/login', { account: seller.username, password: md5('Nope#1234') });
    expect(wrong.body.reason).toBe('INVALID_CREDENTIALS');
    expect((await t.call('/api/uc/v1/account/get/me', {}, seller.token)).status).toBe(401);

    expect(await market(title)).toEqual([]);
    const buy = await t.call('/sl/v1/collection/buy', { collection_id: c.id }, stranger.token);
    expect([buy.status, buy.body.reason]).toEqual([409, 'CONFLICT']);
    const cashOut = services().withdrawals.create(seller.id, {
      user_id: seller.id,
      currency: 'usdttrc20',
      network: 'TRX',
      amount: '2500',
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      memo: '',
    });
    await expect(cashOut).rejects.toMatchObject({ reason: 'ACCOUNT_SUSPENDED', status: 403 });
    expect(await services().ledger.balances(seller.id)).toEqual(before);
    await expect(services().moderation.suspend(seller.id, operator)).rejects.toMatchObject({ reason: 'CONFLICT' });

    const lifted = await services().moderation.unsuspend(seller.email, { by: 'ana', reason: 'appeal accepted' });
    expect(lifted.action).toBe('user.unsuspend');
    const back = await login(seller);
    expect(back.body.code).toBe(10000);
    const token = back.body.data.access_token as string;
    expect((await t.call('/api/uc/v1/account/get/me', {}, token)).body.data.id).toBe(seller.id);
    expect((await market(title)).map((x: { id: string }) => x.id)).toEqual([c.id]);
    const created = await t.call(
      '/api/uc/v1/account/withdraw/create',
      {
        user_id: seller.id,
        currency: 'usdttrc20',
        network: 'TRX',
        amount: '2500',
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        memo: '',
      },
      token,
    );
    expect(created.body.code, JSON.stringify(created.body)).toBe(10000);
    expect((await auditOf(`user:${seller.id}`)).map((r) => r.action).sort()).toEqual(['user.suspend', 'user.unsuspend']);
  });
});

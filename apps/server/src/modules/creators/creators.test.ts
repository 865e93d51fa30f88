/**
 * The public creator page (`creator/detail`) through the real app: signed out, the creator's public
 * profile, their published collections only (drafts, deleted and taken-down ones left out), newest
 * first and paged like the market; the rating over the counted reviews of all their collections;
 * NOT_FOUND for a user who does not exist, deleted their account or is suspended; bad bodies refused;
 * the call in /api/docs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp, type TestUser } from '../../test/harness';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const operator = { by: 'ana', reason: 'test' };
const page = (user_id: string, paginator = { page: 0, size: 10 }) =>
  t.call('/sl/v1/creator/detail', { user_id, paginator });

/** A funded buyer who paid for `collectionId` and rated it `rating` stars. */
async function reviewer(collectionId: string, rating: number): Promise<TestUser> {
  const b = await createUser(t);
  await fund(t, b.id, '100');
  expect((await buyAndPay(t, b, collectionId)).body.code).toBe(10000);
  await ok(t, '/sl/v1/review/upsert', { collection_id: collectionId, rating }, b.token);
  return b;
}

describe('creator/detail', () => {
  it('answers a visitor the creator and their published collections only, newest first, paged', async () => {
    const seller = await createUser(t, { nickname: 'Studio Mira' });
    const older = await publishedCollection(t, seller, 10, 'Older');
    t.clock.advance(1_000);
    const newer = await publishedCollection(t, seller, 20, 'Newer');
    t.clock.advance(1_000);
    // Not listed: never published, deleted, and taken down by Coffer.
    await ok(t, '/sl/v1/collection/create', { title: 'Draft', amount: 1, draft: true }, seller.token);
    const deleted = await publishedCollection(t, seller, 5, 'Deleted');
    await ok(t, '/sl/v1/collection/delete', { collection_id: deleted.id }, seller.token);
    const hidden = await publishedCollection(t, seller, 5, 'Hidden');
    await t.app.ctx.services.moderation.hide(hidden.id, operator);
    // Another seller's collection stays off this page.
    await publishedCollection(t, await createUser(t), 5, 'Someone else');

    const res = await page(seller.id);
    expect(res.status).toBe(200);
    expect(res.body.data.creator).toEqual({
      id: seller.id,
      username: seller.username,
      nickname: 'Studio Mira',
      avatar: '',
      created_at: expect.any(Number),
    });
    expect(res.body.data.collections.map((c: { title: string }) => c.title)).toEqual(['Newer', 'Older']);
    expect(res.body.data.collections[0]).toMatchObject({ id: newer.id, status: 'Published', seller: { id: seller.id } });
    expect(res.body.data).toMatchObject({ page: 0, size: 10, totalCount: 2, totalPages: 1, hasNextPage: false, count: 2 });

    const first = (await page(seller.id, { page: 0, size: 1 })).body.data;
    expect(first).toMatchObject({ totalCount: 2, totalPages: 2, hasNextPage: true });
    expect(first.collections.map((c: { id: string }) => c.id)).toEqual([newer.id]);
    const second = (await ok(t, '/api/sl/v1/creator/detail', { user_id: seller.id, paginator: { page: 1, size: 1 } })) as {
      collections: { id: string }[];
      hasNextPage: boolean;
    };
    expect(second.collections.map((c) => c.id)).toEqual([older.id]);
    expect(second.hasNextPage).toBe(false);
  });

  it('answers an empty page, with no rating, for a user who has published nothing', async () => {
    const user = await createUser(t);
    const data = await ok(t, '/sl/v1/creator/detail', { user_id: user.id });
    expect(data).toMatchObject({ collections: [], totalCount: 0, rating_sum: 0, rating_count: 0, creator: { id: user.id } });
  });

  it('rates the creator over the counted reviews of all their collections, refunds left out', async () => {
    const seller = await createUser(t);
    const a = await publishedCollection(t, seller, 10, 'A');
    const b = await publishedCollection(t, seller, 10, 'B');
    await reviewer(a.id, 5);
    await reviewer(b.id, 2);
    const refunded = await reviewer(a.id, 1);
    expect((await page(seller.id)).body.data).toMatchObject({ rating_sum: 8, rating_count: 3 });

    const order = (await ok(t, '/sl/v1/my/orders', {}, refunded.token)).orders[0];
    await ok(t, '/api/uc/v1/account/order/refund', { order_id: order.id }, seller.token);
    expect((await page(seller.id)).body.data).toMatchObject({ rating_sum: 7, rating_count: 2 });

    // Unpublishing a collection takes it off the page but not its reviews out of the rating.
    await ok(t, '/sl/v1/collection/unpublish', { collection_id: b.id }, seller.token);
    const after = (await page(seller.id)).body.data;
    expect(after.collections.map((c: { id: string }) => c.id)).toEqual([a.id]);
    expect(after).toMatchObject({ rating_sum: 7, rating_count: 2 });
  });

  it('answers 404 NOT_FOUND for an unknown, deleted or suspended user; the page returns when the suspension is lifted', async () => {
    const missing = await page('0190d0d0-0000-7000-8000-000000000000');
    expect([missing.status, missing.body.reason, missing.body.msg]).toEqual([404, 'NOT_FOUND', 'This creator does not exist']);

    const gone = await createUser(t);
    await publishedCollection(t, gone, 10, 'Gone');
    expect((await t.call('/api/uc/v1/account/delete', { password: md5(PASSWORD) }, gone.token)).body.code).toBe(10000);
    expect((await page(gone.id)).body.reason).toBe('NOT_FOUND');

    const suspended = await createUser(t);
    await publishedCollection(t, suspended, 10, 'Paused');
    await t.app.ctx.services.moderation.suspend(suspended.id, operator);
    const res = await page(suspended.id);
    expect([res.status, res.body.reason]).toEqual([404, 'NOT_FOUND']);
    await t.app.ctx.services.moderation.unsuspend(suspended.id, operator);
    expect((await page(suspended.id)).body.data.totalCount).toBe(1);
  });

  it('refuses a body without a valid user id or with a bad paginator', async () => {
    for (const body of [{}, { user_id: 'not-an-id' }, { user_id: '0190d0d0-0000-7000-8000-000000000000', paginator: { page: -1, size: 10 } }]) {
      const res = await t.call('/sl/v1/creator/detail', body);
      expect([res.status, res.body.reason], JSON.stringify(body)).toEqual([400, 'VALIDATION_FAILED']);
    }
  });

  it('is documented in /api/docs as a public call with its 404', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const op = doc.paths['/sl/v1/creator/detail'].post;
    expect(op).toMatchObject({ operationId: 'creatorDetail', security: [] });
    expect(op.summary).toMatch(/public page/);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
    expect(doc.paths['/api/sl/v1/creator/detail'].post.operationId).toBe('creatorDetailAlias1');
  });
});

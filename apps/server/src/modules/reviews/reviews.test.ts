/**
 * Reviews (product §29) through the real app: who may review, the integer rating totals on the
 * collection row (detail and market read them, the read cache never serves them stale after a
 * change on this instance), the page newest first, the seller's one reply, delete, the market's
 * `rating` sort, a refund taking the review out of the average, the seller's `review` events, and
 * envelope errors for bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, uniq, type TestApp, type TestUser } from '../../test/harness';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ PLATFORM_FEE_BPS: '1000' });
});
afterAll(async () => {
  await t.close();
});

/** A funded buyer who paid for `collectionId`. */
async function buyer(collectionId: string, nickname = 'Buyer'): Promise<TestUser> {
  const b = await createUser(t, { nickname });
  await fund(t, b.id, '100');
  const paid = await buyAndPay(t, b, collectionId);
  expect(paid.body.data.status).toBe('OrderStatusPaid');
  return b;
}

const detail = (id: string) => ok(t, '/sl/v1/collection/detail', { collection_id: id });
const upsert = (u: TestUser, collection_id: string, rating: number, text?: string) =>
  t.call('/sl/v1/review/upsert', { collection_id, rating, ...(text !== undefined ? { text } : {}) }, u.token);

describe('review/upsert', () => {
  it('lets a paid buyer write then edit one review; the collection keeps integer totals, read fresh', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10, 'Brushes');
    const a = await buyer(c.id, 'Ada');
    // Warm the public read cache first: a review must empty it.
    expect((await detail(c.id)).collection).toMatchObject({ rating_sum: 0, rating_count: 0 });

    const first = await upsert(a, c.id, 4, '  Lovely brushes  ');
    expect(first.status).toBe(200);
    expect(first.body.data.review).toMatchObject({
      collection_id: c.id,
      rating: 4,
      text: 'Lovely brushes',
      author: { id: a.id, nickname: 'Ada' },
      reply: null,
      refunded: false,
    });
    expect((await detail(c.id)).collection).toMatchObject({ rating_sum: 4, rating_count: 1 });

    t.clock.advance(1_000);
    const edited = await upsert(a, c.id, 2);
    expect(edited.body.data.review).toMatchObject({ id: first.body.data.review.id, rating: 2, text: '' });
    expect(edited.body.data.review.updated_at).toBeGreaterThan(edited.body.data.review.created_at);
    expect((await detail(c.id)).collection).toMatchObject({ rating_sum: 2, rating_count: 1 });

    const b = await buyer(c.id, 'Bo');
    await upsert(b, c.id, 5);
    expect((await detail(c.id)).collection).toMatchObject({ rating_sum: 7, rating_count: 2 });

    const events = await ok(t, '/api/uc/v1/account/events/list', {}, seller.token);
    const reviews = events.events.filter((e: { type: string }) => e.type === 'review');
    expect(reviews.map((e: { data: { action: string; rating: number } }) => [e.data.action, e.data.rating])).toEqual([
      ['created', 4],
      ['updated', 2],
      ['created', 5],
    ]);
  });

  it('refuses the owner, non-buyers and signed-out callers', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10);
    const own = await upsert(seller, c.id, 5);
    expect(own).toMatchObject({ status: 403, body: { reason: 'FORBIDDEN' } });
    expect(own.body.msg).toMatch(/your own collection/);
    const stranger = await createUser(t);
    const res = await upsert(stranger, c.id, 5);
    expect(res).toMatchObject({ status: 403, body: { reason: 'FORBIDDEN' } });
    expect(res.body.msg).toBe('Only buyers of this collection can review it.');
    const anon = await t.call('/sl/v1/review/upsert', { collection_id: c.id, rating: 5 });
    expect(anon.status).toBe(401);
    const missing = await upsert(stranger, '00000000-0000-4000-8000-000000000000', 5);
    expect(missing).toMatchObject({ status: 404, body: { reason: 'NOT_FOUND' } });
    expect((await detail(c.id)).collection).toMatchObject({ rating_sum: 0, rating_count: 0 });
  });

  it.each([[0], [6], [2.5], ['5'], [null]])('answers a validation envelope for rating %s', async (rating) => {
    const u = await createUser(t);
    const res = await t.call('/sl/v1/review/upsert', { collection_id: '00000000-0000-4000-8000-000000000000', rating }, u.token);
    expect(res.status).toBe(400);
    expect(res.body.code).not.toBe(10000);
    expect(res.body.reason).toBe('VALIDATION_FAILED');
  });

  it('refuses a text over 2000 characters', async () => {
    const u = await createUser(t);
    const res = await t.call(
      '/sl/v1/review/upsert',
      { collection_id: '00000000-0000-4000-8000-000000000000', rating: 3, text: 'x'.repeat(2001) },
      u.token,
    );
    expect(res).toMatchObject({ status: 400, body: { reason: 'VALIDATION_FAILED' } });
  });
});

describe('review/list', () => {
  it('pages reviews newest first with mine and can_review', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 5);
    const ids: string[] = [];
    for (const [i, r] of [3, 4, 5].entries()) {
      const b = await buyer(c.id, `B${i}`);
      ids.push((await upsert(b, c.id, r, `review ${i}`)).body.data.review.id);
      t.clock.advance(1_000);
    }
    const p0 = await ok(t, '/sl/v1/review/list', { collection_id: c.id, paginator: { page: 0, size: 2 } });
    expect(p0).toMatchObject({
      page: 0,
      size: 2,
      totalCount: 3,
      totalPages: 2,
      hasNextPage: true,
      count: 3,
      mine: null,
      can_review: false,
    });
    expect(p0.reviews.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]]);
    const p1 = await ok(t, '/sl/v1/review/list', { collection_id: c.id, paginator: { page: 1, size: 2 } });
    expect(p1.reviews.map((r: { id: string }) => r.id)).toEqual([ids[0]]);
    expect(p1.hasNextPage).toBe(false);

    const fresh = await buyer(c.id);
    const forFresh = await ok(t, '/sl/v1/review/list', { collection_id: c.id }, fresh.token);
    expect(forFresh).toMatchObject({ mine: null, can_review: true, size: 10 });
    const forSeller = await ok(t, '/sl/v1/review/list', { collection_id: c.id }, seller.token);
    expect(forSeller.can_review).toBe(false);
  });

  it('is NOT_FOUND for a collection the caller may not see, and validates the paginator', async () => {
    const seller = await createUser(t);
    const draft = await ok(t, '/sl/v1/collection/create', { title: 'Draft', desc: '', amount: 1 }, seller.token);
    expect(await t.call('/sl/v1/review/list', { collection_id: draft.id })).toMatchObject({
      status: 404,
      body: { reason: 'NOT_FOUND' },
    });
    expect((await t.call('/sl/v1/review/list', { collection_id: draft.id }, seller.token)).status).toBe(200);
    const bad = await t.call('/sl/v1/review/list', { collection_id: draft.id, paginator: { page: -1, size: 10 } });
    expect(bad).toMatchObject({ status: 400, body: { reason: 'VALIDATION_FAILED' } });
  });
});

describe('review/reply and review/delete', () => {
  it('lets the seller reply once; others are refused', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 5);
    const b = await buyer(c.id);
    const review = (await upsert(b, c.id, 5, 'Great')).body.data.review;
    expect(await t.call('/sl/v1/review/reply', { review_id: review.id, text: 'Thanks' }, b.token)).toMatchObject({ status: 403 });
    const replied = await ok(t, '/sl/v1/review/reply', { review_id: review.id, text: ' Thank you! ' }, seller.token);
    expect(replied.review.reply).toEqual({ text: 'Thank you!', created_at: t.clock.now() });
    const again = await t.call('/sl/v1/review/reply', { review_id: review.id, text: 'Again' }, seller.token);
    expect(again).toMatchObject({ status: 409, body: { reason: 'CONFLICT' } });
    const empty = await t.call('/sl/v1/review/reply', { review_id: review.id, text: '  ' }, seller.token);
    expect(empty).toMatchObject({ status: 400, body: { reason: 'VALIDATION_FAILED' } });
    const list = await ok(t, '/sl/v1/review/list', { collection_id: c.id });
    expect(list.reviews[0].reply.text).toBe('Thank you!');
  });

  it('lets the author delete their review (the totals drop); others are refused', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 5);
    const b = await buyer(c.id);
    const review = (await upsert(b, c.id, 3)).body.data.review;
    expect(await t.call('/sl/v1/review/delete', { review_id: review.id }, seller.token)).toMatchObject({ status: 403 });
    expect(await ok(t, '/sl/v1/review/delete', { review_id: review.id }, b.token)).toEqual({});
    expect(await ok(t, '/sl/v1/review/delete', { review_id: review.id }, b.token)).toEqual({});
    expect((await detail(c.id)).collection).toMatchObject({ rating_sum: 0, rating_count: 0 });
    // Writing again is allowed.
    await upsert(b, c.id, 4);
    expect((await detail(c.id)).collection).toMatchObject({ rating_sum: 4, rating_count: 1 });
  });
});

describe('refunds', () => {
  it("takes a refunded buyer's review out of the average and the list; its author still sees it", async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10);
    const a = await buyer(c.id);
    const b = await buyer(c.id);
    await upsert(a, c.id, 1, 'Not what I expected');
    await upsert(b, c.id, 5);
    expect((await detail(c.id)).collection).toMatchObject({ rating_sum: 6, rating_count: 2 });
    const order = (await ok(t, '/sl/v1/my/orders', {}, a.token)).orders[0];
    await ok(t, '/api/uc/v1/account/order/refund', { order_id: order.id }, seller.token);

    expect((await detail(c.id)).collection).toMatchObject({ rating_sum: 5, rating_count: 1 });
    const list = await ok(t, '/sl/v1/review/list', { collection_id: c.id }, a.token);
    expect(list.totalCount).toBe(1);
    expect(list.mine).toMatchObject({ rating: 1, refunded: true });
    expect(list.can_review).toBe(false);
    expect(await upsert(a, c.id, 5)).toMatchObject({ status: 403, body: { reason: 'FORBIDDEN' } });
    // Deleting the refunded review leaves the totals alone.
    await ok(t, '/sl/v1/review/delete', { review_id: list.mine.id }, a.token);
    expect((await detail(c.id)).collection).toMatchObject({ rating_sum: 5, rating_count: 1 });
  });
});

describe('market/collections sort=rating', () => {
  it('orders by average (exact ratio), then review count, then newest; unrated last', async () => {
    const tag = uniq();
    const seller = await createUser(t);
    const make = async (name: string) => {
      const c = await publishedCollection(t, seller, 1, `${tag} ${name}`);
      t.clock.advance(1_000);
      return c;
    };
    const unrated = await make('unrated');
    const high = await make('high'); // 5
    const twoThirds = await make('mid'); // 4, 5 -> 4.5
    const tieOld = await make('tie-old'); // 4
    const tieNew = await make('tie-new'); // 4
    // Warm the market's read cache: the reviews below must empty it.
    const before = await ok(t, '/sl/v1/market/collections', { q: tag, sort: 'rating', paginator: { page: 0, size: 10 } });
    expect(before.collections.map((c: { id: string }) => c.id)).toEqual([
      tieNew.id,
      tieOld.id,
      twoThirds.id,
      high.id,
      unrated.id,
    ]);
    await upsert(await buyer(high.id), high.id, 5);
    await upsert(await buyer(twoThirds.id), twoThirds.id, 4);
    await upsert(await buyer(twoThirds.id), twoThirds.id, 5);
    await upsert(await buyer(tieOld.id), tieOld.id, 4);
    await upsert(await buyer(tieNew.id), tieNew.id, 4);
    const page = await ok(t, '/sl/v1/market/collections', { q: tag, sort: 'rating', paginator: { page: 0, size: 10 } });
    expect(page.collections.map((c: { id: string }) => c.id)).toEqual([high.id, twoThirds.id, tieNew.id, tieOld.id, unrated.id]);
    const newest = await ok(t, '/sl/v1/market/collections', { q: tag, sort: 'newest' });
    expect(newest.collections[0].id).toBe(tieNew.id);
    const bad = await t.call('/sl/v1/market/collections', { sort: 'stars' });
    expect(bad).toMatchObject({ status: 400, body: { reason: 'VALIDATION_FAILED' } });
  });
});

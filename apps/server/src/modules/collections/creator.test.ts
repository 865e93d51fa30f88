/**
 * The creator page's call (sl/v1/creator) through the real app: a seller's public profile with what
 * their published, listed collections add up to (count, copies sold, reviews summed), public to
 * visitors; drafts and other sellers' collections never count; an unknown or deleted user is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, type TestApp } from '../../test/harness';
import { buyAndPay, ok, publishedCollection } from './collections.fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('sl/v1/creator', () => {
  it("answers a visitor the seller's profile, published collections, copies sold and summed reviews", async () => {
    const seller = await createUser(t, { nickname: 'Studio Nord' });
    const a = await publishedCollection(t, seller, 5, 'Brushes');
    const b = await publishedCollection(t, seller, 7, 'Icons');
    await ok(t, '/sl/v1/collection/create', { title: 'Unfinished', amount: 3, draft: true }, seller.token);
    await publishedCollection(t, await createUser(t), 4, 'Someone else');
    for (const [c, rating] of [
      [a, 5],
      [a, 4],
      [b, 3],
    ] as const) {
      const buyer = await createUser(t);
      await fund(t, buyer.id, '100');
      expect((await buyAndPay(t, buyer, c.id)).body.code).toBe(10000);
      await ok(t, '/sl/v1/review/upsert', { collection_id: c.id, rating, text: 'Good' }, buyer.token);
    }
    const page = await ok(t, '/sl/v1/creator', { user_id: seller.id });
    expect(page).toEqual({
      creator: expect.objectContaining({ id: seller.id, username: seller.username, nickname: 'Studio Nord' }),
      published: 2,
      sold: 3,
      rating_sum: 12,
      rating_count: 3,
    });
    // Also under /api (product §12), and the same for a signed-in caller.
    expect(await ok(t, '/api/sl/v1/creator', { user_id: seller.id }, seller.token)).toEqual(page);
  });

  it('answers zeros for a user without published collections, 404 for an unknown or deleted one', async () => {
    const quiet = await createUser(t);
    expect(await ok(t, '/sl/v1/creator', { user_id: quiet.id })).toMatchObject({ published: 0, sold: 0, rating_sum: 0, rating_count: 0 });
    const unknown = await t.call('/sl/v1/creator', { user_id: '0190f3a2-0000-7000-8000-00000000dead' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ reason: 'NOT_FOUND' });
    const bad = await t.call('/sl/v1/creator', { user_id: 'x' });
    expect(bad.status).toBe(400);
  });
});

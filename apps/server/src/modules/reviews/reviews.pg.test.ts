/**
 * Reviews under real concurrency (product §29), on PostgreSQL only (PGlite runs one connection).
 * Skipped, with a message, without DATABASE_URL. After every race the collection's integer totals
 * equal the aggregate of its counted reviews, each buyer has at most one review, and every answer is
 * an envelope (never a 500).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, onPostgres, type TestApp, type TestUser } from '../../test/harness';
import { createScratchDatabase, type ScratchDatabase } from '../../test/scratch-database';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';

if (!onPostgres) console.warn('reviews.pg.test.ts: skipped — set DATABASE_URL to a PostgreSQL database to run the review races');

describe.skipIf(!onPostgres)('reviews on PostgreSQL', () => {
  let t: TestApp;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    scratch = await createScratchDatabase('coffer_reviews');
    t = await createTestApp({ DATABASE_URL: scratch!.url });
  });
  afterAll(async () => {
    await t?.close();
    await scratch?.drop();
  });

  /** The collection's stored totals and the aggregate of its counted reviews. */
  async function totals(collectionId: string) {
    const res = (await t.app.ctx.database.db.execute(sql`
      select c.rating_sum as sum, c.rating_count as n,
             (select coalesce(sum(rating), 0)::int from reviews r where r.collection_id = c.id and r.refunded_at is null) as agg_sum,
             (select count(*)::int from reviews r where r.collection_id = c.id and r.refunded_at is null) as agg_n,
             (select count(*)::int from reviews r where r.collection_id = c.id) as rows
      from collections c where c.id = ${collectionId}`)) as unknown as {
      rows: { sum: number; n: number; agg_sum: number; agg_n: number; rows: number }[];
    };
    return res.rows[0]!;
  }

  async function buyers(collectionId: string, n: number): Promise<TestUser[]> {
    const out: TestUser[] = [];
    for (let i = 0; i < n; i += 1) {
      const b = await createUser(t);
      await fund(t, b.id, '50');
      expect((await buyAndPay(t, b, collectionId)).body.code).toBe(10000);
      out.push(b);
    }
    return out;
  }

  it('many buyers writing, editing and deleting at once keep the totals equal to the reviews', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 5, 'Busy');
    const bs = await buyers(c.id, 8);
    const calls = bs.flatMap((b, i) => [
      ...[1, 2, 3, 4, 5].map((rating) => t.call('/sl/v1/review/upsert', { collection_id: c.id, rating, text: `${i}` }, b.token)),
      (async () => {
        const list = await t.call('/sl/v1/review/list', { collection_id: c.id }, b.token);
        const mine = list.body.data?.mine;
        return mine ? t.call('/sl/v1/review/delete', { review_id: mine.id }, b.token) : list;
      })(),
    ]);
    const results = await Promise.all(calls);
    // An edit whose review another tab deleted right after it answers 404 NOT_FOUND; nothing else fails.
    for (const r of results) expect(r.body.code === 10000 || r.body.reason === 'NOT_FOUND').toBe(true);
    const after = await totals(c.id);
    expect(after.sum).toBe(after.agg_sum);
    expect(after.n).toBe(after.agg_n);
    expect(after.rows).toBeLessThanOrEqual(bs.length);
  });

  it('a refund racing the buyer’s edits leaves the review out of the totals exactly once', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 5, 'Refund race');
    const [b, other] = await buyers(c.id, 2);
    await ok(t, '/sl/v1/review/upsert', { collection_id: c.id, rating: 2 }, b!.token);
    await ok(t, '/sl/v1/review/upsert', { collection_id: c.id, rating: 5 }, other!.token);
    const order = (await ok(t, '/sl/v1/my/orders', {}, b!.token)).orders[0];
    const results = await Promise.all([
      ...[1, 3, 4, 5].map((rating) => t.call('/sl/v1/review/upsert', { collection_id: c.id, rating }, b!.token)),
      t.call('/api/uc/v1/account/order/refund', { order_id: order.id }, seller.token),
    ]);
    for (const r of results) expect(r.body.code === 10000 || r.body.reason === 'FORBIDDEN').toBe(true);
    const after = await totals(c.id);
    expect(after).toMatchObject({ sum: 5, n: 1, agg_sum: 5, agg_n: 1, rows: 2 });
  });
});

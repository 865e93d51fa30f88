/**
 * The feed's ordering under concurrent writers on PostgreSQL (ADR 0025): transactions that write a
 * user's events commit in random order and some roll back, while a consumer pages the feed from its
 * cursor; the consumer ends with exactly the committed events, each once, in `seq` order 1..n
 * without gaps. Then real purchases on two instances (two connection pools) against one seller: the
 * seller's feed holds one `sale` per paid order.
 *
 * PostgreSQL only: skipped, with a message, without DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sellerEvents } from '../../db/schema/index';
import { createTestApp, createUser, fund, onPostgres, type TestApp, type TestUser } from '../../test/harness';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';

if (!onPostgres) console.warn('events.pg.test.ts: skipped — concurrent writers need PostgreSQL (set DATABASE_URL)');

const uc = (p: string) => `/api/uc/v1/account${p}`;

describe.skipIf(!onPostgres)('seller events on PostgreSQL, concurrent writers', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex'), WEBHOOK_ALLOW_PRIVATE: 'true' };
    a = await createTestApp({ ...env, LOG_LEVEL: 'error' }, { logStream: process.stderr });
    b = await createTestApp({ ...env, LOG_LEVEL: 'error' }, { logStream: process.stderr });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  /** Pages the whole feed from `cursor` (limit 7). */
  async function drainFeed(t: TestApp, user: TestUser, cursor?: string) {
    const ids: string[] = [];
    for (;;) {
      const p = await ok(t, uc('/events/list'), { ...(cursor ? { cursor } : {}), limit: 7 }, user.token);
      ids.push(...p.events.map((e: { id: string }) => e.id));
      cursor = p.next_cursor;
      if (!p.has_more) return { ids, cursor: cursor! };
    }
  }

  it('a consumer reading while writers commit out of order misses nothing and sees nothing twice', async () => {
    const user = await createUser(a);
    const writers = [a, b].map((t) => t.app.ctx.services.events.writer);
    const dbs = [a, b].map((t) => t.app.ctx.database.db);
    let committed = 0;
    let writing = true;
    const write = async (i: number) => {
      const db = dbs[i % 2]!;
      try {
        await db.transaction(async (tx) => {
          await tx.execute(sql`select pg_sleep(${Math.random() * 0.01})`);
          await writers[i % 2]!.append(tx, [{ userId: user.id, type: 'sale', key: `pg-test:${user.id}:${i}`, data: { i } }]);
          // Hold the transaction open a random while after taking its seq, then commit or roll back.
          await tx.execute(sql`select pg_sleep(${Math.random() * 0.01})`);
          if (i % 7 === 3) throw new Error('rollback');
        });
        committed++;
      } catch (err) {
        if ((err as Error).message !== 'rollback') throw err;
      }
    };
    const consumer = (async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      while (writing) {
        const r = await drainFeed(a, user, cursor);
        seen.push(...r.ids);
        cursor = r.cursor;
      }
      const r = await drainFeed(b, user, cursor);
      seen.push(...r.ids);
      return seen;
    })();
    // 120 writes, 12 at a time from two connection pools.
    const queue = Array.from({ length: 120 }, (_, i) => i);
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) await write(i);
      }),
    );
    writing = false;
    const seen = await consumer;

    const rows = await dbs[0]!.select().from(sellerEvents).where(eq(sellerEvents.userId, user.id)).orderBy(asc(sellerEvents.seq));
    expect(rows).toHaveLength(committed);
    expect(committed).toBeGreaterThan(90);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => BigInt(i + 1)));
    expect(seen).toEqual(rows.map((r) => r.id));
  }, 120_000);

  it('purchases on two instances write one sale event per paid order for the seller', async () => {
    const seller = await createUser(a);
    const c = await publishedCollection(a, seller, 5, 'Concurrent');
    const buyers = await Promise.all(
      Array.from({ length: 24 }, async () => {
        const u = await createUser(a);
        await fund(a, u.id, '10');
        return u;
      }),
    );
    const paid = await Promise.all(buyers.map((u, i) => buyAndPay(i % 2 ? b : a, u, c.id)));
    const orderIds = paid.map((r) => {
      expect(r.body.code, JSON.stringify(r.body)).toBe(10000);
      return r.body.data.id as string;
    });
    const feed = await drainFeed(b, seller);
    const rows = await a.app.ctx.database.db
      .select()
      .from(sellerEvents)
      .where(eq(sellerEvents.userId, seller.id))
      .orderBy(asc(sellerEvents.seq));
    expect(feed.ids).toEqual(rows.map((r) => r.id));
    expect(rows.map((r) => (r.data as { order_id: string }).order_id).sort()).toEqual([...orderIds].sort());
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => BigInt(i + 1)));
  }, 120_000);
});

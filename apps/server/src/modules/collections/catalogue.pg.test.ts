/**
 * The library feed's ordering under concurrent writers on PostgreSQL (ADR 0026): transactions that
 * append changes to one collection from two connection pools commit in random order and some roll
 * back, while a buyer pages `my/library/changes` from its cursor; the buyer ends with exactly the
 * committed changes, each once, in `seq` order. Then real replaces from two instances: one
 * version per replace, every version in the feed.
 *
 * PostgreSQL only: skipped, with a message, without DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueChanges } from '../../db/schema/index';
import { createTestApp, createUser, fund, onPostgres, type TestApp, type TestUser } from '../../test/harness';
import { buyAndPay, ok, publishedCollection, uploadSingle } from './collections.fixtures';
import { appendChange } from './collections.repository';

if (!onPostgres) console.warn('catalogue.pg.test.ts: skipped — concurrent writers need PostgreSQL (set DATABASE_URL)');

describe.skipIf(!onPostgres)('library changes on PostgreSQL, concurrent writers', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex') };
    a = await createTestApp(env);
    // One storage for both instances: b reads the files a stored.
    b = await createTestApp({ ...env, DATA_DIR: a.dataDir });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  /** Pages the buyer's feed from `cursor` to its end; @returns the changes of `collectionId` and the last cursor. */
  async function drain(t: TestApp, buyer: TestUser, collectionId: string, cursor?: string) {
    const seen: string[] = [];
    for (;;) {
      const p = await ok(t, '/sl/v1/my/library/changes', cursor ? { cursor } : {}, buyer.token);
      seen.push(
        ...p.changes
          .filter((c: { collection_id: string }) => c.collection_id === collectionId)
          .map((c: { resource_id: string; version: number }) => `${c.resource_id}@${c.version}`),
      );
      cursor = p.cursor;
      if (!p.has_more) return { seen, cursor: cursor! };
    }
  }

  async function boughtBy(owner: TestUser) {
    const c = await publishedCollection(a, owner, 1, 'Concurrent catalogue');
    const buyer = await createUser(a);
    await fund(a, buyer.id, '10');
    expect((await buyAndPay(a, buyer, c.id)).body.code).toBe(10000);
    // The feed holds the changes made since the purchase: both instances' clocks move past it.
    const later = Math.max(a.clock.now(), b.clock.now()) + 1_000;
    for (const t of [a, b]) t.clock.set(later);
    return { c, buyer };
  }

  it('a buyer reading while writers commit out of order misses nothing and sees nothing twice', async () => {
    const owner = await createUser(a);
    const { c, buyer } = await boughtBy(owner);
    const start = await drain(a, buyer, c.id);
    const dbs = [a, b].map((t) => t.app.ctx.database.db);
    let committed = 0;
    let writing = true;
    const write = async (i: number) => {
      try {
        await dbs[i % 2]!.transaction(async (tx) => {
          await tx.execute(sql`select pg_sleep(${Math.random() * 0.01})`);
          await appendChange(tx, {
            collectionId: c.id,
            resourceId: `file-${i}`,
            version: 1,
            kind: 'added',
            name: `f${i}`,
            at: new Date(),
          });
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
      let cursor = start.cursor;
      while (writing) {
        const r = await drain(a, buyer, c.id, cursor);
        seen.push(...r.seen);
        cursor = r.cursor;
      }
      seen.push(...(await drain(b, buyer, c.id, cursor)).seen);
      return seen;
    })();
    const queue = Array.from({ length: 120 }, (_, i) => i);
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) await write(i);
      }),
    );
    writing = false;
    const seen = await consumer;

    const rows = await dbs[0]!
      .select()
      .from(catalogueChanges)
      .where(eq(catalogueChanges.collectionId, c.id))
      .orderBy(asc(catalogueChanges.seq));
    const written = rows.filter((r) => r.resourceId.startsWith('file-'));
    expect(written).toHaveLength(committed);
    expect(committed).toBeGreaterThan(90);
    expect(seen).toEqual(written.map((r) => `${r.resourceId}@1`));
  }, 120_000);

  it('replaces from two instances make versions 2..n, each once in the feed', async () => {
    const owner = await createUser(a);
    const { c, buyer } = await boughtBy(owner);
    const start = await drain(a, buyer, c.id);
    const uploads = await Promise.all(
      Array.from({ length: 8 }, (_, i) => uploadSingle(a, owner, Buffer.from(`version ${i + 2}`), `v${i + 2}.txt`)),
    );
    const answers = await Promise.all(
      uploads.map((u, i) =>
        (i % 2 ? b : a).call(
          '/sl/v1/collection/resource/replace',
          { collection_id: c.id, resource_id: c.resource.id, new_resource_id: u.id },
          owner.token,
        ),
      ),
    );
    expect(answers.map((r) => r.body.code)).toEqual(answers.map(() => 10000));
    expect(answers.map((r) => r.body.data.version).sort((x, y) => x - y)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    const feed = await drain(b, buyer, c.id, start.cursor);
    expect(feed.seen).toEqual([2, 3, 4, 5, 6, 7, 8, 9].map((v) => `${c.resource.id}@${v}`));
  }, 120_000);
});

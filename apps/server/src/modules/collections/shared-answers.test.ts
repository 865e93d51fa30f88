/**
 * Shared answers (ADR 0071): a visitor's `collection/detail` and every `market/collections` page are
 * built and encoded once per cached read and sent as those bytes. They must be the bytes the
 * serializer writes, be shared while the read is cached, and keep read-cache.ts's staleness bound: a
 * write through this instance shows at once, any other change within PUBLIC_READ_CACHE_TTL_MS.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_READ_CACHE_TTL_MS } from '../../lib/read-cache';
import { createTestApp, createUser, uniq, type TestApp } from '../../test/harness';
import { ok, publishedCollection } from './collections.fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The raw answer of a POST, as sent. */
async function raw(url: string, body: unknown, token?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload: body as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.statusCode, type: String(res.headers['content-type']), text: res.payload };
}

/** Renames a collection behind the service's back (as another instance would). */
async function renameInDatabase(collectionId: string, title: string) {
  await t.app.ctx.database.db.execute(sql`update collections set title = ${title} where id = ${collectionId}`);
}

describe("a visitor's collection/detail", () => {
  it('is the bytes the serializer writes for the same data (a signed-in stranger sees the same collection)', async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const c = await publishedCollection(t, owner, 12, 'Shared bytes');
    const visitor = await raw('/sl/v1/collection/detail', { collection_id: c.id });
    const signedIn = await raw('/sl/v1/collection/detail', { collection_id: c.id }, stranger.token);
    expect(visitor.status).toBe(200);
    expect(visitor.type).toBe('application/json; charset=utf-8');
    expect(visitor.type).toBe(signedIn.type);
    // No thumbnail here, so nothing in the answer depends on the caller: the bytes are equal.
    expect(visitor.text).toBe(signedIn.text);
    expect(JSON.parse(visitor.text)).toMatchObject({ code: 10000, msg: 'success', data: { collection: { id: c.id, title: 'Shared bytes' }, purchased: false } });
  });

  it('is shared while the read is cached, shows a write through this instance at once, and any other change within the TTL', async () => {
    const owner = await createUser(t);
    const c = await publishedCollection(t, owner, 12, 'First title');
    const first = await raw('/sl/v1/collection/detail', { collection_id: c.id });
    await renameInDatabase(c.id, 'Changed elsewhere');
    // Served from the cached read: the other instance's change is not seen yet...
    expect(JSON.parse((await raw('/sl/v1/collection/detail', { collection_id: c.id })).text).data.collection.title).toBe('First title');
    // ...and a signed-in caller, answered from the same cached row, agrees.
    const reader = await createUser(t);
    expect((await ok(t, '/sl/v1/collection/detail', { collection_id: c.id }, reader.token)).collection.title).toBe('First title');
    // Past the TTL the change shows.
    t.clock.advance(PUBLIC_READ_CACHE_TTL_MS + 1);
    const later = await raw('/sl/v1/collection/detail', { collection_id: c.id });
    expect(JSON.parse(later.text).data.collection.title).toBe('Changed elsewhere');
    expect(later.text).not.toBe(first.text);
    // A write through this instance empties the cache: the next visitor sees it at once.
    await ok(t, '/sl/v1/collection/update', { collection_id: c.id, title: 'Owner wrote this' }, owner.token);
    expect(JSON.parse((await raw('/sl/v1/collection/detail', { collection_id: c.id })).text).data.collection.title).toBe('Owner wrote this');
  });

  it('is built once per cached read: every visitor gets the same answer object until a write or the TTL', async () => {
    const owner = await createUser(t);
    const c = await publishedCollection(t, owner, 12, 'Built once');
    const collections = t.app.ctx.services.collections;
    let builds = 0;
    const encode = (data: unknown) => ({ data, build: ++builds });
    const [a, b] = await Promise.all([collections.visitorDetail(c.id, encode), collections.visitorDetail(c.id, encode)]);
    const c2 = await collections.visitorDetail(c.id, encode);
    expect(builds).toBe(1);
    expect(b).toBe(a);
    expect(c2).toBe(a);
    await ok(t, '/sl/v1/collection/update', { collection_id: c.id, desc: 'A new description' }, owner.token);
    const afterWrite = await collections.visitorDetail(c.id, encode);
    expect(afterWrite).not.toBe(a);
    expect(builds).toBe(2);
    t.clock.advance(PUBLIC_READ_CACHE_TTL_MS + 1);
    await collections.visitorDetail(c.id, encode);
    expect(builds).toBe(3);
  });

  it('answers NOT_FOUND for a collection that does not exist, and keeps no answer for it', async () => {
    const missing = await raw('/sl/v1/collection/detail', { collection_id: '01a227b6-0000-7000-8000-000000000000' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toMatchObject({ reason: 'NOT_FOUND', msg: 'The collection does not exist' });
  });
});

describe('market/collections', () => {
  it('shares one encoded page while it is cached, and shows a publish through this instance at once', async () => {
    // A search word of this test's own: other files share the database (PostgreSQL) with their own clocks.
    const word = `shared${uniq()}`;
    const page = { paginator: { page: 0, size: 20 }, sort: 'newest', q: word };
    const owner = await createUser(t);
    const a = await publishedCollection(t, owner, 5, `Market one ${word}`);
    const before = await raw('/sl/v1/market/collections', page);
    expect(before.status).toBe(200);
    expect(JSON.parse(before.text).data.collections.map((c: { id: string }) => c.id)).toEqual([a.id]);
    await renameInDatabase(a.id, `Renamed elsewhere ${word}`);
    const again = await raw('/sl/v1/market/collections', page);
    expect(again.text).toBe(before.text);
    const b = await publishedCollection(t, owner, 6, `Market two ${word}`);
    const after = JSON.parse((await raw('/sl/v1/market/collections', page)).text).data.collections as { id: string; title: string }[];
    expect(after.map((c) => c.id).sort()).toEqual([a.id, b.id].sort());
    // The publish emptied the cache, so the rename done elsewhere shows too.
    expect(after.find((c) => c.id === a.id)?.title).toBe(`Renamed elsewhere ${word}`);
  });
});

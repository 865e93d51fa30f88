/**
 * Collection calls (product §7, §16-§17): create, attach, publish rules, soft delete, the owner's
 * list, public browsing, details and downloads — each owner-scoped call also tried as a stranger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, type TestApp, type TestUser } from '../../test/harness';
import { buyAndPay, get, ok, publishedCollection, uploadSingle } from './collections.fixtures';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t);
  stranger = await createUser(t);
});
afterAll(async () => {
  await t.close();
});

describe('collection/create', () => {
  it('creates a Created collection with the product §3 fields', async () => {
    const before = t.clock.now();
    const c = await ok(t, '/api/sl/v1/collection/create', { title: '  Icons  ', desc: 'Line icons', amount: '25' }, owner.token);
    expect(c).toMatchObject({
      title: 'Icons',
      desc: 'Line icons',
      amount: 25,
      sold_count: 0,
      earned: 0,
      status: 'Created',
      owner_id: owner.id,
      resource_count: 0,
    });
    expect(c.banner).toBeUndefined();
    expect(c.created_at).toBe(before);
  });

  it("'Save as draft' (draft: true) creates a Draft that is edited and published like a Created one", async () => {
    const c = await ok(t, '/sl/v1/collection/create', { title: 'Sketches', amount: 3, draft: true }, owner.token);
    expect(c.status).toBe('Draft');
    expect((await ok(t, '/sl/v1/collection/update', { collection_id: c.id, title: 'Sketches 2' }, owner.token)).title).toBe('Sketches 2');
    const r = await uploadSingle(t, owner, Buffer.from('sketch'), 'sketch.png', 'image/png');
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, owner.token);
    expect((await ok(t, '/sl/v1/collection/publish', { collection_id: c.id }, owner.token)).status).toBe('Published');
    expect((await ok(t, '/sl/v1/collection/create', { title: 'Plain', amount: 3, draft: false }, owner.token)).status).toBe('Created');
  });

  it('refuses bad input with the field named, and visitors', async () => {
    const cases: [object, RegExp][] = [
      [{ title: '', amount: 1 }, /Title is required/],
      [{ title: 'x'.repeat(101), amount: 1 }, /at most 100/],
      [{ title: 'A', desc: 'd'.repeat(2001), amount: 1 }, /at most 2000/],
      [{ title: 'A', amount: -1 }, /cannot be negative/],
      [{ title: 'A', amount: 1.5 }, /whole number/],
      [{ title: 'A' }, /whole number/],
      [{ title: 'A', amount: 1, banner: 'not-an-image' }, /Upload the image first/],
    ];
    for (const [body, msg] of cases) {
      const res = await t.call('/sl/v1/collection/create', body, owner.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.reason).toBe('VALIDATION_FAILED');
      expect(res.body.msg).toMatch(msg);
    }
    expect((await t.call('/sl/v1/collection/create', { title: 'A', amount: 1 })).body.reason).toBe('UNAUTHORIZED');
  });
});

describe('resources and publishing', () => {
  it('publishes only with a file, only by the owner, and only from Created/Draft', async () => {
    const c = await ok(t, '/sl/v1/collection/create', { title: 'Fonts', amount: 5 }, owner.token);
    const empty = await t.call('/sl/v1/collection/publish', { collection_id: c.id }, owner.token);
    expect(empty.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'Add at least one file before publishing' });

    const r = await uploadSingle(t, owner, Buffer.from('font bytes'), 'font.ttf', 'font/ttf');
    const strangersFile = await uploadSingle(t, stranger, Buffer.from('theirs'));
    expect(
      (await t.call('/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, stranger.token)).body.reason,
    ).toBe('FORBIDDEN');
    expect(
      (await t.call('/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: strangersFile.id }, owner.token)).body
        .reason,
    ).toBe('FORBIDDEN');
    const added = await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, owner.token);
    expect(added).toMatchObject({ id: r.id, collection_id: c.id, name: 'font.ttf' });
    // Adding again is harmless; adding to another collection is refused.
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, owner.token);
    const other = await ok(t, '/sl/v1/collection/create', { title: 'Other', amount: 5 }, owner.token);
    expect(
      (await t.call('/sl/v1/collection/resource/add', { collection_id: other.id, resource_id: r.id }, owner.token)).body.reason,
    ).toBe('CONFLICT');

    expect((await t.call('/sl/v1/collection/publish', { collection_id: c.id }, stranger.token)).body.reason).toBe('FORBIDDEN');
    const published = await ok(t, '/sl/v1/collection/publish', { collection_id: c.id }, owner.token);
    expect(published).toMatchObject({ status: 'Published', resource_count: 1 });
    expect((await ok(t, '/sl/v1/collection/publish', { collection_id: c.id }, owner.token)).status).toBe('Published');

    expect((await t.call('/sl/v1/collection/delete', { collection_id: c.id }, stranger.token)).body.reason).toBe('FORBIDDEN');
    await ok(t, '/sl/v1/collection/delete', { collection_id: c.id }, owner.token);
    await ok(t, '/sl/v1/collection/delete', { collection_id: c.id }, owner.token);
    expect((await t.call('/sl/v1/collection/publish', { collection_id: c.id }, owner.token)).body.reason).toBe('CONFLICT');
    expect(
      (await t.call('/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, owner.token)).body.reason,
    ).toBe('CONFLICT');
    expect(
      (await t.call('/sl/v1/collection/publish', { collection_id: '01900000-0000-7000-8000-000000000000' }, owner.token)).body
        .reason,
    ).toBe('NOT_FOUND');
    expect((await t.call('/sl/v1/collection/publish', { collection_id: 'nope' }, owner.token)).body.reason).toBe(
      'VALIDATION_FAILED',
    );
  });
});

describe('my/collections', () => {
  it('lists the caller’s collections newest first with the count, without deleted ones', async () => {
    const me = await createUser(t);
    const made = [];
    for (const title of ['one', 'two', 'three']) {
      made.push(await ok(t, '/sl/v1/collection/create', { title, amount: 1 }, me.token));
      t.clock.advance(1000);
    }
    await ok(t, '/sl/v1/collection/delete', { collection_id: made[1].id }, me.token);
    const page = await ok(t, '/sl/v1/my/collections', { paginator: { page: 0, size: 10 } }, me.token);
    expect(page.count).toBe(2);
    expect(page).toMatchObject({ page: 0, size: 10, totalCount: 2, totalPages: 1, hasNextPage: false });
    expect(page.collections.map((c: { title: string }) => c.title)).toEqual(['three', 'one']);
    const first = await ok(t, '/sl/v1/my/collections', { paginator: { page: 0, size: 1 } }, me.token);
    expect(first).toMatchObject({ page: 0, size: 1, totalCount: 2, totalPages: 2, hasNextPage: true, count: 2 });
    const second = await ok(t, '/sl/v1/my/collections', { paginator: { page: 1, size: 1 } }, me.token);
    expect(second.collections.map((c: { title: string }) => c.title)).toEqual(['one']);
    expect(second).toMatchObject({ page: 1, size: 1, totalCount: 2, totalPages: 2, hasNextPage: false, count: 2 });
    const defaults = await ok(t, '/sl/v1/my/collections', {}, me.token);
    expect(defaults.count).toBe(2);
    expect((await t.call('/sl/v1/my/collections', { paginator: { page: -1, size: 10 } }, me.token)).status).toBe(400);
    expect((await t.call('/sl/v1/my/collections', {})).status).toBe(401);
  });
});

describe('details and browsing', () => {
  it('shows a published collection to anyone, an unpublished one only to its owner', async () => {
    const draft = await ok(t, '/sl/v1/collection/create', { title: 'Secret draft', amount: 3 }, owner.token);
    expect((await t.call('/sl/v1/collection/detail', { collection_id: draft.id })).body.reason).toBe('NOT_FOUND');
    expect((await t.call('/sl/v1/collection/detail', { collection_id: draft.id }, stranger.token)).body.reason).toBe('NOT_FOUND');
    expect((await ok(t, '/sl/v1/collection/detail', { collection_id: draft.id }, owner.token)).collection.status).toBe('Created');

    const pub = await publishedCollection(t, owner, 7, 'Public pack');
    const d = await ok(t, '/sl/v1/collection/detail', { collection_id: pub.id });
    expect(d.collection).toMatchObject({ id: pub.id, status: 'Published', amount: 7 });
    expect(d.resources).toHaveLength(1);
    expect(d.resources[0]).toMatchObject({
      id: pub.resource.id,
      name: 'notes.txt',
      size: pub.resource.size,
      content_type: 'text/plain',
    });
    expect(d.resources[0].url).toBeUndefined();
    expect(d.seller).toMatchObject({ id: owner.id, username: owner.username });
    expect(d.seller.email).toBeUndefined();
    expect(d.purchased).toBe(false);

    const rd = await ok(t, '/sl/v1/resource/detail', { resource_id: pub.resource.id });
    expect(rd).toMatchObject({ resource: { id: pub.resource.id }, collection: { id: pub.id }, purchased: false });
  });

  it('lists published collections on the market with search, sort and paging, and per user', async () => {
    const seller = await createUser(t);
    const tag = `zq${Date.now().toString(36)}`;
    const cheap = await publishedCollection(t, seller, 1, `${tag} cheap`);
    t.clock.advance(1000);
    const dear = await publishedCollection(t, seller, 99, `${tag} dear`);
    t.clock.advance(1000);
    await ok(t, '/sl/v1/collection/create', { title: `${tag} unpublished`, amount: 5 }, seller.token);
    const buyer = await createUser(t);
    await fund(t, buyer.id, '10');
    expect((await buyAndPay(t, buyer, cheap.id)).body.code).toBe(10000);

    const titles = async (body: object) =>
      (await ok(t, '/sl/v1/market/collections', { q: tag, ...body })).collections.map((c: { id: string }) => c.id);
    expect(await titles({})).toEqual([dear.id, cheap.id]);
    expect(await titles({ sort: 'price_asc' })).toEqual([cheap.id, dear.id]);
    expect(await titles({ sort: 'price_desc' })).toEqual([dear.id, cheap.id]);
    expect(await titles({ sort: 'popular' })).toEqual([cheap.id, dear.id]);
    expect(await titles({ paginator: { page: 1, size: 1 } })).toEqual([cheap.id]);
    const market = await ok(t, '/sl/v1/market/collections', { q: tag.toUpperCase() });
    expect(market.count).toBe(2);
    expect(market).toMatchObject({ page: 0, size: 10, totalCount: 2, totalPages: 1, hasNextPage: false });
    expect(await ok(t, '/sl/v1/market/collections', { q: tag, paginator: { page: 0, size: 1 } })).toMatchObject({
      totalCount: 2,
      totalPages: 2,
      hasNextPage: true,
    });
    expect(market.collections[0].seller).toMatchObject({ id: seller.id });
    expect((await ok(t, '/sl/v1/market/collections', { q: `${tag} dear description` })).count).toBe(1);
    expect(
      (await ok(t, '/sl/v1/market/collections', { q: '%' })).collections.every((c: { title: string; desc: string }) =>
        `${c.title}${c.desc}`.includes('%'),
      ),
    ).toBe(true);
    expect((await t.call('/sl/v1/market/collections', { sort: 'cheapest' })).status).toBe(400);

    const mine = await ok(t, '/sl/v1/user/collections', { user_id: seller.id, paginator: { page: 0, size: 10 } });
    expect(mine.count).toBe(2);
    expect(mine).toMatchObject({ page: 0, size: 10, totalCount: 2, totalPages: 1, hasNextPage: false });
    expect(mine.collections.map((c: { status: string }) => c.status)).toEqual(['Published', 'Published']);
    expect(await ok(t, '/sl/v1/user/collections', { user_id: seller.id, paginator: { page: 0, size: 1 } })).toMatchObject({
      page: 0,
      size: 1,
      totalCount: 2,
      totalPages: 2,
      hasNextPage: true,
      count: 2,
    });
  });
});

describe('downloads', () => {
  it('lets the owner and paid buyers download; strangers are FORBIDDEN; deletion keeps buyers’ access', async () => {
    const pub = await publishedCollection(t, owner, 4, 'Downloadable');
    const buyer = await createUser(t);
    await fund(t, buyer.id, '4');
    const body = { collection_id: pub.id, resource_id: pub.resource.id };

    const refused = await t.call('/sl/v1/resource/download/url', body, stranger.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ reason: 'FORBIDDEN', msg: 'Buy this collection to download its files.' });
    expect((await t.call('/sl/v1/resource/download/url', body, buyer.token)).body.reason).toBe('FORBIDDEN');
    expect((await t.call('/sl/v1/resource/download/url', body)).status).toBe(401);
    const mismatch = await t.call(
      '/sl/v1/resource/download/url',
      { collection_id: pub.id, resource_id: '01900000-0000-7000-8000-000000000000' },
      owner.token,
    );
    expect(mismatch.body.reason).toBe('NOT_FOUND');

    expect((await buyAndPay(t, buyer, pub.id)).body.data.status).toBe('OrderStatusPaid');
    const link = await ok(t, '/sl/v1/resource/download/url', body, buyer.token);
    const file = await get(t, link.url);
    expect(file.body).toBe(`contents of Downloadable ${pub.id}`);
    expect(file.headers['content-disposition']).toBe('attachment; filename=notes.txt');

    await ok(t, '/sl/v1/collection/delete', { collection_id: pub.id }, owner.token);
    expect((await t.call('/sl/v1/collection/detail', { collection_id: pub.id }, stranger.token)).body.reason).toBe('NOT_FOUND');
    const kept = await ok(t, '/sl/v1/collection/detail', { collection_id: pub.id }, buyer.token);
    expect(kept).toMatchObject({ purchased: true, collection: { status: 'Deleted' } });
    const again = await ok(t, '/sl/v1/resource/download/url', body, buyer.token);
    expect((await get(t, again.url)).statusCode).toBe(200);
    const purchased = await ok(t, '/sl/v1/my/purchased/collections', { paginator: { page: 0, size: 10 } }, buyer.token);
    expect(purchased.collections.map((c: { id: string }) => c.id)).toContain(pub.id);
    expect((await t.call('/sl/v1/collection/buy', { collection_id: pub.id }, stranger.token)).body.reason).toBe('CONFLICT');
  });
});

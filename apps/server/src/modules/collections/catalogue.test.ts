/**
 * Catalogue edits, versions and previews (product §24, ADR 0026): collection/update, unpublish,
 * resource remove/replace/preview, resource/preview/url, my/library/changes and update mails —
 * each owner-only call also tried as a stranger.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, resourceVersions } from '../../db/schema/index';
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

/** A published collection bought by a new, funded buyer. */
async function bought(amount = 5) {
  const c = await publishedCollection(t, owner, amount);
  const buyer = await createUser(t);
  await fund(t, buyer.id, '100');
  expect((await buyAndPay(t, buyer, c.id)).body.code).toBe(10000);
  return { c, buyer };
}

/** The bytes a download URL answers. */
async function download(url: string): Promise<string> {
  const res = await get(t, url);
  expect(res.statusCode).toBe(200);
  return res.body;
}

const outbox = (): string[] => {
  try {
    const dir = path.join(t.dataDir, 'outbox');
    // Quoted-printable soft line breaks joined, so ids and phrases read whole.
    return readdirSync(dir).map((f) => readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, ''));
  } catch {
    return [];
  }
};

describe('collection/update', () => {
  it('changes the given fields only, for the owner; orders keep their price', async () => {
    const { c, buyer } = await bought(5);
    const updated = await ok(
      t,
      '/sl/v1/collection/update',
      { collection_id: c.id, title: ' New title ', amount: 9 },
      owner.token,
    );
    expect(updated).toMatchObject({ id: c.id, title: 'New title', desc: c.desc, amount: 9, status: 'Published' });
    const orders = await ok(t, '/sl/v1/my/orders', { paginator: { page: 0, size: 10 } }, buyer.token);
    expect(orders.orders[0].amount).toBe(5);
    const detail = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id });
    expect(detail.collection.amount).toBe(9);
  });

  it('a pending order is never paid at a price that is no longer shown: refused, then quoted again', async () => {
    const c = await publishedCollection(t, owner, 4);
    const buyer = await createUser(t);
    await fund(t, buyer.id, '100');
    const order = await ok(t, '/sl/v1/collection/buy', { collection_id: c.id }, buyer.token);
    await ok(t, '/sl/v1/collection/update', { collection_id: c.id, amount: 40 }, owner.token);
    const stale = await t.call('/api/uc/v1/account/order/pay', { order_id: order.id }, buyer.token);
    expect(stale).toMatchObject({ status: 409, body: { reason: 'PRICE_CHANGED' } });
    expect((await t.app.ctx.services.ledger.balances(buyer.id)).available).toBe(10_000n);
    const requoted = await ok(t, '/sl/v1/collection/buy', { collection_id: c.id }, buyer.token);
    expect(requoted).toMatchObject({ id: order.id, amount: 40 });
    const paid = await ok(t, '/api/uc/v1/account/order/pay', { order_id: order.id, amount: 40 }, buyer.token);
    expect([paid.status, paid.amount]).toEqual(['OrderStatusPaid', 40]);
    expect((await t.app.ctx.services.ledger.balances(buyer.id)).available).toBe(6_000n);
  });

  it('refuses bad input with the create rules and changes nothing', async () => {
    const c = await publishedCollection(t, owner, 3, 'Stable');
    const cases: [object, RegExp][] = [
      [{ title: '' }, /Title is required/],
      [{ title: 'x'.repeat(101) }, /at most 100/],
      [{ desc: 'd'.repeat(2001) }, /at most 2000/],
      [{ amount: -1 }, /cannot be negative/],
      [{ amount: 1.5 }, /whole number/],
      [{ banner: 'not-an-image' }, /Upload the image first/],
    ];
    for (const [body, msg] of cases) {
      const res = await t.call('/sl/v1/collection/update', { collection_id: c.id, ...body }, owner.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).not.toBe(10000);
      expect(res.body.reason).toBe('VALIDATION_FAILED');
      expect(res.body.msg).toMatch(msg);
    }
    const detail = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id });
    expect(detail.collection).toMatchObject({ title: 'Stable', amount: 3 });
  });

  it('is owner-only: strangers get FORBIDDEN, unknown ids NOT_FOUND, visitors UNAUTHORIZED', async () => {
    const c = await publishedCollection(t, owner);
    const res = await t.call('/sl/v1/collection/update', { collection_id: c.id, title: 'Mine' }, stranger.token);
    expect([res.status, res.body.reason]).toEqual([403, 'FORBIDDEN']);
    const missing = await t.call(
      '/sl/v1/collection/update',
      { collection_id: '0190f3a2-0000-7000-8000-000000000000', title: 'X' },
      owner.token,
    );
    expect([missing.status, missing.body.reason]).toEqual([404, 'NOT_FOUND']);
    expect((await t.call('/sl/v1/collection/update', { collection_id: c.id, title: 'X' })).status).toBe(401);
  });
});

describe('collection/unpublish', () => {
  it('moves Published -> Draft: off the storefront, not for sale, buyers keep access, publishable again', async () => {
    const { c, buyer } = await bought();
    const draft = await ok(t, '/sl/v1/collection/unpublish', { collection_id: c.id }, owner.token);
    expect(draft.status).toBe('Draft');
    expect((await t.call('/sl/v1/collection/detail', { collection_id: c.id }, stranger.token)).body.reason).toBe('NOT_FOUND');
    const market = await ok(t, '/sl/v1/market/collections', { paginator: { page: 0, size: 50 }, q: c.title });
    expect(market.collections.map((x: { id: string }) => x.id)).not.toContain(c.id);
    await fund(t, stranger.id, '100');
    expect((await buyAndPay(t, stranger, c.id)).body.reason).toBe('NOT_FOUND');
    const url = await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: c.resource.id }, buyer.token);
    expect(await download(url.url)).toContain('contents of');
    expect((await ok(t, '/sl/v1/collection/publish', { collection_id: c.id }, owner.token)).status).toBe('Published');
  });

  it('refuses strangers and collections that are not published', async () => {
    const c = await publishedCollection(t, owner);
    expect((await t.call('/sl/v1/collection/unpublish', { collection_id: c.id }, stranger.token)).body.reason).toBe('FORBIDDEN');
    const created = await ok(t, '/sl/v1/collection/create', { title: 'Fresh', amount: 1 }, owner.token);
    const res = await t.call('/sl/v1/collection/unpublish', { collection_id: created.id }, owner.token);
    expect([res.status, res.body.reason]).toEqual([409, 'CONFLICT']);
  });
});

describe('collection/resource/replace (versions)', () => {
  it('serves the newest version to buyers, keeps the old bytes, and counts versions', async () => {
    const { c, buyer } = await bought();
    const v2 = await uploadSingle(t, owner, Buffer.from('second version'), 'notes-v2.txt');
    t.clock.advance(60_000);
    const replaced = await ok(
      t,
      '/sl/v1/collection/resource/replace',
      { collection_id: c.id, resource_id: c.resource.id, new_resource_id: v2.id },
      owner.token,
    );
    expect(replaced).toMatchObject({ id: c.resource.id, version: 2, name: 'notes-v2.txt', updated_at: t.clock.now() });
    const url = await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: c.resource.id }, buyer.token);
    expect(await download(url.url)).toBe('second version');
    const [old] = await t.app.ctx.database.db
      .select()
      .from(resourceVersions)
      .where(eq(resourceVersions.resourceId, c.resource.id));
    expect(old).toMatchObject({ version: 1, name: 'notes.txt' });
    const oldBytes = await t.app.ctx.services.storage.head(old!.storageKey);
    expect(oldBytes?.size).toBe(c.resource.size);
    const detail = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id });
    expect(detail.resources).toHaveLength(1);
    expect(detail.resources[0]).toMatchObject({ version: 2, name: 'notes-v2.txt' });
    // The upload used as a version cannot be attached or used again.
    const again = await t.call('/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: v2.id }, owner.token);
    expect(again.body.reason).toBe('CONFLICT');
  });

  it('refuses strangers, uploads of others, the same file and unknown files', async () => {
    const c = await publishedCollection(t, owner);
    const theirs = await uploadSingle(t, stranger, Buffer.from('not yours'));
    const mine = await uploadSingle(t, owner, Buffer.from('mine'));
    const call = (body: object, token = owner.token) =>
      t.call('/sl/v1/collection/resource/replace', { collection_id: c.id, resource_id: c.resource.id, ...body }, token);
    expect((await call({ new_resource_id: mine.id }, stranger.token)).body.reason).toBe('FORBIDDEN');
    expect((await call({ new_resource_id: theirs.id })).body.reason).toBe('FORBIDDEN');
    expect((await call({ new_resource_id: c.resource.id })).body.reason).toBe('VALIDATION_FAILED');
    expect((await call({ new_resource_id: '0190f3a2-0000-7000-8000-000000000000' })).body.reason).toBe('NOT_FOUND');
    expect((await call({ new_resource_id: 'nope' })).status).toBe(400);
  });
});

describe('collection/resource/remove', () => {
  it('hides the file from the storefront and new buyers; earlier buyers keep it', async () => {
    const { c, buyer } = await bought();
    const extra = await uploadSingle(t, owner, Buffer.from('extra file'), 'extra.txt');
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: extra.id }, owner.token);
    t.clock.advance(1_000);
    expect(
      await ok(t, '/sl/v1/collection/resource/remove', { collection_id: c.id, resource_id: c.resource.id }, owner.token),
    ).toEqual({});
    const publicView = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id });
    expect(publicView.resources.map((r: { id: string }) => r.id)).toEqual([extra.id]);
    expect(publicView.collection.resource_count).toBe(1);
    const buyerView = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id }, buyer.token);
    expect(buyerView.resources.find((r: { id: string }) => r.id === c.resource.id)).toMatchObject({ removed: true });
    const url = await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: c.resource.id }, buyer.token);
    expect(await download(url.url)).toContain('contents of');
    const late = await createUser(t);
    await fund(t, late.id, '100');
    expect((await buyAndPay(t, late, c.id)).body.code).toBe(10000);
    const refused = await t.call('/sl/v1/resource/download/url', { collection_id: c.id, resource_id: c.resource.id }, late.token);
    expect(refused.body.reason).toBe('NOT_FOUND');
  });

  it('keeps one file in a published collection and is owner-only', async () => {
    const c = await publishedCollection(t, owner);
    const body = { collection_id: c.id, resource_id: c.resource.id };
    expect((await t.call('/sl/v1/collection/resource/remove', body, stranger.token)).body.reason).toBe('FORBIDDEN');
    const last = await t.call('/sl/v1/collection/resource/remove', body, owner.token);
    expect([last.status, last.body.reason]).toEqual([409, 'CONFLICT']);
  });
});

describe('previews', () => {
  it('lets anyone, signed out too, download a preview file; others stay for buyers', async () => {
    const c = await publishedCollection(t, owner);
    const body = { collection_id: c.id, resource_id: c.resource.id };
    const closed = await t.call('/sl/v1/resource/preview/url', body);
    expect([closed.status, closed.body.reason]).toEqual([403, 'FORBIDDEN']);
    expect((await t.call('/sl/v1/collection/resource/preview', { ...body, preview: true }, stranger.token)).body.reason).toBe(
      'FORBIDDEN',
    );
    const marked = await ok(t, '/sl/v1/collection/resource/preview', { ...body, preview: true }, owner.token);
    expect(marked.preview).toBe(true);
    const url = await ok(t, '/sl/v1/resource/preview/url', body);
    expect(await download(url.url)).toContain('contents of');
    const detail = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id });
    expect(detail.resources[0]).toMatchObject({ preview: true, version: 1, updated_at: null, name: 'notes.txt' });
    expect((await t.call('/sl/v1/collection/resource/preview', { ...body, preview: 'yes' }, owner.token)).status).toBe(400);
  });

  it('makes a WebP thumbnail of an image with sharp, and none for a file sharp cannot read', async () => {
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const c = await publishedCollection(t, owner);
    const image = await uploadSingle(t, owner, png, 'cover.png', 'image/png');
    const broken = await uploadSingle(t, owner, Buffer.from('not really a png'), 'broken.png', 'image/png');
    for (const r of [image, broken]) {
      await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, owner.token);
      await ok(t, '/sl/v1/collection/resource/preview', { collection_id: c.id, resource_id: r.id, preview: true }, owner.token);
    }
    const detail = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id });
    const shown = detail.resources.find((r: { id: string }) => r.id === image.id);
    expect(shown.thumbnail_url).toBeTruthy();
    const thumb = await t.app.inject({
      method: 'GET',
      url: new URL(shown.thumbnail_url).pathname + new URL(shown.thumbnail_url).search,
    });
    expect(thumb.statusCode).toBe(200);
    const meta = await sharp(thumb.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 320, 240]);
    expect(detail.resources.find((r: { id: string }) => r.id === broken.id).thumbnail_url).toBeUndefined();
  });

  it('shows a buyer no thumbnail of a non-preview file while the automatic refund is open (ADR 0049)', async () => {
    // A 256 px icon: its "thumbnail" is the icon itself, whole.
    const icon = await sharp({ create: { width: 256, height: 256, channels: 4, background: '#cc3366' } })
      .png()
      .toBuffer();
    const c = await publishedCollection(t, owner, 5);
    const r = await uploadSingle(t, owner, icon, 'icon.png', 'image/png');
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, owner.token);
    const thumbOf = async (token?: string) => {
      const d = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id }, token);
      const one = await ok(t, '/sl/v1/resource/detail', { resource_id: r.id }, token);
      expect(one.resource.thumbnail_url).toBe(d.resources.find((x: { id: string }) => x.id === r.id).thumbnail_url);
      return d.resources.find((x: { id: string }) => x.id === r.id).thumbnail_url as string | undefined;
    };
    expect(await thumbOf(owner.token)).toBeTruthy();
    expect(await thumbOf()).toBeUndefined();

    // Bought, nothing downloaded: no thumbnail, and the refund stays automatic (the buyer got nothing).
    const first = await createUser(t);
    await fund(t, first.id, '10');
    expect((await buyAndPay(t, first, c.id)).body.code).toBe(10000);
    expect(await thumbOf(first.token)).toBeUndefined();
    const order = (await ok(t, '/sl/v1/my/orders', {}, first.token)).orders.find((o: { collection_id: string }) => o.collection_id === c.id);
    const refunded = await ok(t, '/api/uc/v1/account/order/refund/request', { order_id: order.id, reason: 'not for me' }, first.token);
    expect(refunded.status).toBe('OrderStatusRefunded');

    // A download ends the automatic refund: from then on the buyer sees thumbnails.
    const second = await createUser(t);
    await fund(t, second.id, '10');
    expect((await buyAndPay(t, second, c.id)).body.code).toBe(10000);
    expect(await thumbOf(second.token)).toBeUndefined();
    await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: r.id }, second.token);
    expect(await thumbOf(second.token)).toBeTruthy();

    // So does the end of the refund window, without any download.
    const third = await createUser(t);
    await fund(t, third.id, '10');
    expect((await buyAndPay(t, third, c.id)).body.code).toBe(10000);
    const paidAt = new Date(t.clock.now() - 14 * 86_400_000 - 1_000);
    await t.app.ctx.database.db.update(orders).set({ paidAt }).where(and(eq(orders.buyerId, third.id), eq(orders.collectionId, c.id)));
    expect(await thumbOf(third.token)).toBeTruthy();
  });
});

describe('my/library/changes', () => {
  it('gives each buyer the changes of the collections they bought, in order, from a cursor', async () => {
    // The file added before the purchase is part of what was bought, not a change since.
    const c = await publishedCollection(t, owner, 5);
    t.clock.advance(60_000);
    const buyer = await createUser(t);
    await fund(t, buyer.id, '100');
    expect((await buyAndPay(t, buyer, c.id)).body.code).toBe(10000);
    const first = await ok(t, '/sl/v1/my/library/changes', {}, buyer.token);
    expect(first.changes.filter((x: { collection_id: string }) => x.collection_id === c.id)).toEqual([]);
    t.clock.advance(1_000);
    // Nothing new: the same cursor comes back.
    const idle = await ok(t, '/sl/v1/my/library/changes', { cursor: first.cursor }, buyer.token);
    expect(idle).toEqual({ changes: [], cursor: first.cursor, has_more: false });

    const v2 = await uploadSingle(t, owner, Buffer.from('v2'), 'notes.txt');
    await ok(
      t,
      '/sl/v1/collection/resource/replace',
      { collection_id: c.id, resource_id: c.resource.id, new_resource_id: v2.id },
      owner.token,
    );
    const extra = await uploadSingle(t, owner, Buffer.from('extra'), 'extra.txt');
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: extra.id }, owner.token);
    await ok(t, '/sl/v1/collection/resource/remove', { collection_id: c.id, resource_id: extra.id }, owner.token);
    // Someone else's collection changing is not in this buyer's feed.
    const other = await publishedCollection(t, owner);
    const next = await ok(t, '/sl/v1/my/library/changes', { cursor: first.cursor }, buyer.token);
    expect(
      next.changes.map((x: { resource_id: string; kind: string; version: number }) => [x.resource_id, x.kind, x.version]),
    ).toEqual([
      [c.resource.id, 'updated', 2],
      [extra.id, 'added', 1],
      [extra.id, 'removed', 1],
    ]);
    expect(next.changes.some((x: { collection_id: string }) => x.collection_id === other.id)).toBe(false);
    expect((await ok(t, '/sl/v1/my/library/changes', { cursor: next.cursor }, buyer.token)).changes).toEqual([]);
    // A stranger who bought nothing sees nothing; a forged cursor is refused.
    expect(
      (await ok(t, '/sl/v1/my/library/changes', {}, stranger.token)).changes.filter(
        (x: { collection_id: string }) => x.collection_id === c.id,
      ),
    ).toEqual([]);
    const forged = await t.call('/sl/v1/my/library/changes', { cursor: 'abc' }, buyer.token);
    expect([forged.status, forged.body.reason]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await t.call('/sl/v1/my/library/changes', {})).status).toBe(401);
  });

  it('cursor skips nothing while many changes are written at once', async () => {
    const { c, buyer } = await bought();
    const start = await ok(t, '/sl/v1/my/library/changes', {}, buyer.token);
    const files = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => uploadSingle(t, owner, Buffer.from(`file ${i}`), `f${i}.txt`)));
    await Promise.all(
      files.map((f) => ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: f.id }, owner.token)),
    );
    const seen: string[] = [];
    let cursor = start.cursor;
    for (;;) {
      const page = await ok(t, '/sl/v1/my/library/changes', { cursor }, buyer.token);
      seen.push(...page.changes.map((x: { resource_id: string }) => x.resource_id));
      if (page.cursor === cursor) break;
      cursor = page.cursor;
    }
    expect(seen.sort()).toEqual(files.map((f) => f.id).sort());
  });
});

describe('update mails and account/notifications', () => {
  it('mails buyers who accept update mails; the opt-out is per buyer', async () => {
    const { c, buyer } = await bought();
    const quiet = await createUser(t);
    await fund(t, quiet.id, '100');
    await buyAndPay(t, quiet, c.id);
    expect(await ok(t, '/api/uc/v1/account/notifications', {}, quiet.token)).toEqual({ update_mails: true });
    expect(await ok(t, '/api/uc/v1/account/notifications', { update_mails: false }, quiet.token)).toEqual({
      update_mails: false,
    });
    expect((await t.call('/api/uc/v1/account/notifications', { update_mails: 'no' }, quiet.token)).status).toBe(400);

    const v2 = await uploadSingle(t, owner, Buffer.from('v2 for mail'), 'notes.txt');
    await ok(
      t,
      '/sl/v1/collection/resource/replace',
      { collection_id: c.id, resource_id: c.resource.id, new_resource_id: v2.id },
      owner.token,
    );
    await t.app.ctx.services.collections.mailSettled();
    const mails = outbox().filter((m) => m.includes(c.id));
    expect(mails.some((m) => m.includes(buyer.email))).toBe(true);
    expect(mails.some((m) => m.includes(quiet.email))).toBe(false);
    expect(mails.find((m) => m.includes(buyer.email))).toMatch(/was updated in/);
  });
});

/**
 * Download all (product §25) through the real app on local storage: the signed URL, the streamed ZIP
 * (unzipped here with yauzl: every file, byte for byte, and manifest.json with names, sizes and MD5s),
 * the name after the collection, the right (owner and paid buyers only, gone after a refund), and
 * tampered or expired links.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, type TestApp, type TestUser } from '../../test/harness';
import { unzip } from '../../test/unzip';
import { buyAndPay, get, md5hex, ok, uploadSingle } from '../collections/collections.fixtures';
import { archiveNames, zipFileName } from './downloads.service';

let t: TestApp;

/** A published collection of three files (two with the same name) and its contents. */
async function threeFiles(owner: TestUser, title: string) {
  const c = await ok(t, '/sl/v1/collection/create', { title, desc: 'd', amount: 5 }, owner.token);
  const files = [
    { name: 'readme.txt', data: Buffer.from('read me first\n') },
    { name: 'brush.abr', data: Buffer.alloc(200_000, 7) },
    { name: 'readme.txt', data: Buffer.from('a second readme\n') },
  ];
  for (const f of files) {
    const r = await uploadSingle(t, owner, f.data, f.name, 'application/octet-stream');
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, owner.token);
  }
  await ok(t, '/sl/v1/collection/publish', { collection_id: c.id }, owner.token);
  return { c, files };
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('collection/download/all', () => {
  it('streams a ZIP of every file with a manifest to a buyer, named after the collection', async () => {
    const owner = await createUser(t);
    const { c, files } = await threeFiles(owner, 'Brushes: "Vol 1"/2');
    const buyer = await createUser(t);
    await fund(t, buyer.id, '10');
    expect((await buyAndPay(t, buyer, c.id)).body.code).toBe(10000);

    const link = await ok(t, '/sl/v1/collection/download/all', { collection_id: c.id }, buyer.token);
    expect(link).toMatchObject({ file_name: 'Brushes Vol 1 2.zip', expires_at: t.clock.now() + 300_000 });
    const res = await get(t, link.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Brushes Vol 1 2.zip"');

    const entries = await unzip(res.rawPayload);
    expect([...entries.keys()]).toEqual(['readme.txt', 'brush.abr', 'readme (2).txt', 'manifest.json']);
    expect(entries.get('readme.txt')).toEqual(files[0]!.data);
    expect(entries.get('brush.abr')).toEqual(files[1]!.data);
    expect(entries.get('readme (2).txt')).toEqual(files[2]!.data);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    expect(manifest).toEqual({
      collection: { id: c.id, title: 'Brushes: "Vol 1"/2' },
      files: files.map((f, i) => ({
        name: ['readme.txt', 'brush.abr', 'readme (2).txt'][i],
        size: f.data.length,
        md5: md5hex(f.data),
      })),
    });
  });

  it('never lets a seller file shadow the manifest, nor a stored path or control name escape the archive', async () => {
    const owner = await createUser(t);
    const c = await ok(t, '/sl/v1/collection/create', { title: 'Shadow', desc: 'd', amount: 5 }, owner.token);
    const theirs = Buffer.from('{"files":[]}\n');
    const legacy = Buffer.from('stored before the file-name rule\n');
    for (const [name, data] of [['manifest.json', theirs], ['legacy.txt', legacy]] as const) {
      const r = await uploadSingle(t, owner, data, name, 'application/octet-stream');
      await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, owner.token);
      // A row written before the rule (or by an operator): a path with a control and a bidi character.
      if (name === 'legacy.txt') await t.app.ctx.database.db.execute(sql`update resources set name = ${'../..\\C:\u202Eevil\r\n.txt'} where id = ${r.id}`);
    }
    await ok(t, '/sl/v1/collection/publish', { collection_id: c.id }, owner.token);
    const link = await ok(t, '/sl/v1/collection/download/all', { collection_id: c.id }, owner.token);
    const entries = await unzip((await get(t, link.url)).rawPayload);
    expect([...entries.keys()]).toEqual(['manifest (2).json', '.._.._C:evil.txt', 'manifest.json']);
    expect(entries.get('manifest (2).json')).toEqual(theirs);
    expect(entries.get('.._.._C:evil.txt')).toEqual(legacy);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    expect(manifest.files.map((f: { name: string }) => f.name)).toEqual(['manifest (2).json', '.._.._C:evil.txt']);
  });

  it('serves the owner; refuses strangers, tampered and expired links, and a buyer refunded since', async () => {
    const owner = await createUser(t);
    const { c } = await threeFiles(owner, 'Owned');
    const own = await ok(t, '/sl/v1/collection/download/all', { collection_id: c.id }, owner.token);
    expect((await get(t, own.url)).statusCode).toBe(200);

    const stranger = await createUser(t);
    expect(await t.call('/sl/v1/collection/download/all', { collection_id: c.id }, stranger.token)).toMatchObject({
      status: 403,
      body: { code: 10004, reason: 'FORBIDDEN' },
    });
    expect(await t.call('/sl/v1/collection/download/all', { collection_id: 'missing' }, stranger.token)).toMatchObject({
      body: { reason: expect.stringMatching(/NOT_FOUND|VALIDATION_FAILED/) },
    });
    expect(await t.call('/sl/v1/collection/download/all', { collection_id: c.id })).toMatchObject({ status: 401 });

    // The owner's link re-targeted at the stranger, or altered, is refused.
    const tampered = own.url.replace(`u=${owner.id}`, `u=${stranger.id}`);
    expect((await get(t, tampered)).statusCode).toBe(403);
    expect((await get(t, `${own.url.slice(0, -2)}xx`)).statusCode).toBe(403);

    const buyer = await createUser(t);
    await fund(t, buyer.id, '10');
    const order = (await buyAndPay(t, buyer, c.id)).body.data;
    const link = await ok(t, '/sl/v1/collection/download/all', { collection_id: c.id }, buyer.token);
    await ok(t, '/api/uc/v1/account/order/refund', { order_id: order.id }, owner.token);
    const after = await get(t, link.url);
    expect(after.statusCode).toBe(403);
    expect(after.json()).toMatchObject({ reason: 'FORBIDDEN' });

    t.clock.advance(301_000);
    expect((await get(t, own.url)).statusCode).toBe(403);
  });
});

describe('download all over HTTP', () => {
  it('sends the first bytes before the archive is complete, and a client that goes away stops it', async () => {
    const owner = await createUser(t);
    const c = await ok(t, '/sl/v1/collection/create', { title: 'Big', desc: 'd', amount: 0 }, owner.token);
    const big = Buffer.alloc(24 * 1024 * 1024, 1);
    for (const name of ['a.bin', 'b.bin']) {
      const r = await uploadSingle(t, owner, big, name, 'application/octet-stream');
      await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, owner.token);
    }
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const link = await ok(t, '/sl/v1/collection/download/all', { collection_id: c.id }, owner.token);
    const url = new URL(link.url);
    const abort = new AbortController();
    const res = await fetch(`${address}${url.pathname}${url.search}`, { signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    // A local file header ("PK\x03\x04") arrives while 48 MB are still to come.
    expect(Buffer.from(first.value!).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    abort.abort();
    await reader.cancel().catch(() => {});
    // The app goes on serving.
    const again = await fetch(`${address}${url.pathname}${url.search}`);
    expect(again.status).toBe(200);
    expect((await again.arrayBuffer()).byteLength).toBeGreaterThan(2 * big.length);
    // Kept-alive sockets would hold app.close() until their timeout.
    t.app.server.closeAllConnections();
  });
});

describe('archiveNames', () => {
  it('makes names unique the way unzip tools and file systems compare them, and keeps the manifest', () => {
    expect(archiveNames(['a.txt', 'A.TXT', 'a.txt.', 'a (2).txt', 'MANIFEST.JSON', 'manifest.json'])).toEqual([
      'a.txt',
      'A (2).TXT',
      'a.txt (2).',
      'a (2) (2).txt',
      'MANIFEST (2).JSON',
      'manifest (3).json',
    ]);
    // Composed and decomposed é are one name on macOS.
    expect(archiveNames(['caf\u00e9.txt', 'cafe\u0301.txt'])).toEqual(['caf\u00e9.txt', 'cafe\u0301 (2).txt']);
    expect(archiveNames(['..', '.', '', 'C:x.txt', 'a/b\\c.txt', 'x\u202Ey.txt', 'ok: fine.txt'])).toEqual([
      'file',
      'file (2)',
      'file (3)',
      'C_x.txt',
      'a_b_c.txt',
      'xy.txt',
      'ok: fine.txt',
    ]);
  });
});

describe('zipFileName', () => {
  it('keeps letters and spaces, drops separators and control characters', () => {
    expect(zipFileName('Brushes')).toBe('Brushes.zip');
    expect(zipFileName('a/b\\c:d*e?f"g<h>i|j')).toBe('a b c d e f g h i j.zip');
    expect(zipFileName('\u0001..hidden')).toBe('hidden.zip');
    expect(zipFileName(' / ')).toBe('collection.zip');
    expect(zipFileName('Café 日本')).toBe('Café 日本.zip');
  });
});

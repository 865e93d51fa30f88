/**
 * Uploads through the local provider's presigned URLs (issue 5): multipart with parts out of order,
 * a re-sent part, resume via list-parts, MD5 verification, refusals of wrong MD5 / missing parts /
 * tampered or expired URLs, downloads byte for byte (with Range), images checked by magic bytes,
 * and every call tried as a stranger.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp, type TestUser } from '../../test/harness';
import { get, md5hex, ok, PNG_1PX, put, uploadSingle } from '../collections/collections.fixtures';

const MiB = 1024 * 1024;
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp({ MAX_UPLOAD_BYTES: String(64 * MiB) });
  owner = await createUser(t);
  stranger = await createUser(t);
});
afterAll(async () => {
  await t.close();
});

describe('multipart upload', () => {
  it('assembles a 23 MiB file sent in 5 MiB parts out of order, with a re-sent part and a resume, and downloads it byte for byte', async () => {
    const data = randomBytes(23 * MiB);
    const start = await ok(
      t,
      '/sl/v1/multipart/upload',
      { file_name: 'big data.bin', size: data.length, md5: md5hex(data), content_type: 'application/octet-stream' },
      owner.token,
    );
    expect(start).toMatchObject({ part_size: 5 * MiB, part_count: 5 });
    const slice = (n: number) => data.subarray((n - 1) * start.part_size, Math.min(n * start.part_size, data.length));
    const etags: Record<number, string> = {};
    const send = async (n: number, body = slice(n)) => {
      const { url, size } = await ok(t, '/sl/v1/upload/part/url', { upload_id: start.upload_id, part_number: n }, owner.token);
      expect(size).toBe(slice(n).length);
      const res = await put(t, url, body);
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toBe(`"${md5hex(body)}"`);
      return res.headers.etag as string;
    };
    // Out of order; part 2 first with wrong bytes, then re-sent with the right ones.
    etags[3] = await send(3);
    etags[1] = await send(1);
    await send(2, randomBytes(5 * MiB));
    etags[2] = await send(2);
    etags[5] = await send(5);

    // The connection "drops": the client asks which parts arrived and resumes with the rest.
    const listed = await ok(t, '/sl/v1/upload/parts', { upload_id: start.upload_id }, owner.token);
    expect(listed.parts.map((p: { part_number: number }) => p.part_number)).toEqual([1, 2, 3, 5]);
    expect(listed.parts.find((p: { part_number: number }) => p.part_number === 2).etag).toBe(etags[2]);
    expect(listed.parts.find((p: { part_number: number }) => p.part_number === 5).size).toBe(3 * MiB);

    // Completing with part 4 missing is refused, and the upload stays open.
    const all = (extra: object[] = []) => [...[1, 2, 3, 5].map((n) => ({ part_number: n, etag: etags[n]! })), ...extra];
    const missing = await t.call('/sl/v1/complete/upload', { upload_id: start.upload_id, parts: all() }, owner.token);
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toMatch(/Part 4 is missing/);
    const notSent = await t.call(
      '/sl/v1/complete/upload',
      { upload_id: start.upload_id, parts: all([{ part_number: 4, etag: '"0"' }]) },
      owner.token,
    );
    expect(notSent.body.reason).toBe('VALIDATION_FAILED');
    expect(notSent.body.msg).toMatch(/Part 4 is missing/);

    etags[4] = await send(4);
    // A wrong ETag for a part is refused too (the part on storage differs).
    const wrongEtag = await t.call(
      '/sl/v1/complete/upload',
      { upload_id: start.upload_id, parts: all([{ part_number: 4, etag: `"${md5hex('x')}"` }]) },
      owner.token,
    );
    expect(wrongEtag.body.reason).toBe('VALIDATION_FAILED');
    expect(wrongEtag.body.msg).toMatch(/ETag of part 4/);

    const resource = await ok(
      t,
      '/sl/v1/complete/upload',
      { upload_id: start.upload_id, parts: all([{ part_number: 4, etag: etags[4] }]) },
      owner.token,
    );
    expect(resource).toMatchObject({ name: 'big data.bin', size: data.length, md5: md5hex(data), collection_id: null });
    // Completing again answers the same resource.
    const again = await ok(t, '/sl/v1/complete/upload', { upload_id: start.upload_id, parts: [] }, owner.token);
    expect(again.id).toBe(resource.id);

    const c = await ok(t, '/sl/v1/collection/create', { title: 'Big', desc: '', amount: 1 }, owner.token);
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: resource.id }, owner.token);
    const link = await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: resource.id }, owner.token);
    const full = await get(t, link.url);
    expect(full.statusCode).toBe(200);
    expect(full.rawPayload.equals(data)).toBe(true);
    expect(full.headers['content-disposition']).toBe('attachment; filename="big data.bin"');
    expect(full.headers['x-content-type-options']).toBe('nosniff');
    expect(full.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    const ranged = await get(t, link.url, { range: 'bytes=100-199' });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 100-199/${data.length}`);
    expect(ranged.rawPayload.equals(data.subarray(100, 200))).toBe(true);
  });

  it('discards the file when the assembled MD5 differs from the declared one', async () => {
    const data = randomBytes(6 * MiB);
    const start = await ok(
      t,
      '/sl/v1/multipart/upload',
      { file_name: 'x.bin', size: data.length, md5: md5hex('something else'), content_type: 'application/octet-stream' },
      owner.token,
    );
    const parts = [];
    for (const n of [1, 2]) {
      const { url } = await ok(t, '/sl/v1/upload/part/url', { upload_id: start.upload_id, part_number: n }, owner.token);
      const res = await put(t, url, data.subarray((n - 1) * 5 * MiB, n * 5 * MiB));
      parts.push({ part_number: n, etag: res.headers.etag as string });
    }
    const res = await t.call('/sl/v1/complete/upload', { upload_id: start.upload_id, parts }, owner.token);
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/MD5 .* does not match/);
    const storage = t.app.ctx.services.storage;
    expect(await storage.head(`resources/${start.upload_id}`)).toBeNull();
    const retry = await t.call('/sl/v1/complete/upload', { upload_id: start.upload_id, parts }, owner.token);
    expect(retry.body.reason).toBe('CONFLICT');
    const partUrl = await t.call('/sl/v1/upload/part/url', { upload_id: start.upload_id, part_number: 1 }, owner.token);
    expect(partUrl.body.reason).toBe('CONFLICT');
  });

  it('refuses a part of the wrong size by number; sent again whole (and once more, the same), the file completes byte for byte', async () => {
    const data = randomBytes(11 * MiB);
    const start = await ok(
      t,
      '/sl/v1/multipart/upload',
      { file_name: 'short.bin', size: data.length, md5: md5hex(data), content_type: 'application/octet-stream' },
      owner.token,
    );
    const slice = (n: number) => data.subarray((n - 1) * 5 * MiB, Math.min(n * 5 * MiB, data.length));
    const send = async (n: number, body = slice(n)) => {
      const { url } = await ok(t, '/sl/v1/upload/part/url', { upload_id: start.upload_id, part_number: n }, owner.token);
      const res = await put(t, url, body);
      expect(res.statusCode).toBe(200);
      return { part_number: n, etag: res.headers.etag as string };
    };
    const short = await send(1, slice(1).subarray(0, MiB));
    const rest = [await send(3), await send(2)];
    const refused = await t.call('/sl/v1/complete/upload', { upload_id: start.upload_id, parts: [short, ...rest] }, owner.token);
    expect(refused.body.reason).toBe('VALIDATION_FAILED');
    expect(refused.body.msg).toBe(`Part 1 has ${MiB} bytes; it must have ${5 * MiB}`);
    const whole = await send(1);
    // A retry of a part that arrived (its answer lost): same bytes, same ETag.
    expect(await send(1)).toEqual(whole);
    const resource = await ok(t, '/sl/v1/complete/upload', { upload_id: start.upload_id, parts: [whole, ...rest] }, owner.token);
    expect(resource).toMatchObject({ size: data.length, md5: md5hex(data) });
    const c = await ok(t, '/sl/v1/collection/create', { title: 'Short', desc: '', amount: 1 }, owner.token);
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: resource.id }, owner.token);
    const link = await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: resource.id }, owner.token);
    expect((await get(t, link.url)).rawPayload.equals(data)).toBe(true);
  });

  it('refuses a part larger than its presigned size and files over MAX_UPLOAD_BYTES', async () => {
    const start = await ok(
      t,
      '/sl/v1/multipart/upload',
      { file_name: 'y.bin', size: 5 * MiB + 10, md5: md5hex('y'), content_type: '' },
      owner.token,
    );
    const { url } = await ok(t, '/sl/v1/upload/part/url', { upload_id: start.upload_id, part_number: 2 }, owner.token);
    const res = await put(t, url, randomBytes(11));
    expect(res.statusCode).toBe(413);
    const tooBig = await t.call(
      '/sl/v1/multipart/upload',
      { file_name: 'huge.bin', size: 65 * MiB, md5: md5hex('z'), content_type: 'application/zip' },
      owner.token,
    );
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.msg).toBe('Files must be at most 64 MB');
    const badPart = await t.call('/sl/v1/upload/part/url', { upload_id: start.upload_id, part_number: 3 }, owner.token);
    expect(badPart.body.msg).toBe('This upload has 2 part(s)');
  });
});

describe('single PUT upload', () => {
  it('verifies size and MD5 and accepts base64 MD5', async () => {
    const data = Buffer.from('hello coffer');
    const start = await ok(
      t,
      '/sl/v1/upload/resource/url',
      {
        file_name: 'hello.txt',
        size: data.length,
        md5: Buffer.from(md5hex(data), 'hex').toString('base64'),
        content_type: 'text/plain',
      },
      owner.token,
    );
    const early = await t.call('/sl/v1/complete/upload', { upload_id: start.upload_id }, owner.token);
    expect(early.body.msg).toBe('The file has not been uploaded yet');
    expect((await put(t, start.url, data)).statusCode).toBe(200);
    const r = await ok(t, '/sl/v1/complete/upload', { upload_id: start.upload_id }, owner.token);
    expect(r).toMatchObject({ size: data.length, md5: md5hex(data), content_type: 'text/plain' });
  });

  it('streams bodies of any content type past the 1 MB JSON limit, and serves non-ASCII names as attachments', async () => {
    const data = Buffer.from(JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }));
    const start = await ok(
      t,
      '/sl/v1/upload/resource/url',
      { file_name: 'données.json', size: data.length, md5: md5hex(data), content_type: 'application/json' },
      owner.token,
    );
    expect((await put(t, start.url, data, { 'content-type': 'application/json' })).statusCode).toBe(200);
    const r = await ok(t, '/sl/v1/complete/upload', { upload_id: start.upload_id }, owner.token);
    const c = await ok(t, '/sl/v1/collection/create', { title: 'J', amount: 0 }, owner.token);
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, owner.token);
    const link = await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: r.id }, owner.token);
    const file = await get(t, link.url);
    expect(file.rawPayload.equals(data)).toBe(true);
    expect(file.headers['content-type']).toBe('application/json');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="donn?es.json"; filename*=UTF-8''donn%C3%A9es.json`);
  });

  it('refuses a file whose MD5 differs and keeps nothing', async () => {
    const data = Buffer.from('real bytes');
    const start = await ok(
      t,
      '/sl/v1/upload/resource/url',
      { file_name: 'a.txt', size: data.length, md5: md5hex('fake bytes'), content_type: 'text/plain' },
      owner.token,
    );
    await put(t, start.url, data);
    const res = await t.call('/sl/v1/complete/upload', { upload_id: start.upload_id }, owner.token);
    expect(res.body.reason).toBe('VALIDATION_FAILED');
    expect(await t.app.ctx.services.storage.head(`resources/${start.upload_id}`)).toBeNull();
  });

  it('refuses files over the single-PUT limit and bad declarations', async () => {
    const big = await t.call(
      '/sl/v1/upload/resource/url',
      { file_name: 'b.bin', size: 101 * MiB, md5: md5hex('b') },
      owner.token,
    );
    expect(big.status).toBe(413); // over MAX_UPLOAD_BYTES (64 MiB here)
    const bad = [
      { file_name: '', size: 1, md5: md5hex('a') },
      { file_name: '../etc/passwd', size: 1, md5: md5hex('a') },
      { file_name: 'a', size: 0, md5: md5hex('a') },
      { file_name: 'a', size: 1.5, md5: md5hex('a') },
      { file_name: 'a', size: 1, md5: 'nothex' },
      { file_name: 'a', size: 1, md5: md5hex('a'), content_type: 'not a type' },
    ];
    for (const body of bad) {
      const res = await t.call('/sl/v1/upload/resource/url', body, owner.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.reason).toBe('VALIDATION_FAILED');
    }
    expect((await t.call('/sl/v1/upload/resource/url', { file_name: 'a', size: 1, md5: md5hex('a') })).status).toBe(401);
  });
});

describe('presigned URLs', () => {
  it('refuses tampered, re-targeted and expired URLs', async () => {
    const data = Buffer.from('signed');
    const start = await ok(
      t,
      '/sl/v1/upload/resource/url',
      { file_name: 's.txt', size: data.length, md5: md5hex(data) },
      owner.token,
    );
    const u = new URL(start.url);
    const tamperedMax = new URL(u);
    tamperedMax.searchParams.set('max', '999999999');
    expect((await put(t, tamperedMax.toString(), data)).statusCode).toBe(403);
    const tamperedSig = new URL(u);
    tamperedSig.searchParams.set('sig', `${u.searchParams.get('sig')!.slice(0, -2)}AA`);
    expect((await put(t, tamperedSig.toString(), data)).statusCode).toBe(403);
    const otherKey = new URL(u);
    otherKey.pathname = otherKey.pathname.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect((await put(t, otherKey.toString(), data)).statusCode).toBe(403);
    // A PUT URL is not a GET URL.
    expect((await get(t, start.url)).statusCode).toBe(403);

    t.clock.advance(3_601_000);
    const expired = await put(t, start.url, data);
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toMatchObject({ reason: 'FORBIDDEN', msg: 'This link is invalid or has expired' });
    t.clock.advance(-3_601_000);
    expect((await put(t, start.url, data)).statusCode).toBe(200);
  });

  it('expires download URLs after a few minutes', async () => {
    const r = await uploadSingle(t, owner, Buffer.from('dl'));
    const c = await ok(t, '/sl/v1/collection/create', { title: 'D', amount: 0 }, owner.token);
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, owner.token);
    const link = await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: r.id }, owner.token);
    expect(link.expires_at - t.clock.now()).toBe(300_000);
    t.clock.advance(301_000);
    expect((await get(t, link.url)).statusCode).toBe(403);
    t.clock.advance(-301_000);
    expect((await get(t, link.url)).body).toBe('dl');
  });
});

describe('housekeeping', () => {
  it('refuses a part sent after completion and aborts uploads left unfinished for a week', async () => {
    const data = Buffer.from('0123456789');
    const done = await ok(t, '/sl/v1/multipart/upload', { file_name: 'd.bin', size: 10, md5: md5hex(data) }, owner.token);
    const { url } = await ok(t, '/sl/v1/upload/part/url', { upload_id: done.upload_id, part_number: 1 }, owner.token);
    const etag = (await put(t, url, data)).headers.etag as string;
    await ok(t, '/sl/v1/complete/upload', { upload_id: done.upload_id, parts: [{ part_number: 1, etag }] }, owner.token);
    const late = await put(t, url, data);
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({
      reason: 'FORBIDDEN',
      msg: 'This upload was completed or aborted; its parts can no longer be changed',
    });

    const stale = await ok(t, '/sl/v1/multipart/upload', { file_name: 's.bin', size: 10, md5: md5hex(data) }, owner.token);
    const part = await ok(t, '/sl/v1/upload/part/url', { upload_id: stale.upload_id, part_number: 1 }, owner.token);
    await put(t, part.url, data);
    const uploads = t.app.ctx.services.uploads;
    expect(await uploads.abortStale(7 * 24 * 3_600_000)).toBe(0);
    t.clock.advance(7 * 24 * 3_600_000 + 1000);
    try {
      expect(await uploads.abortStale(7 * 24 * 3_600_000)).toBeGreaterThanOrEqual(1);
    } finally {
      t.clock.advance(-(7 * 24 * 3_600_000 + 1000));
    }
    expect((await t.call('/sl/v1/upload/parts', { upload_id: stale.upload_id }, owner.token)).body.reason).toBe('CONFLICT');
    expect(
      (await t.call('/sl/v1/complete/upload', { upload_id: done.upload_id, parts: [] }, owner.token)).body.data.id,
    ).toBeTruthy();
  });
});

describe('ownership', () => {
  it("refuses another user's upload in every call", async () => {
    const start = await ok(
      t,
      '/sl/v1/multipart/upload',
      { file_name: 'o.bin', size: 10, md5: md5hex('0123456789') },
      owner.token,
    );
    for (const [url, body] of [
      ['/sl/v1/upload/part/url', { upload_id: start.upload_id, part_number: 1 }],
      ['/sl/v1/upload/parts', { upload_id: start.upload_id }],
      ['/sl/v1/complete/upload', { upload_id: start.upload_id, parts: [] }],
    ] as const) {
      const res = await t.call(url, body, stranger.token);
      expect(res.status, url).toBe(403);
      expect(res.body.reason).toBe('FORBIDDEN');
    }
    const unknown = await t.call('/sl/v1/upload/parts', { upload_id: '01900000-0000-7000-8000-000000000000' }, owner.token);
    expect(unknown.body.reason).toBe('NOT_FOUND');
  });
});

describe('images', () => {
  it('accepts a real PNG banner and serves it from /media with safe headers', async () => {
    const pre = await ok(t, '/sl/v1/create/banner/url', { content_type: 'image/png', size: PNG_1PX.length }, owner.token);
    expect(pre.banner).toMatch(/^http:\/\/127\.0\.0\.1:8080\/media\/[0-9a-f-]{36}$/);
    // The PUT must carry the presigned type.
    expect((await put(t, pre.url, PNG_1PX, { 'content-type': 'image/jpeg' })).statusCode).toBe(400);
    expect((await put(t, pre.url, PNG_1PX, { 'content-type': 'image/png' })).statusCode).toBe(200);
    // Not served before it is checked.
    expect((await get(t, pre.banner)).statusCode).toBe(404);
    // Another user cannot use it.
    const stolen = await t.call('/sl/v1/collection/create', { title: 'S', amount: 1, banner: pre.banner }, stranger.token);
    expect(stolen.body.reason).toBe('VALIDATION_FAILED');
    const c = await ok(t, '/sl/v1/collection/create', { title: 'With banner', amount: 1, banner: pre.banner }, owner.token);
    expect(c.banner).toBe(pre.banner);
    const img = await get(t, pre.banner);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    expect(img.rawPayload.equals(PNG_1PX)).toBe(true);
  });

  it('refuses an image whose bytes are not an allowed image, whatever type was declared', async () => {
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const pre = await ok(t, '/sl/v1/create/banner/url', { content_type: 'image/png', size: html.length }, owner.token);
    await put(t, pre.url, html, { 'content-type': 'image/png' });
    const res = await t.call('/sl/v1/collection/create', { title: 'X', amount: 1, banner: pre.banner }, owner.token);
    expect(res.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'The file is not a PNG, JPEG, WebP or GIF image' });
    const svg = await t.call('/sl/v1/create/banner/url', { content_type: 'image/svg+xml', size: 10 }, owner.token);
    expect(svg.body.msg).toMatch(/Images must be PNG, JPEG, WebP or GIF/);
    const big = await t.call('/sl/v1/create/banner/url', { content_type: 'image/png', size: 5 * 1024 * 1024 + 1 }, owner.token);
    expect(big.body.msg).toMatch(/Images must be 5 MB or smaller/);
  });

  it('sets an avatar only from an image uploaded through avatar/url', async () => {
    const pre = await ok(t, '/api/uc/v1/account/avatar/url', { content_type: 'image/png', size: PNG_1PX.length }, owner.token);
    expect(pre.expires_at).toBeGreaterThan(t.clock.now());
    await put(t, pre.url, PNG_1PX, { 'content-type': 'image/png' });
    const changed = await ok(t, '/api/uc/v1/account/change', { avatar: pre.avatar }, owner.token);
    expect(changed.avatar).toBe(pre.avatar);
    const me = await ok(t, '/api/uc/v1/account/get/me', {}, owner.token);
    expect(me.avatar).toBe(pre.avatar);
    const foreign = await t.call('/api/uc/v1/account/change', { avatar: 'https://evil.example/x.png' }, owner.token);
    expect(foreign.body.reason).toBe('VALIDATION_FAILED');
    const othersImage = await t.call('/api/uc/v1/account/change', { avatar: pre.avatar }, stranger.token);
    expect(othersImage.body.reason).toBe('VALIDATION_FAILED');
  });
});

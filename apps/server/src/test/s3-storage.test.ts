/**
 * The `s3` storage provider against an S3-compatible server started here on 127.0.0.1 (s3rver):
 * presigned multipart parts PUT over real HTTP, list-parts, completion with MD5 verification (the
 * object is hashed back since S3 gives no MD5 of a multipart object), presigned downloads, and
 * images checked by magic bytes, sealed single-PUT files, download all streaming the objects into one ZIP. s3rver does not check presigned signatures; signature refusal is
 * tested on the local provider (modules/uploads/uploads.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp, type TestUser } from './harness';
import { get, md5hex, ok, PNG_1PX } from '../modules/collections/collections.fixtures';
import { unzip } from './unzip';

const MiB = 1024 * 1024;
let server: S3rver;
let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: mkdtempSync(path.join(tmpdir(), 'coffer-s3rver-')),
    configureBuckets: [{ name: 'coffer' }],
  });
  const { port } = await server.run();
  t = await createTestApp({
    STORAGE: 's3',
    S3_BUCKET: 'coffer',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  });
  user = await createUser(t);
});
afterAll(async () => {
  await t?.close();
  await server?.close();
});

async function putTo(url: string, body: Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'PUT', body, headers });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.headers.get('etag')!;
}

describe('s3 provider', () => {
  it('uploads in presigned parts out of order, refuses a missing part, verifies MD5 and downloads the same bytes', async () => {
    const data = randomBytes(11 * MiB);
    const start = await ok(
      t,
      '/sl/v1/multipart/upload',
      { file_name: 'résumé.bin', size: data.length, md5: md5hex(data) },
      user.token,
    );
    expect(start).toMatchObject({ part_size: 5 * MiB, part_count: 3 });
    const etags: Record<number, string> = {};
    for (const n of [3, 1]) {
      const { url } = await ok(t, '/sl/v1/upload/part/url', { upload_id: start.upload_id, part_number: n }, user.token);
      expect(url).not.toMatch(/x-amz-checksum|x-amz-sdk-checksum/i);
      etags[n] = await putTo(url, data.subarray((n - 1) * 5 * MiB, n * 5 * MiB));
      expect(etags[n]).toBe(`"${md5hex(data.subarray((n - 1) * 5 * MiB, n * 5 * MiB))}"`);
    }
    // s3rver has no ListParts (real S3, MinIO and R2 do): upload/parts says so instead of failing.
    const listed = await t.call('/sl/v1/upload/parts', { upload_id: start.upload_id }, user.token);
    expect(listed.body).toMatchObject({ reason: 'CONFLICT', msg: 'This storage cannot list the parts of an upload' });
    const parts = () => [1, 2, 3].filter((n) => etags[n]).map((n) => ({ part_number: n, etag: etags[n]! }));
    const missing = await t.call('/sl/v1/complete/upload', { upload_id: start.upload_id, parts: parts() }, user.token);
    expect(missing.body.msg).toMatch(/Part 2 is missing/);

    const { url } = await ok(t, '/sl/v1/upload/part/url', { upload_id: start.upload_id, part_number: 2 }, user.token);
    etags[2] = await putTo(url, data.subarray(5 * MiB, 10 * MiB));
    const resource = await ok(t, '/sl/v1/complete/upload', { upload_id: start.upload_id, parts: parts() }, user.token);
    expect(resource).toMatchObject({ size: data.length, md5: md5hex(data), name: 'résumé.bin' });

    const c = await ok(t, '/sl/v1/collection/create', { title: 'On S3', amount: 1 }, user.token);
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: resource.id }, user.token);
    const link = await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: resource.id }, user.token);
    const res = await fetch(link.url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="r\?sum\?\.bin"; filename\*=UTF-8''r%C3%A9sum%C3%A9\.bin$/,
    );
  });

  it('discards an upload whose MD5 does not match', async () => {
    const data = randomBytes(1000);
    const start = await ok(
      t,
      '/sl/v1/upload/resource/url',
      { file_name: 'x.bin', size: data.length, md5: md5hex('other') },
      user.token,
    );
    await putTo(start.url, data);
    const res = await t.call('/sl/v1/complete/upload', { upload_id: start.upload_id }, user.token);
    expect(res.body.msg).toMatch(/MD5/);
    expect(await t.app.ctx.services.storage.head(`resources/${start.upload_id}`)).toBeNull();
  });

  it('seals a completed single-PUT file: a later PUT through its URL changes nothing buyers download', async () => {
    const data = randomBytes(2000);
    const start = await ok(
      t,
      '/sl/v1/upload/resource/url',
      { file_name: 's.bin', size: data.length, md5: md5hex(data) },
      user.token,
    );
    await putTo(start.url, data);
    const resource = await ok(t, '/sl/v1/complete/upload', { upload_id: start.upload_id }, user.token);
    // The URL is still valid for the store; what it writes is nothing anyone reads.
    await fetch(start.url, { method: 'PUT', body: randomBytes(2000) });
    const c = await ok(t, '/sl/v1/collection/create', { title: 'Sealed on S3', amount: 0 }, user.token);
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: resource.id }, user.token);
    const link = await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: resource.id }, user.token);
    const got = Buffer.from(await (await fetch(link.url)).arrayBuffer());
    expect(md5hex(got)).toBe(md5hex(data));
  });

  it('download all streams the stored objects one after another into a ZIP with their manifest', async () => {
    const files = [randomBytes(3000), randomBytes(6 * MiB)];
    const c = await ok(t, '/sl/v1/collection/create', { title: 'Zipped on S3', amount: 0 }, user.token);
    for (const [i, data] of files.entries()) {
      const start = await ok(
        t,
        '/sl/v1/upload/resource/url',
        { file_name: `f${i}.bin`, size: data.length, md5: md5hex(data) },
        user.token,
      );
      await putTo(start.url, data);
      const resource = await ok(t, '/sl/v1/complete/upload', { upload_id: start.upload_id }, user.token);
      await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: resource.id }, user.token);
    }
    const link = await ok(t, '/sl/v1/collection/download/all', { collection_id: c.id }, user.token);
    const res = await get(t, link.url);
    expect(res.statusCode).toBe(200);
    const entries = await unzip(res.rawPayload);
    expect([...entries.keys()]).toEqual(['f0.bin', 'f1.bin', 'manifest.json']);
    expect(md5hex(entries.get('f1.bin')!)).toBe(md5hex(files[1]!));
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    expect(manifest.files).toEqual(files.map((d, i) => ({ name: `f${i}.bin`, size: d.length, md5: md5hex(d) })));
  });

  it('checks a banner by its bytes and redirects /media to a presigned GET', async () => {
    const pre = await ok(t, '/sl/v1/create/banner/url', { content_type: 'image/png', size: PNG_1PX.length }, user.token);
    await putTo(pre.url, PNG_1PX, { 'content-type': 'image/png' });
    const c = await ok(t, '/sl/v1/collection/create', { title: 'Banner on S3', amount: 1, banner: pre.banner }, user.token);
    expect(c.banner).toBe(pre.banner);
    const media = await t.app.inject({ method: 'GET', url: new URL(pre.banner).pathname });
    expect(media.statusCode).toBe(302);
    const img = await fetch(media.headers.location as string);
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG_1PX)).toBe(true);

    const text = Buffer.from('plain text, not an image');
    const bad = await ok(t, '/sl/v1/create/banner/url', { content_type: 'image/gif', size: text.length }, user.token);
    await putTo(bad.url, text, { 'content-type': 'image/gif' });
    expect(
      (await t.call('/sl/v1/collection/create', { title: 'Bad', amount: 1, banner: bad.banner }, user.token)).body.reason,
    ).toBe('VALIDATION_FAILED');
  });
});

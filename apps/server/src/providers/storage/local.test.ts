/**
 * Local multipart completion (local.ts, assembler.ts): the object and its MD5 are those of the
 * listed parts in order, whether the parts were written in place and hashed as they arrived
 * (completion renames the upload's file) or completion had to concatenate them (a part re-sent
 * with other bytes, an upload started without its size and part size). Bytes written in place are
 * never overwritten by a re-sent, duplicate or failed PUT.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStorage } from './local';

const root = mkdtempSync(path.join(tmpdir(), 'coffer-local-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const storage = new LocalStorage({
  root,
  publicUrl: 'http://127.0.0.1:8080',
  secret: 'x'.repeat(32),
  clock: { now: () => Date.now() },
});
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const put = (uploadId: string, n: number, body: Buffer) => storage.receivePart(uploadId, n, Readable.from([body]), body.length);

describe('local multipart completion', () => {
  it('answers the object of the listed parts in order and its MD5, parts arriving out of order', async () => {
    const parts = [randomBytes(3 << 20), randomBytes(3 << 20), randomBytes(1 << 20)];
    const key = `resources/a${Date.now()}`;
    const id = await storage.createMultipart(key);
    const etags: string[] = [];
    for (const n of [3, 1, 2]) etags[n - 1] = await put(id, n, parts[n - 1]!);
    const done = await storage.completeMultipart(
      key,
      id,
      etags.map((etag, i) => ({ partNumber: i + 1, etag })),
    );
    const whole = Buffer.concat(parts);
    expect(done).toEqual({ size: whole.length, md5: md5(whole) });
    expect(md5(readFileSync(storage.objectPath(key)))).toBe(md5(whole));
    expect(readdirSync(path.join(root, 'multipart'))).not.toContain(id);
  });

  it('a part re-sent with other bytes after it was assembled: the object holds the new bytes, with their MD5', async () => {
    const parts = [randomBytes(2 << 20), randomBytes(2 << 20), randomBytes(5)];
    const key = `resources/b${Date.now()}`;
    const id = await storage.createMultipart(key);
    const etags: string[] = [];
    for (const n of [1, 2, 3]) etags[n - 1] = await put(id, n, parts[n - 1]!);
    // Let the assembler take parts 1-3, then replace part 1.
    await new Promise((r) => setTimeout(r, 200));
    parts[0] = randomBytes(2 << 20);
    etags[0] = await put(id, 1, parts[0]);
    const done = await storage.completeMultipart(
      key,
      id,
      etags.map((etag, i) => ({ partNumber: i + 1, etag })),
    );
    const whole = Buffer.concat(parts);
    expect(done).toEqual({ size: whole.length, md5: md5(whole) });
    expect(md5(readFileSync(storage.objectPath(key)))).toBe(md5(whole));
  });

  it('a completion listing fewer parts than were sent holds exactly the listed ones', async () => {
    const parts = [randomBytes(1 << 20), randomBytes(1 << 20)];
    const key = `resources/c${Date.now()}`;
    const id = await storage.createMultipart(key);
    const e1 = await put(id, 1, parts[0]!);
    await put(id, 2, parts[1]!);
    const done = await storage.completeMultipart(key, id, [{ partNumber: 1, etag: e1 }]);
    expect(done).toEqual({ size: parts[0]!.length, md5: md5(parts[0]!) });
    expect(md5(readFileSync(storage.objectPath(key)))).toBe(md5(parts[0]!));
  });

  it('an aborted upload leaves nothing behind', async () => {
    const key = `resources/d${Date.now()}`;
    const id = await storage.createMultipart(key);
    await put(id, 1, randomBytes(1 << 20));
    await storage.abortMultipart(key, id);
    expect(readdirSync(path.join(root, 'multipart'))).not.toContain(id);
    expect(await storage.head(key)).toBeNull();
  });
});

describe('local multipart parts written in place', () => {
  const PART = 1 << 20;
  /** Starts an upload of `parts` laid out with a 1 MiB part size. */
  const start = async (name: string, parts: Buffer[]) => {
    const key = `resources/${name}${Date.now()}`;
    const size = parts.reduce((n, p) => n + p.length, 0);
    const id = await storage.createMultipart(key, { contentType: 'application/octet-stream', size, partSize: PART });
    return { key, id, dir: path.join(root, 'multipart', id) };
  };
  const complete = (key: string, id: string, etags: string[]) =>
    storage.completeMultipart(
      key,
      id,
      etags.map((etag, i) => ({ partNumber: i + 1, etag })),
    );
  /** A body that sends `bytes` and then fails, as a dropped connection does. */
  const broken = (bytes: Buffer) =>
    Readable.from(
      (async function* () {
        yield bytes;
        await new Promise((r) => setTimeout(r, 20));
        throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
      })(),
    );

  it('writes parts arriving out of order at their offsets, and completion renames that file into place', async () => {
    const parts = [randomBytes(PART), randomBytes(PART), randomBytes(PART), randomBytes(12_345)];
    const { key, id, dir } = await start('e', parts);
    const etags: string[] = [];
    for (const n of [4, 2, 1, 3]) etags[n - 1] = await put(id, n, parts[n - 1]!);
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
    const ino = statSync(path.join(dir, 'data')).ino;
    const whole = Buffer.concat(parts);
    expect(await complete(key, id, etags)).toEqual({ size: whole.length, md5: md5(whole) });
    expect(statSync(storage.objectPath(key)).ino).toBe(ino);
    expect(readFileSync(storage.objectPath(key)).equals(whole)).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });

  it('a part re-sent with the same bytes after it was written in place: the bytes in place stay, the object is whole', async () => {
    const parts = [randomBytes(PART), randomBytes(PART), randomBytes(7)];
    const { key, id, dir } = await start('f', parts);
    const etags: string[] = [];
    for (const n of [1, 2, 3]) etags[n - 1] = await put(id, n, parts[n - 1]!);
    expect(await put(id, 2, parts[1]!)).toBe(etags[1]);
    expect(readdirSync(dir)).toContain('2.part');
    const whole = Buffer.concat(parts);
    expect(await complete(key, id, etags)).toEqual({ size: whole.length, md5: md5(whole) });
    expect(readFileSync(storage.objectPath(key)).equals(whole)).toBe(true);
  });

  it('a part re-sent with other bytes replaces the one in place, which is never overwritten', async () => {
    const parts = [randomBytes(PART), randomBytes(PART), randomBytes(PART)];
    const { key, id, dir } = await start('g', parts);
    const etags: string[] = [];
    for (const n of [1, 2, 3]) etags[n - 1] = await put(id, n, parts[n - 1]!);
    const first = parts[1]!;
    parts[1] = randomBytes(PART);
    etags[1] = await put(id, 2, parts[1]);
    // The first version is still whole where it was written.
    const inPlace = readFileSync(path.join(dir, 'data'));
    expect(inPlace.subarray(PART, 2 * PART).equals(first)).toBe(true);
    expect((await storage.listParts(key, id)).find((p) => p.partNumber === 2)?.etag).toBe(etags[1]);
    await expect(complete(key, id, [etags[0]!, `"${md5(first)}"`, etags[2]!])).rejects.toMatchObject({ code: 'InvalidPart' });
    const whole = Buffer.concat(parts);
    expect(await complete(key, id, etags)).toEqual({ size: whole.length, md5: md5(whole) });
    expect(readFileSync(storage.objectPath(key)).equals(whole)).toBe(true);
  });

  it('two PUTs of one part at the same time: one is written in place, the other beside it; the last to finish is the part', async () => {
    const parts = [randomBytes(PART), randomBytes(PART)];
    const other = randomBytes(PART);
    const { key, id } = await start('h', parts);
    const [a, b] = await Promise.all([put(id, 1, parts[0]!), put(id, 1, other)]);
    const e2 = await put(id, 2, parts[1]!);
    const listed = (await storage.listParts(key, id)).find((p) => p.partNumber === 1)!.etag;
    expect([a, b]).toContain(listed);
    const kept = listed === a ? parts[0]! : other;
    const whole = Buffer.concat([kept, parts[1]!]);
    expect(await complete(key, id, [listed, e2])).toEqual({ size: whole.length, md5: md5(whole) });
    expect(readFileSync(storage.objectPath(key)).equals(whole)).toBe(true);
  });

  it('a PUT that fails half way leaves no part, and the part is written in place when sent again', async () => {
    const parts = [randomBytes(PART), randomBytes(PART)];
    const { key, id, dir } = await start('i', parts);
    await expect(storage.receivePart(id, 1, broken(parts[0]!.subarray(0, PART / 2)), PART)).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    expect(await storage.listParts(key, id)).toEqual([]);
    const etags = [await put(id, 1, parts[0]!), await put(id, 2, parts[1]!)];
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
    const ino = statSync(path.join(dir, 'data')).ino;
    const whole = Buffer.concat(parts);
    expect(await complete(key, id, etags)).toEqual({ size: whole.length, md5: md5(whole) });
    expect(statSync(storage.objectPath(key)).ino).toBe(ino);
  });

  it('a part larger than its size is refused without touching the next part; a short part is kept at its size', async () => {
    const parts = [randomBytes(PART), randomBytes(PART)];
    const { key, id, dir } = await start('j', parts);
    const e2 = await put(id, 2, parts[1]!);
    await expect(storage.receivePart(id, 1, Readable.from([randomBytes(PART + 1)]), 2 * PART)).rejects.toMatchObject({
      code: 'EntityTooLarge',
    });
    expect(readFileSync(path.join(dir, 'data')).subarray(PART).equals(parts[1]!)).toBe(true);
    const short = randomBytes(1000);
    const e1 = await put(id, 1, short);
    expect((await storage.listParts(key, id)).map((p) => [p.partNumber, p.size])).toEqual([
      [1, 1000],
      [2, PART],
    ]);
    // Completed at the storage level as listed: the short part, then part 2.
    const whole = Buffer.concat([short, parts[1]!]);
    expect(await complete(key, id, [e1, e2])).toEqual({ size: whole.length, md5: md5(whole) });
    expect(readFileSync(storage.objectPath(key)).equals(whole)).toBe(true);
  });

  it('a PUT to an aborted upload is refused as NoSuchUpload', async () => {
    const parts = [randomBytes(PART)];
    const { key, id } = await start('k', parts);
    await put(id, 1, parts[0]!);
    await storage.abortMultipart(key, id);
    await expect(put(id, 1, parts[0]!)).rejects.toMatchObject({ code: 'NoSuchUpload' });
  });
});

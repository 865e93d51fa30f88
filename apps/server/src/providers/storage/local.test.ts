/**
 * Local multipart completion (local.ts, assembler.ts): the object and its MD5 are those of the
 * listed parts in order, whether the assembler thread put them together as they arrived or
 * completion had to concatenate them (a part re-sent with other bytes after it was assembled).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/**
 * `local` storage (product §11, embedded default): objects under `<root>/objects/<key>`, multipart
 * uploads under `<root>/multipart/<upload id>/`, and S3-style presigned URLs served by the app itself
 * (`/files/...`, see plugins/files.ts), signed with HMAC-SHA256 and expiring.
 *
 * Bodies are streamed: a part PUT goes through an MD5 + byte-count transform straight to a temp
 * file (never a whole file in memory) and answers the part's MD5 as its ETag, as S3 does. Each stored
 * part is announced to the assembler thread (./assembler.ts), which appends the parts in order to
 * a file of the upload's (`assembled-*`) and hashes them as they arrive; completion then renames that file
 * into place with its MD5. When the assembler does not hold exactly the listed parts (a part re-sent
 * with other bytes, another instance, a restart), completion concatenates the parts by streaming and
 * computes the object's size and MD5 on the way, as before.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../lib/clock';
import { announcePart, dropAssembly, finishAssembly } from './assembler';
import { sealedKey, StorageError, type PresignedPut, type StorageProvider, type StoredPart } from './types';

/** Object keys are `/`-separated segments of safe characters; nothing else reaches the file system. */
const KEY_RE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;
const UPLOAD_ID_RE = /^[0-9a-f-]{36}$/;

export function isValidKey(key: string): boolean {
  return key.length <= 512 && KEY_RE.test(key) && !key.split('/').includes('..');
}

/** Counts bytes and hashes them as they pass; fails with EntityTooLarge beyond `maxBytes`. */
export class HashCounter extends Transform {
  readonly hash = createHash('md5');
  bytes = 0;
  constructor(private readonly maxBytes = Number.MAX_SAFE_INTEGER) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      cb(new StorageError('EntityTooLarge', `The body is larger than the ${this.maxBytes} bytes this URL allows`));
      return;
    }
    this.hash.update(chunk);
    cb(null, chunk);
  }
}

/** What a verified presigned URL allows. */
export interface SignedGrant {
  method: 'PUT' | 'GET';
  pathname: string;
  params: Record<string, string>;
}

export interface LocalStorageOptions {
  /** `$DATA_DIR/files` */
  root: string;
  /** Public origin the URLs start with, e.g. `http://127.0.0.1:8080`. */
  publicUrl: string;
  /** HMAC secret (>= 32 bytes). */
  secret: string;
  clock: Clock;
}

export class LocalStorage implements StorageProvider {
  readonly kind = 'local' as const;
  private readonly objects: string;
  private readonly multipart: string;
  private readonly tmp: string;
  private ready: Promise<void> | null = null;

  constructor(private readonly opts: LocalStorageOptions) {
    this.objects = path.join(opts.root, 'objects');
    this.multipart = path.join(opts.root, 'multipart');
    this.tmp = path.join(opts.root, 'tmp');
  }

  private ensureDirs(): Promise<void> {
    this.ready ??= Promise.all([
      mkdir(this.objects, { recursive: true }),
      mkdir(this.multipart, { recursive: true }),
      mkdir(this.tmp, { recursive: true }),
    ]).then(() => undefined);
    return this.ready;
  }

  // -------------------------------------------------------------------------------------------
  // Signing

  private canonical(method: string, pathname: string, params: Record<string, string>): string {
    const query = Object.keys(params)
      .filter((k) => k !== 'sig')
      .sort()
      .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k] ?? '')}`)
      .join('&');
    return `${method}\n${pathname}\n${query}`;
  }

  private signature(method: string, pathname: string, params: Record<string, string>): string {
    return createHmac('sha256', this.opts.secret)
      .update(this.canonical(method, pathname, params))
      .digest('base64url');
  }

  private signedUrl(method: 'PUT' | 'GET', pathname: string, params: Record<string, string>, expiresInSec: number): PresignedPut {
    const expiresAt = this.opts.clock.now() + expiresInSec * 1000;
    const all = { ...params, exp: String(expiresAt) };
    const sig = this.signature(method, pathname, all);
    const query = new URLSearchParams({ ...all, sig }).toString();
    return { url: `${this.opts.publicUrl}${pathname}?${query}`, expiresAt };
  }

  /**
   * Checks a presigned URL's signature and expiry.
   * @returns the signed parameters, or null when the URL was tampered with, signed for another
   * method or path, or has expired
   */
  verify(method: string, pathname: string, query: Record<string, unknown>): Record<string, string> | null {
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(query)) {
      if (typeof v !== 'string') return null;
      params[k] = v;
    }
    const sig = params.sig;
    if (!sig || !params.exp || !/^\d{1,15}$/.test(params.exp)) return null;
    const expected = Buffer.from(this.signature(method, pathname, params));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    if (Number(params.exp) < this.opts.clock.now()) return null;
    return params;
  }

  // -------------------------------------------------------------------------------------------
  // Paths

  /** Absolute path of an object. @throws StorageError NoSuchKey on an invalid key */
  objectPath(key: string): string {
    if (!isValidKey(key)) throw new StorageError('NoSuchKey', 'Invalid object key');
    return path.join(this.objects, ...key.split('/'));
  }

  /** Directory holding the objects (for ranged file sends). */
  get objectsRoot(): string {
    return this.objects;
  }

  private uploadDir(uploadId: string): string {
    if (!UPLOAD_ID_RE.test(uploadId)) throw new StorageError('NoSuchUpload', 'Invalid upload id');
    return path.join(this.multipart, uploadId);
  }

  /** Streams `body` to a temp file (hashing and counting), then renames it to `dest`. @returns quoted MD5 ETag and size */
  private async writeStream(
    body: Readable,
    dest: string,
    maxBytes: number,
    createDir = true,
  ): Promise<{ etag: string; size: number; md5: string; ino: number; mtimeNs: string }> {
    await this.ensureDirs();
    const tmpFile = path.join(this.tmp, randomUUID());
    const counter = new HashCounter(maxBytes);
    let ino = 0;
    let mtimeNs = '';
    try {
      await pipeline(body, counter, createWriteStream(tmpFile, { highWaterMark: 1024 * 1024 }));
      // The file's identity (kept by the rename): the assembler takes this version of a part only.
      const st = await stat(tmpFile, { bigint: true });
      ino = Number(st.ino);
      mtimeNs = String(st.mtimeNs);
      if (createDir) await mkdir(path.dirname(dest), { recursive: true });
      await rename(tmpFile, dest);
    } catch (err) {
      await unlink(tmpFile).catch(() => undefined);
      // A part whose upload was completed or aborted meanwhile: its directory is gone.
      if (!createDir && (err as { code?: string }).code === 'ENOENT')
        throw new StorageError('NoSuchUpload', 'The upload does not exist or was completed');
      throw err;
    }
    const md5 = counter.hash.digest('hex');
    return { etag: `"${md5}"`, size: counter.bytes, md5, ino, mtimeNs };
  }

  // -------------------------------------------------------------------------------------------
  // Handlers behind the /files routes

  /** Receives a presigned object PUT. @returns the quoted MD5 ETag */
  async receiveObject(key: string, body: Readable, maxBytes: number): Promise<string> {
    // A sealed key's object has moved away; the check is for the caller's 403 (a racing PUT writes where nothing reads).
    if (await this.isSealed(key)) throw new StorageError('Sealed', 'This file was verified and can no longer be changed');
    const { etag } = await this.writeStream(body, this.objectPath(key), maxBytes);
    return etag;
  }

  /** Receives a presigned part PUT (a re-sent part replaces the earlier one). @returns the quoted MD5 ETag */
  async receivePart(uploadId: string, partNumber: number, body: Readable, maxBytes: number): Promise<string> {
    const dir = this.uploadDir(uploadId);
    const meta = await stat(path.join(dir, 'meta.json')).catch(() => null);
    if (!meta) throw new StorageError('NoSuchUpload', 'The upload does not exist or was completed');
    const { etag, size, ino, mtimeNs } = await this.writeStream(body, path.join(dir, `${partNumber}.part`), maxBytes, false);
    // The part's ETag and size, written atomically beside it.
    const sidecar = path.join(dir, `${partNumber}.json`);
    const tmpSidecar = path.join(this.tmp, randomUUID());
    await writeFile(tmpSidecar, JSON.stringify({ etag, size }));
    await rename(tmpSidecar, sidecar).catch(async (err: { code?: string }) => {
      await unlink(tmpSidecar).catch(() => undefined);
      if (err.code === 'ENOENT') throw new StorageError('NoSuchUpload', 'The upload does not exist or was completed');
      throw err;
    });
    announcePart(dir, { partNumber, etag, size, ino, mtimeNs });
    return etag;
  }

  // -------------------------------------------------------------------------------------------
  // StorageProvider

  async presignPut(key: string, opts: { contentType?: string; maxBytes: number; expiresInSec: number }): Promise<PresignedPut> {
    if (!isValidKey(key)) throw new StorageError('NoSuchKey', 'Invalid object key');
    const params: Record<string, string> = { max: String(opts.maxBytes) };
    if (opts.contentType) params.ct = opts.contentType;
    return this.signedUrl('PUT', `/files/o/${key}`, params, opts.expiresInSec);
  }

  async createMultipart(key: string): Promise<string> {
    if (!isValidKey(key)) throw new StorageError('NoSuchKey', 'Invalid object key');
    await this.ensureDirs();
    const uploadId = randomUUID();
    const dir = this.uploadDir(uploadId);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'meta.json'), JSON.stringify({ key }));
    return uploadId;
  }

  async presignPart(
    _key: string,
    uploadId: string,
    partNumber: number,
    opts: { maxBytes: number; expiresInSec: number },
  ): Promise<PresignedPut> {
    this.uploadDir(uploadId);
    return this.signedUrl('PUT', `/files/p/${uploadId}/${partNumber}`, { max: String(opts.maxBytes) }, opts.expiresInSec);
  }

  async listParts(_key: string, uploadId: string): Promise<StoredPart[]> {
    const dir = this.uploadDir(uploadId);
    const names = await readdir(dir).catch(() => null);
    if (!names) throw new StorageError('NoSuchUpload', 'The upload does not exist');
    const parts: StoredPart[] = [];
    for (const name of names) {
      const m = /^(\d+)\.json$/.exec(name);
      if (!m) continue;
      const info = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as { etag: string; size: number };
      parts.push({ partNumber: Number(m[1]), etag: info.etag, size: info.size });
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(
    key: string,
    uploadId: string,
    parts: { partNumber: number; etag: string }[],
  ): Promise<{ size: number; md5: string }> {
    const dir = this.uploadDir(uploadId);
    const stored = new Map((await this.listParts(key, uploadId)).map((p) => [p.partNumber, p]));
    for (const p of parts) {
      const s = stored.get(p.partNumber);
      if (!s) throw new StorageError('InvalidPart', `Part ${p.partNumber} has not been uploaded`);
      if (normalizeEtag(s.etag) !== normalizeEtag(p.etag)) {
        throw new StorageError('InvalidPart', `The ETag of part ${p.partNumber} does not match the uploaded part`);
      }
    }
    const dest = this.objectPath(key);
    // Fast path: the assembler holds exactly the listed parts, in order, already appended and hashed.
    const assembled = await finishAssembly(dir);
    if (
      assembled &&
      assembled.parts.length === parts.length &&
      assembled.parts.every(
        (a, i) => a.partNumber === parts[i]!.partNumber && normalizeEtag(a.etag) === normalizeEtag(parts[i]!.etag),
      )
    ) {
      await mkdir(path.dirname(dest), { recursive: true });
      await rename(assembled.file, dest);
      await rm(dir, { recursive: true, force: true });
      return { size: assembled.size, md5: assembled.md5 };
    }
    const files = parts.map((p) => path.join(dir, `${p.partNumber}.part`));
    const tmpFile = path.join(this.tmp, randomUUID());
    const counter = new HashCounter();
    async function* concat() {
      for (const f of files) yield* createReadStream(f, { highWaterMark: 1024 * 1024 });
    }
    try {
      await pipeline(Readable.from(concat()), counter, createWriteStream(tmpFile, { highWaterMark: 1024 * 1024 }));
      await mkdir(path.dirname(dest), { recursive: true });
      await rename(tmpFile, dest);
    } catch (err) {
      await unlink(tmpFile).catch(() => undefined);
      throw err;
    }
    await rm(dir, { recursive: true, force: true });
    return { size: counter.bytes, md5: counter.hash.digest('hex') };
  }

  async abortMultipart(_key: string, uploadId: string): Promise<void> {
    const dir = this.uploadDir(uploadId);
    dropAssembly(dir);
    await rm(dir, { recursive: true, force: true });
  }

  async head(key: string): Promise<{ size: number } | null> {
    const s = await stat(this.objectPath(key)).catch(() => null);
    return s?.isFile() ? { size: s.size } : null;
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.objectPath(key);
    const s = await stat(file).catch(() => null);
    if (!s?.isFile()) throw new StorageError('NoSuchKey', 'The object does not exist');
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async presignGet(key: string, opts: { fileName: string; contentType: string; expiresInSec: number }): Promise<PresignedPut> {
    if (!isValidKey(key)) throw new StorageError('NoSuchKey', 'Invalid object key');
    return this.signedUrl('GET', `/files/o/${key}`, { fn: opts.fileName, ct: opts.contentType }, opts.expiresInSec);
  }

  async delete(key: string): Promise<void> {
    await rm(this.objectPath(key), { force: true });
  }

  /** {@link StorageProvider.seal}: an atomic rename to `sealed/<key>` on the same disk. */
  async seal(key: string): Promise<string> {
    const target = sealedKey(key);
    if (target === key) return key;
    const dest = this.objectPath(target);
    await mkdir(path.dirname(dest), { recursive: true });
    try {
      await rename(this.objectPath(key), dest);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOENT') throw err;
      if (!(await this.head(target))) throw new StorageError('NoSuchKey', 'The object does not exist');
    }
    return target;
  }

  async putObject(key: string, body: Buffer): Promise<void> {
    await this.writeStream(Readable.from([body]), this.objectPath(key), body.length);
  }

  /** True once `key` was sealed: a PUT to it is refused (403). */
  async isSealed(key: string): Promise<boolean> {
    return !!(await this.head(sealedKey(key)));
  }
}

/** `"abc"`, `abc` and `W/"abc"` compare equal. */
export function normalizeEtag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/"/g, '').trim().toLowerCase();
}

/**
 * `local` storage (product §11, embedded default): objects under `<root>/objects/<key>`, multipart
 * uploads under `<root>/multipart/<upload id>/`, and S3-style presigned URLs served by the app itself
 * (`/files/...`, see modules/uploads/files.routes.ts), signed with HMAC-SHA256 and expiring.
 *
 * Bodies are streamed (never a whole file in memory), hashed (MD5) and counted on the way, and a
 * part PUT answers the part's MD5 as its ETag, as S3 does.
 *
 * Multipart layout (docs/decisions/0034-upload-hot-path.md). An upload started with its size and
 * part size gets one file, `data`, of the declared size; the first PUT of part n claims the part
 * (`<n>.placed`, created exclusively) and writes its body straight at offset (n - 1) * part size.
 * A PUT of a part already claimed (a re-send, or a duplicate running at the same time) goes to a
 * file of its own, `<n>.part`, as every part did before: bytes written in place are never
 * overwritten, and a claim whose PUT fails is released (its bytes were never listed). `<n>.json`
 * holds the ETag and size of the part's latest stored version and where it is (`at: "data"` or its
 * own file); the last PUT to finish wins, so a re-sent part replaces the earlier one.
 *
 * Each part written in place is announced to the assembler thread (./assembler.ts), which hashes
 * `data` in part order as the parts arrive. Completion then renames `data` into place with that
 * MD5 when the thread holds exactly the listed parts, all of them, each of its full size. Otherwise
 * (a part re-sent with other bytes, parts received by another instance, a restart, an upload
 * started without a layout) it concatenates the listed versions into a new file, computing the
 * object's size and MD5 on the way.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../lib/clock';
import { announcePart, dropAssembly, finishAssembly } from './assembler';
import { sealedKey, StorageError, type PresignedPut, type StorageProvider, type StoredPart } from './types';

/** Object keys are `/`-separated segments of safe characters; nothing else reaches the file system. */
const KEY_RE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;
const UPLOAD_ID_RE = /^[0-9a-f-]{36}$/;
/** Buffered bytes of a file write stream before it stops taking chunks (fewer, larger writes). */
const WRITE_HWM = 1024 * 1024;
/** A multipart upload's file, its parts written in place (see the header). */
const DATA_FILE = 'data';

/** `<upload dir>/meta.json`. `size` and `partSize` (bytes) are set when the parts are written in place. */
interface UploadMeta {
  key: string;
  size?: number;
  partSize?: number;
}

/** `<upload dir>/<n>.json`: the part's latest version; `at: "data"` when it was written in place. */
interface PartInfo {
  etag: string;
  size: number;
  at?: 'data';
}

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

/**
 * Hashes (MD5), counts and writes a body at `start` (bytes) of an open file, in batches of the chunks
 * that arrive while a write runs (one `writev` each); fails with EntityTooLarge, writing none of the
 * batch, when the body would pass `maxBytes`. It never closes the file.
 */
export class PositionedHashSink extends Writable {
  readonly hash = createHash('md5');
  /** Bytes taken so far. */
  bytes = 0;
  private position: number;
  private io: Promise<void> = Promise.resolve();

  constructor(
    private readonly handle: FileHandle,
    start: number,
    private readonly maxBytes: number,
  ) {
    super({ highWaterMark: WRITE_HWM });
    this.position = start;
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.take([chunk], cb);
  }

  override _writev(chunks: { chunk: Buffer }[], cb: (err?: Error | null) => void): void {
    this.take(
      chunks.map((c) => c.chunk),
      cb,
    );
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    void this.settled().then(() => cb(err));
  }

  /** Resolves once no write is running (after an error too). */
  settled(): Promise<void> {
    return this.io.catch(() => undefined);
  }

  private take(buffers: Buffer[], cb: (err?: Error | null) => void): void {
    let size = 0;
    for (const b of buffers) size += b.length;
    if (this.bytes + size > this.maxBytes) {
      cb(new StorageError('EntityTooLarge', `The body is larger than the ${this.maxBytes} bytes this URL allows`));
      return;
    }
    for (const b of buffers) this.hash.update(b);
    this.bytes += size;
    const position = this.position;
    this.position += size;
    this.io = writevAll(this.handle, buffers, size, position);
    this.io.then(() => cb(), cb);
  }
}

/** Writes all of `buffers` (`size` bytes in total) at `position`, again after a short write. */
async function writevAll(handle: FileHandle, buffers: Buffer[], size: number, position: number): Promise<void> {
  let done = (await handle.writev(buffers, position)).bytesWritten;
  while (done < size) {
    const rest = Buffer.concat(buffers).subarray(done);
    const { bytesWritten } = await handle.write(rest, 0, rest.length, position + done);
    if (bytesWritten <= 0) throw new Error('The file took no more bytes');
    done += bytesWritten;
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
  ): Promise<{ etag: string; size: number }> {
    await this.ensureDirs();
    const tmpFile = path.join(this.tmp, randomUUID());
    const counter = new HashCounter(maxBytes);
    try {
      await pipeline(body, counter, createWriteStream(tmpFile, { highWaterMark: WRITE_HWM }));
      if (createDir) await mkdir(path.dirname(dest), { recursive: true });
      await rename(tmpFile, dest);
    } catch (err) {
      await unlink(tmpFile).catch(() => undefined);
      // A part whose upload was completed or aborted meanwhile: its directory is gone.
      if (!createDir && (err as { code?: string }).code === 'ENOENT')
        throw new StorageError('NoSuchUpload', 'The upload does not exist or was completed');
      throw err;
    }
    return { etag: `"${counter.hash.digest('hex')}"`, size: counter.bytes };
  }

  /** The upload's meta.json. @throws StorageError NoSuchUpload when the upload is gone (completed or aborted) */
  private async meta(dir: string): Promise<UploadMeta> {
    const text = await readFile(path.join(dir, 'meta.json'), 'utf8').catch(() => null);
    if (text === null) throw new StorageError('NoSuchUpload', 'The upload does not exist or was completed');
    return JSON.parse(text) as UploadMeta;
  }

  /**
   * Claims part `partNumber` of the upload in `dir` for a write in place (`<n>.placed`, created
   * exclusively). @returns false when the part was claimed before (a write in place ran or runs)
   * @throws StorageError NoSuchUpload when the upload is gone
   */
  private async claimInPlace(dir: string, partNumber: number): Promise<boolean> {
    try {
      await writeFile(path.join(dir, `${partNumber}.placed`), '', { flag: 'wx' });
      return true;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'EEXIST') return false;
      if (code === 'ENOENT') throw new StorageError('NoSuchUpload', 'The upload does not exist or was completed');
      throw err;
    }
  }

  /**
   * Streams a part's body into the upload's `data` file at `offset` (bytes), at most `maxBytes`
   * bytes, hashing and counting it. The file is closed (no write pending) when this settles.
   * @returns quoted MD5 ETag and size @throws StorageError NoSuchUpload when `data` is gone, EntityTooLarge
   */
  private async writeInPlace(
    body: Readable,
    file: string,
    offset: number,
    maxBytes: number,
  ): Promise<{ etag: string; size: number }> {
    let handle: FileHandle;
    try {
      handle = await open(file, 'r+');
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT')
        throw new StorageError('NoSuchUpload', 'The upload does not exist or was completed');
      throw err;
    }
    const sink = new PositionedHashSink(handle, offset, maxBytes);
    try {
      await pipeline(body, sink);
    } finally {
      // On an error the pipeline settles while a write may still run: none may follow this.
      await sink.settled();
      await handle.close();
    }
    return { etag: `"${sink.hash.digest('hex')}"`, size: sink.bytes };
  }

  /** Writes `<n>.json` (the part's latest version) atomically. @throws StorageError NoSuchUpload when the upload is gone */
  private async writeSidecar(dir: string, partNumber: number, info: PartInfo): Promise<void> {
    const tmpSidecar = path.join(this.tmp, randomUUID());
    await writeFile(tmpSidecar, JSON.stringify(info));
    await rename(tmpSidecar, path.join(dir, `${partNumber}.json`)).catch(async (err: { code?: string }) => {
      await unlink(tmpSidecar).catch(() => undefined);
      if (err.code === 'ENOENT') throw new StorageError('NoSuchUpload', 'The upload does not exist or was completed');
      throw err;
    });
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

  /**
   * Receives a presigned part PUT of at most `maxBytes` bytes. The first PUT of a part of an upload
   * with a layout writes it in place in `data` and announces it to the assembler; any later PUT of
   * that part (a re-send) is kept in a file of its own. Either way the part's latest version
   * replaces the earlier one.
   * @returns the quoted MD5 ETag of the body
   * @throws StorageError NoSuchUpload when the upload is gone (completed or aborted), EntityTooLarge
   * beyond `maxBytes` or beyond the part's size
   */
  async receivePart(uploadId: string, partNumber: number, body: Readable, maxBytes: number): Promise<string> {
    const dir = this.uploadDir(uploadId);
    const meta = await this.meta(dir);
    const layout = meta.partSize && meta.size !== undefined ? { partSize: meta.partSize, size: meta.size } : null;
    const offset = layout ? (partNumber - 1) * layout.partSize : 0;
    if (layout && partNumber >= 1 && offset < layout.size && (await this.claimInPlace(dir, partNumber))) {
      const file = path.join(dir, DATA_FILE);
      let stored: { etag: string; size: number };
      try {
        stored = await this.writeInPlace(body, file, offset, Math.min(maxBytes, layout.size - offset, layout.partSize));
        await this.writeSidecar(dir, partNumber, { ...stored, at: 'data' });
      } catch (err) {
        // Nothing listed points at these bytes: the next PUT of this part may write in place again.
        await unlink(path.join(dir, `${partNumber}.placed`)).catch(() => undefined);
        throw err;
      }
      announcePart(dir, file, layout.partSize, { partNumber, ...stored });
      return stored.etag;
    }
    const stored = await this.writeStream(body, path.join(dir, `${partNumber}.part`), maxBytes, false);
    await this.writeSidecar(dir, partNumber, stored);
    return stored.etag;
  }

  // -------------------------------------------------------------------------------------------
  // StorageProvider

  async presignPut(key: string, opts: { contentType?: string; maxBytes: number; expiresInSec: number }): Promise<PresignedPut> {
    if (!isValidKey(key)) throw new StorageError('NoSuchKey', 'Invalid object key');
    const params: Record<string, string> = { max: String(opts.maxBytes) };
    if (opts.contentType) params.ct = opts.contentType;
    return this.signedUrl('PUT', `/files/o/${key}`, params, opts.expiresInSec);
  }

  /**
   * {@link StorageProvider.createMultipart}. With `opts.size` and `opts.partSize` (bytes) the upload
   * gets its `data` file of `size` bytes (sparse), and parts are written in place.
   */
  async createMultipart(key: string, opts?: { contentType?: string; size?: number; partSize?: number }): Promise<string> {
    if (!isValidKey(key)) throw new StorageError('NoSuchKey', 'Invalid object key');
    await this.ensureDirs();
    const uploadId = randomUUID();
    const dir = this.uploadDir(uploadId);
    await mkdir(dir, { recursive: true });
    const meta: UploadMeta = { key };
    if (opts?.size !== undefined && opts.partSize && opts.partSize > 0) {
      meta.size = opts.size;
      meta.partSize = opts.partSize;
      const data = await open(path.join(dir, DATA_FILE), 'wx');
      try {
        await data.truncate(opts.size);
      } finally {
        await data.close();
      }
    }
    await writeFile(path.join(dir, 'meta.json'), JSON.stringify(meta));
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
    return (await this.storedParts(this.uploadDir(uploadId))).map(({ partNumber, etag, size }) => ({ partNumber, etag, size }));
  }

  /** The latest stored version of each part, by part number, with where it is. @throws StorageError NoSuchUpload */
  private async storedParts(dir: string): Promise<(StoredPart & { at?: 'data' })[]> {
    const names = await readdir(dir).catch(() => null);
    if (!names) throw new StorageError('NoSuchUpload', 'The upload does not exist');
    const parts: (StoredPart & { at?: 'data' })[] = [];
    for (const name of names) {
      const m = /^(\d+)\.json$/.exec(name);
      if (!m) continue;
      const info = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as PartInfo;
      parts.push({ partNumber: Number(m[1]), etag: info.etag, size: info.size, at: info.at });
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  /**
   * {@link StorageProvider.completeMultipart}. Renames `data` into place with the assembler's MD5
   * when the assembler holds exactly the listed parts with their ETags, and these are all the
   * upload's parts, each of its full size; otherwise concatenates the listed versions into a new
   * file. @returns the object's size (bytes) and MD5 hex
   * @throws StorageError InvalidPart when a listed part is missing or its ETag differs, NoSuchUpload
   */
  async completeMultipart(
    key: string,
    uploadId: string,
    parts: { partNumber: number; etag: string }[],
  ): Promise<{ size: number; md5: string }> {
    const dir = this.uploadDir(uploadId);
    const meta = await this.meta(dir);
    const stored = new Map((await this.storedParts(dir)).map((p) => [p.partNumber, p]));
    for (const p of parts) {
      const s = stored.get(p.partNumber);
      if (!s) throw new StorageError('InvalidPart', `Part ${p.partNumber} has not been uploaded`);
      if (normalizeEtag(s.etag) !== normalizeEtag(p.etag)) {
        throw new StorageError('InvalidPart', `The ETag of part ${p.partNumber} does not match the uploaded part`);
      }
    }
    const dest = this.objectPath(key);
    // Fast path: the assembler hashed every part of `data`, each the version listed. Each of them
    // holds its claim for good, so nothing writes to `data` any more once it is handed over.
    const assembled = await finishAssembly(dir);
    if (
      assembled &&
      meta.partSize &&
      meta.size !== undefined &&
      assembled.size === meta.size &&
      assembled.parts.length === parts.length &&
      parts.length === Math.ceil(meta.size / meta.partSize) &&
      assembled.parts.every(
        (a, i) =>
          a.partNumber === i + 1 &&
          parts[i]!.partNumber === i + 1 &&
          a.size === Math.min(meta.partSize!, meta.size! - i * meta.partSize!) &&
          normalizeEtag(a.etag) === normalizeEtag(parts[i]!.etag),
      ) &&
      (await stat(assembled.file).catch(() => null))?.size === meta.size
    ) {
      await mkdir(path.dirname(dest), { recursive: true });
      await rename(assembled.file, dest);
      await rm(dir, { recursive: true, force: true });
      return { size: assembled.size, md5: assembled.md5 };
    }
    const sources = parts.map((p) => {
      const s = stored.get(p.partNumber)!;
      if (s.at === 'data' && meta.partSize) {
        const start = (p.partNumber - 1) * meta.partSize;
        return { file: path.join(dir, DATA_FILE), start, end: start + s.size - 1, size: s.size };
      }
      return { file: path.join(dir, `${p.partNumber}.part`), start: 0, end: Infinity, size: s.size };
    });
    const tmpFile = path.join(this.tmp, randomUUID());
    const counter = new HashCounter();
    async function* concat() {
      for (const f of sources) {
        if (f.size === 0) continue;
        yield* createReadStream(f.file, { start: f.start, end: f.end, highWaterMark: 1024 * 1024 });
      }
    }
    try {
      await pipeline(Readable.from(concat()), counter, createWriteStream(tmpFile, { highWaterMark: WRITE_HWM }));
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

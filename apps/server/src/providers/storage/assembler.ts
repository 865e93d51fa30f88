/**
 * Hashes local multipart uploads while their parts arrive (docs/uploads.md, "Completion"), so that
 * `complete/upload` has neither the parts to copy nor the whole file's MD5 to compute.
 *
 * Local storage writes each part of an upload with a fixed part size straight at its final offset
 * in one file of the upload's (`data`, see local.ts), the first time that part arrives. One worker
 * thread per process (started on first use, never keeping the process alive) holds, per upload, a
 * running MD5 and the next part number it needs. Each part written in place is announced (number,
 * ETag, size); the thread takes the parts in order as soon as the next one is announced: it reads
 * the part's bytes back from `data` (just written, so from the page cache) and feeds the MD5 — on
 * the other core, off the event loop that hashes the incoming part bodies for their ETags. Nothing
 * is copied: the file the parts were written to is the file that becomes the object.
 *
 * A region of `data` is written in place once only (local.ts keeps a claim per part), and it is
 * announced after its writer closed the file: the bytes hashed cannot change afterwards, so the MD5
 * the fast path answers is that of the bytes kept. The thread stops after a part shorter than the
 * part size (only the last part may be); completion checks that it holds exactly the listed parts
 * with their ETags and sizes, and falls back to concatenating the parts otherwise (a part re-sent
 * with other bytes, parts received by another instance, a restart).
 */
import { Worker } from 'node:worker_threads';

/** A part written in place and announced. */
export interface AnnouncedPart {
  partNumber: number;
  /** Quoted MD5 of the part, as its PUT answered. */
  etag: string;
  /** Bytes written, at offset (partNumber - 1) * partSize of the upload's file. */
  size: number;
}

/** What the thread hashed for an upload: parts 1..k of `file`, in order. */
export interface Assembled {
  /** The upload's file the parts were written to (local.ts's `data`). */
  file: string;
  parts: { partNumber: number; etag: string; size: number }[];
  /** Bytes hashed: the sum of the parts' sizes. */
  size: number;
  /** MD5 hex of those bytes, in part order. */
  md5: string;
}

/** At most this many uploads are hashed at once; announcing another drops the least recent one. */
export const MAX_ASSEMBLING = 64;

// The worker's code (CommonJS, evaluated): synchronous positioned reads of up to 4 MiB, one Hash per upload.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
const MAX = ${MAX_ASSEMBLING};
const CHUNK = 4 * 1024 * 1024;
const buf = Buffer.allocUnsafe(CHUNK);
const uploads = new Map();
// Below the event loop that receives the parts: the hashing catches up whenever that thread waits.
// Linux only: there a priority belongs to the calling thread; elsewhere it would be the whole process's.
if (process.platform === 'linux') {
  try { require('node:os').setPriority(0, 10); } catch {}
}

function drop(dir) {
  const u = uploads.get(dir);
  if (!u) return;
  uploads.delete(dir);
  try { fs.closeSync(u.fd); } catch {}
}

function advance(dir, u) {
  while (!u.ended) {
    const want = u.pending.get(u.next);
    if (!want) return;
    try {
      let pos = (u.next - 1) * u.partSize;
      let left = want.size;
      while (left > 0) {
        const n = fs.readSync(u.fd, buf, 0, Math.min(CHUNK, left), pos);
        if (n <= 0) throw new Error('the file ended early');
        u.hash.update(buf.subarray(0, n));
        pos += n;
        left -= n;
      }
    } catch (err) {
      // The hash no longer follows the parts: give up on this upload (completion falls back).
      drop(dir);
      return;
    }
    u.pending.delete(u.next);
    u.parts.push({ partNumber: u.next, etag: want.etag, size: want.size });
    u.size += want.size;
    // After a short part the next one is not contiguous with it: only the last part may be short.
    if (want.size !== u.partSize) u.ended = true;
    u.next++;
  }
}

parentPort.on('message', (m) => {
  if (m.type === 'part') {
    let u = uploads.get(m.dir);
    if (!u) {
      while (uploads.size >= MAX) drop(uploads.keys().next().value);
      let fd;
      try {
        fd = fs.openSync(m.file, 'r');
      } catch {
        return;
      }
      u = { fd, file: m.file, partSize: m.partSize, hash: createHash('md5'), next: 1, size: 0, parts: [], pending: new Map(), ended: false };
    } else {
      uploads.delete(m.dir);
    }
    uploads.set(m.dir, u);
    if (m.part.partNumber >= u.next) u.pending.set(m.part.partNumber, m.part);
    advance(m.dir, u);
  } else if (m.type === 'finish') {
    const u = uploads.get(m.dir);
    let result = null;
    if (u) {
      advance(m.dir, u);
      if (uploads.get(m.dir) === u) {
        result = { file: u.file, parts: u.parts, size: u.size, md5: u.hash.digest('hex') };
        drop(m.dir);
      }
    }
    parentPort.postMessage({ id: m.id, result });
  } else if (m.type === 'drop') {
    drop(m.dir);
  }
});
`;

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, (result: Assembled | null) => void>();

function thread(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_SOURCE, { eval: true });
  w.unref();
  w.on('message', (m: { id: number; result: Assembled | null }) => {
    waiting.get(m.id)?.(m.result);
    waiting.delete(m.id);
  });
  const dead = () => {
    if (worker !== w) return;
    worker = null;
    // Whatever was being assembled is lost: every completion waiting falls back.
    for (const resolve of waiting.values()) resolve(null);
    waiting.clear();
  };
  w.on('error', dead);
  w.on('exit', dead);
  worker = w;
  return w;
}

/**
 * Announces a part of the upload in `dir` written in place: `part.size` bytes at offset
 * `(part.partNumber - 1) * partSize` (bytes) of `file`, whose writer has closed it and which no one
 * writes at that offset again.
 */
export function announcePart(dir: string, file: string, partSize: number, part: AnnouncedPart): void {
  thread().postMessage({ type: 'part', dir, file, partSize, part });
}

/**
 * Takes what was hashed for the upload in `dir` (after the parts announced so far that could be
 * taken in order) and forgets the upload. The caller checks the parts against the listed ones.
 * @returns null when nothing was hashed here (no part announced, another instance, a restart)
 */
export function finishAssembly(dir: string): Promise<Assembled | null> {
  if (!worker) return Promise.resolve(null);
  const w = worker;
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    w.ref();
    w.postMessage({ type: 'finish', dir, id });
  }).finally(() => {
    if (!waiting.size) w.unref();
  }) as Promise<Assembled | null>;
}

/** Forgets the upload in `dir` (aborted); its directory is the caller's to delete. */
export function dropAssembly(dir: string): void {
  worker?.postMessage({ type: 'drop', dir });
}

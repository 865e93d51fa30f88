/**
 * Assembles local multipart uploads while their parts arrive (docs/uploads.md, "Completion"), so that
 * `complete/upload` has neither the parts to copy nor the whole file's MD5 to compute.
 *
 * One worker thread per process (started on first use, never keeping the process alive) holds, per
 * upload, an `assembled-*` file of its own in the upload's directory, a running MD5 and the next part number it
 * needs. Each part PUT announces its stored part (number, ETag, size and the file's identity: inode,
 * size, mtime). The thread takes the parts in order as soon as the next one is announced: it reads
 * the part file (just written, so from the page cache), feeds the MD5 and appends to that file —
 * on the other core, off the event loop that hashes the incoming part bodies. A part re-sent or
 * arriving on another instance is simply not taken (its identity no longer matches, or it was never
 * announced here): completion then finds the thread's parts differ from the listed ones and falls
 * back to concatenating the parts itself.
 *
 * The MD5 the fast path answers is always that of the bytes written to that file, the one that
 * becomes the object: the whole-file MD5 check stays a check of what is kept. The file is handed over by
 * {@link finishAssembly} and never written again (a part announced later starts a new file).
 */
import { Worker } from 'node:worker_threads';

/** A part as stored and announced. */
export interface AnnouncedPart {
  partNumber: number;
  /** Quoted MD5 of the part, as its PUT answered. */
  etag: string;
  size: number;
  /** The part file's inode and mtime (ns, as a string) when it was stored: a replaced file differs. */
  ino: number;
  mtimeNs: string;
}

/** What the thread assembled for an upload: parts 1..k in order, in `file`. */
export interface Assembled {
  file: string;
  parts: { partNumber: number; etag: string; size: number }[];
  size: number;
  md5: string;
}

/** At most this many uploads are assembled at once; announcing another drops the least recent one. */
export const MAX_ASSEMBLING = 64;

// The worker's code (CommonJS, evaluated): synchronous file I/O in 4 MiB reads, one Hash per upload.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const MAX = ${MAX_ASSEMBLING};
const CHUNK = 4 * 1024 * 1024;
const buf = Buffer.allocUnsafe(CHUNK);
const uploads = new Map();
let serial = 0;
// Below the event loop that receives the parts: the assembly catches up whenever that thread waits.
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
  for (;;) {
    const want = u.pending.get(u.next);
    if (!want) return;
    let fd;
    try {
      fd = fs.openSync(path.join(dir, u.next + '.part'), 'r');
    } catch {
      return;
    }
    try {
      const st = fs.fstatSync(fd, { bigint: true });
      if (Number(st.ino) !== want.ino || Number(st.size) !== want.size || String(st.mtimeNs) !== want.mtimeNs) return;
      let left = want.size;
      while (left > 0) {
        const n = fs.readSync(fd, buf, 0, Math.min(CHUNK, left), null);
        if (n <= 0) throw new Error('part file ended early');
        const chunk = buf.subarray(0, n);
        u.hash.update(chunk);
        let off = 0;
        while (off < n) off += fs.writeSync(u.fd, chunk, off, n - off);
        left -= n;
      }
    } catch (err) {
      // The assembled file no longer follows the parts: give up on this upload (completion falls back).
      drop(dir);
      return;
    } finally {
      fs.closeSync(fd);
    }
    u.pending.delete(u.next);
    u.parts.push({ partNumber: u.next, etag: want.etag, size: want.size });
    u.size += want.size;
    u.next++;
  }
}

parentPort.on('message', (m) => {
  if (m.type === 'part') {
    let u = uploads.get(m.dir);
    if (!u) {
      while (uploads.size >= MAX) drop(uploads.keys().next().value);
      // A name of its own per assembly: a late part announced after a finish never touches the file handed over.
      const file = path.join(m.dir, 'assembled-' + process.pid + '-' + ++serial);
      let fd;
      try {
        fd = fs.openSync(file, 'wx');
      } catch {
        return;
      }
      u = { fd, file, hash: createHash('md5'), next: 1, size: 0, parts: [], pending: new Map() };
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

/** Announces a stored part of the upload in `dir` (the part file `<dir>/<n>.part` is in place). */
export function announcePart(dir: string, part: AnnouncedPart): void {
  thread().postMessage({ type: 'part', dir, part });
}

/**
 * Takes what was assembled for the upload in `dir` (after the parts announced so far that could be
 * taken in order) and forgets the upload. The caller renames or deletes `file`.
 * @returns null when nothing was assembled here (no part announced, another instance, a restart)
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

/** Forgets the upload in `dir` (aborted); its directory, `assembled-*` included, is the caller's to delete. */
export function dropAssembly(dir: string): void {
  worker?.postMessage({ type: 'drop', dir });
}

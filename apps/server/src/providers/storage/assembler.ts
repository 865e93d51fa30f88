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
import type { Worker } from 'node:worker_threads';
import { startWorkerModule, workerUrl } from '../../lib/worker-module';
import type { AssemblerAnswer, AssemblerRequest } from './assembler.worker';

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

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, (result: Assembled | null) => void>();

function thread(): Worker {
  if (worker) return worker;
  const w = startWorkerModule(workerUrl('assembler.worker', import.meta.url));
  w.unref();
  w.on('message', (m: AssemblerAnswer) => {
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
  thread().postMessage({ type: 'part', dir, file, partSize, part } satisfies AssemblerRequest);
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
    w.postMessage({ type: 'finish', dir, id } satisfies AssemblerRequest);
  }).finally(() => {
    if (!waiting.size) w.unref();
  }) as Promise<Assembled | null>;
}

/** Forgets the upload in `dir` (aborted); its directory is the caller's to delete. */
export function dropAssembly(dir: string): void {
  worker?.postMessage({ type: 'drop', dir } satisfies AssemblerRequest);
}

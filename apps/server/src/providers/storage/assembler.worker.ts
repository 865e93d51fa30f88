/**
 * The worker thread of ./assembler.ts: per upload, a running MD5 fed from the parts written in place,
 * taken in part order (see that module's comment). Synchronous positioned reads of up to 1 MiB, one
 * Hash per upload, at most 64 uploads at once (the least recent is dropped).
 *
 * Messages in: {@link AssemblerRequest}. Messages out: `{ id, result }` answering a `finish`.
 */
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { AnnouncedPart, Assembled } from './assembler';

/** At most this many uploads are hashed at once; announcing another drops the least recent one. */
const MAX_ASSEMBLING = 64;

/** What ./assembler.ts posts to the thread. */
export type AssemblerRequest =
  | { type: 'part'; dir: string; file: string; partSize: number; part: AnnouncedPart }
  | { type: 'finish'; dir: string; id: number }
  | { type: 'drop'; dir: string };

/** The thread's answer to a `finish`. */
export interface AssemblerAnswer {
  id: number;
  result: Assembled | null;
}

interface Upload {
  fd: number;
  file: string;
  partSize: number;
  hash: Hash;
  /** The part number the hash needs next. */
  next: number;
  size: number;
  parts: Assembled['parts'];
  /** Parts announced ahead of `next`, by number. */
  pending: Map<number, AnnouncedPart>;
  /** True after a short part: nothing can follow it. */
  ended: boolean;
}

/** Bytes read back per step: the thread's only buffer (1 MiB; reads come from the page cache). */
const CHUNK = 1024 * 1024;
/** The read buffer, allocated in the thread on first use. */
let buf: Buffer | null = null;
const uploads = new Map<string, Upload>();

function drop(dir: string): void {
  const u = uploads.get(dir);
  if (!u) return;
  uploads.delete(dir);
  try {
    fs.closeSync(u.fd);
  } catch {
    // Already closed: nothing to release.
  }
}

function advance(dir: string, u: Upload): void {
  while (!u.ended) {
    const want = u.pending.get(u.next);
    if (!want) return;
    try {
      let pos = (u.next - 1) * u.partSize;
      let left = want.size;
      while (left > 0) {
        buf ??= Buffer.allocUnsafe(CHUNK);
        const n = fs.readSync(u.fd, buf, 0, Math.min(CHUNK, left), pos);
        if (n <= 0) throw new Error('the file ended early');
        u.hash.update(buf.subarray(0, n));
        pos += n;
        left -= n;
      }
    } catch {
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

function onMessage(m: AssemblerRequest): void {
  if (m.type === 'part') {
    let u = uploads.get(m.dir);
    if (!u) {
      while (uploads.size >= MAX_ASSEMBLING) drop(uploads.keys().next().value!);
      let fd: number;
      try {
        fd = fs.openSync(m.file, 'r');
      } catch {
        return;
      }
      u = {
        fd,
        file: m.file,
        partSize: m.partSize,
        hash: createHash('md5'),
        next: 1,
        size: 0,
        parts: [],
        pending: new Map(),
        ended: false,
      };
    } else {
      uploads.delete(m.dir);
    }
    // Re-inserted: the map's order is the order of last use.
    uploads.set(m.dir, u);
    if (m.part.partNumber >= u.next) u.pending.set(m.part.partNumber, m.part);
    advance(m.dir, u);
  } else if (m.type === 'finish') {
    const u = uploads.get(m.dir);
    let result: Assembled | null = null;
    if (u) {
      advance(m.dir, u);
      if (uploads.get(m.dir) === u) {
        result = { file: u.file, parts: u.parts, size: u.size, md5: u.hash.digest('hex') };
        drop(m.dir);
      }
    }
    parentPort!.postMessage({ id: m.id, result } satisfies AssemblerAnswer);
  } else {
    drop(m.dir);
  }
}

if (parentPort) {
  // Below the event loop that receives the parts: the hashing catches up whenever that thread waits.
  // Linux only: there a priority belongs to the calling thread; elsewhere it would be the whole process's.
  if (process.platform === 'linux') {
    try {
      os.setPriority(0, 10);
    } catch {
      // Not permitted here: run at the normal priority.
    }
  }
  parentPort.on('message', onMessage);
}

/**
 * Writes many small new files in one hand-off to a worker thread (docs/decisions/0038-receipts-off-the-threadpool.md).
 *
 * Why: `fs.writeFile` makes three trips through libuv's thread pool per file (open, write, close).
 * On the 2-core machine of issue 15 that cost about 430 µs of CPU per outbox mail, measured with
 * `process.cpuUsage`; one receipt is written per purchase. The same files written with
 * `writeFileSync` in a worker thread, a batch per message, cost about 55-135 µs each, and the event
 * loop never waits for the disk.
 *
 * The worker is started on the first write and restarted after it dies; it keeps the process alive
 * only while a write is unanswered (so a shutdown waits for the files in flight, and an idle
 * writer never holds the process open). Each file is created with the mode asked for; a missing directory is created
 * (recursively) and the write tried once more.
 */
import { Worker } from 'node:worker_threads';

/** One file to create (or replace). `data` is copied to the worker. */
export interface FileToWrite {
  path: string;
  data: Uint8Array;
  /** Permission bits of a new file, e.g. `0o600`. */
  mode: number;
}

export interface FileWriter {
  /**
   * Writes `files`, each on its own: resolves with one entry per file, in order, `null` when it was
   * written, else the Error the write threw (e.g. ENOSPC). Rejects only when the worker failed
   * (it crashed, or was closed) before it answered; then any of the files may have been written.
   */
  writeMany(files: FileToWrite[]): Promise<(Error | null)[]>;
  /** Stops the worker; writes not answered yet reject. Later writes start a new worker. */
  close(): Promise<void>;
}

/** The worker's whole program (CommonJS, run with `eval`, so it needs no file of its own in src/ or dist/). */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
function write(f) {
  try {
    fs.writeFileSync(f.path, f.data, { mode: f.mode });
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    fs.mkdirSync(path.dirname(f.path), { recursive: true });
    fs.writeFileSync(f.path, f.data, { mode: f.mode });
  }
}
parentPort.on('message', (job) => {
  const results = job.files.map((f) => {
    try {
      write(f);
      return null;
    } catch (err) {
      return { message: String(err && err.message), code: err && err.code };
    }
  });
  parentPort.postMessage({ id: job.id, results });
});
`;

interface Pending {
  /** The worker the job was posted to. */
  worker: Worker;
  resolve: (results: (Error | null)[]) => void;
  reject: (err: Error) => void;
}

/** A {@link FileWriter} backed by one worker thread. */
export function createFileWriter(): FileWriter {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  /** Rejects the jobs posted to `w` (a job of a newer worker is left alone). */
  const failAll = (w: Worker, err: Error) => {
    for (const [id, p] of pending) {
      if (p.worker !== w) continue;
      pending.delete(id);
      p.reject(err);
    }
  };

  function start(): Worker {
    // No flags of this process (`--import`, `--input-type=module`, ...): the source is plain CommonJS.
    const w = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
    w.on('message', (msg: { id: number; results: ({ message: string; code?: string } | null)[] }) => {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (![...pending.values()].some((q) => q.worker === w)) w.unref();
      p.resolve(
        msg.results.map((r) => {
          if (!r) return null;
          const err = new Error(r.message) as NodeJS.ErrnoException;
          if (r.code) err.code = r.code;
          return err;
        }),
      );
    });
    w.on('error', (err) => {
      if (worker === w) worker = null;
      failAll(w, err);
    });
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      failAll(w, new Error(`the file writer stopped (exit code ${code})`));
    });
    // After the listeners (adding a 'message' listener refs the worker again): idle until a write.
    w.unref();
    return w;
  }

  return {
    writeMany(files) {
      if (!files.length) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        const id = nextId++;
        try {
          worker ??= start();
          pending.set(id, { worker, resolve, reject });
          worker.ref();
          worker.postMessage({ id, files });
        } catch (err) {
          pending.delete(id);
          reject(err as Error);
        }
      });
    },
    async close() {
      const w = worker;
      worker = null;
      if (!w) return;
      await w.terminate();
      failAll(w, new Error('the file writer was closed'));
    },
  };
}

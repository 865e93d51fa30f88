/**
 * Composes outbox mails and writes their files in a worker thread, a batch per hand-off
 * (docs/decisions/0038-receipts-off-the-threadpool.md, docs/decisions/0039-receipts-composed-off-the-event-loop.md).
 *
 * Why: one receipt is written per purchase. `fs.writeFile` makes three trips through libuv's thread
 * pool per file (open, write, close), about 430 µs of CPU per mail on the 2-core machine of issue
 * 15 (`process.cpuUsage`); composing the message with nodemailer's MailComposer costs about
 * 180-230 µs more, and in a CPU profile of the server under `bench:purchase` it was 14-17 % of the
 * event loop's busy time. Both run here instead: MailComposer (the composer nodemailer's
 * transports use; the file is the same RFC 5322 message, CRLF line ends, Message-ID) and
 * `writeFileSync`, so the event loop hands over four short strings per mail and never waits for
 * the disk or the MIME encoder.
 *
 * The worker is started on the first write and restarted after it dies; it keeps the process alive
 * only while a write is unanswered (so a shutdown waits for the files in flight, and an idle
 * writer never holds the process open). Each file is created with the mode asked for; a missing
 * directory is created (recursively) and the write tried once more.
 */
import type { Worker } from 'node:worker_threads';
import { startWorkerModule, workerUrl } from '../../lib/worker-module';
import type { OutboxAnswer, OutboxJob } from './outbox-writer.worker';

/** A plain-text mail as the outbox writes it (the From header included). */
export interface OutboxMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** One mail to compose and write to `path` (created or replaced). */
export interface OutboxFile {
  path: string;
  /** Permission bits of a new file, e.g. `0o600`. */
  mode: number;
  message: OutboxMessage;
}

/** A file written: the Message-ID header its mail carries. */
export interface WrittenMail {
  messageId: string;
}

export interface OutboxWriter {
  /**
   * Composes and writes `files`, each on its own: resolves with one entry per file, in order, the
   * mail's Message-ID when its file was written, else the Error composing or writing threw (e.g.
   * ENOSPC, EISDIR). Rejects only when the worker failed (it crashed, or was closed) before it
   * answered; then any of the files may have been written.
   */
  writeMany(files: OutboxFile[]): Promise<(WrittenMail | Error)[]>;
  /** Stops the worker; writes not answered yet reject. Later writes start a new worker. */
  close(): Promise<void>;
}

interface Pending {
  /** The worker the job was posted to. */
  worker: Worker;
  resolve: (results: (WrittenMail | Error)[]) => void;
  reject: (err: Error) => void;
}

/** Starts the worker thread, ./outbox-writer.worker.ts (tests pass a fake to make it answer twice, late or not at all). */
export type SpawnWorker = () => Worker;

/**
 * An {@link OutboxWriter} backed by one worker thread. Each job has its own id; an answer for an id
 * that is no longer pending (a second answer for the same job, or one for a job already failed) is
 * ignored, so a job resolves exactly once.
 */
export function createOutboxWriter({
  spawn = () => startWorkerModule(workerUrl('outbox-writer.worker', import.meta.url)),
}: { spawn?: SpawnWorker } = {}): OutboxWriter {
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
    const w = spawn();
    w.on('message', (msg: OutboxAnswer) => {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (![...pending.values()].some((q) => q.worker === w)) w.unref();
      p.resolve(
        msg.results.map((r) => {
          if ('messageId' in r) return { messageId: r.messageId };
          const err = new Error(r.error.message) as NodeJS.ErrnoException;
          if (r.error.code) err.code = r.error.code;
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
      failAll(w, new Error(`the outbox writer stopped (exit code ${code})`));
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
          worker.postMessage({ id, files } satisfies OutboxJob);
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
      // Before the worker's exit event, which would otherwise report the stop as an exit code.
      failAll(w, new Error('the outbox writer was closed'));
      await w.terminate();
    },
  };
}

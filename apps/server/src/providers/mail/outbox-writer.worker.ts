/**
 * The worker thread of ./outbox-writer.ts: composes each mail with nodemailer's MailComposer (CRLF
 * line ends, a Message-ID, as nodemailer's transports send it) and writes its file synchronously,
 * creating a missing directory once. One job in, one answer out, one result per file, in order.
 *
 * Messages in: {@link OutboxJob}. Messages out: {@link OutboxAnswer}.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { OutboxFile } from './outbox-writer';

/** A batch of files to write. */
export interface OutboxJob {
  id: number;
  files: OutboxFile[];
}

/** What the thread answers per file: the Message-ID written, or the error (message and errno code). */
export type OutboxResult = { messageId: string } | { error: { message: string; code?: string } };

export interface OutboxAnswer {
  id: number;
  results: OutboxResult[];
}

function write(f: OutboxFile, data: Buffer): void {
  try {
    fs.writeFileSync(f.path, data, { mode: f.mode });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    fs.mkdirSync(path.dirname(f.path), { recursive: true });
    fs.writeFileSync(f.path, data, { mode: f.mode });
  }
}

const failure = (err: unknown): OutboxResult => ({
  error: { message: String((err as Error | undefined)?.message), code: (err as NodeJS.ErrnoException | undefined)?.code },
});

async function compose(
  f: OutboxFile,
): Promise<{ messageId: string; data: Buffer } | { error: { message: string; code?: string } }> {
  try {
    // newline 'windows': CRLF, as RFC 5322 wants.
    // `newline` is an option of MailComposer's message that @types/nodemailer does not list.
    const mime = new MailComposer({ ...f.message, newline: 'windows' } as MailComposer['mail']).compile();
    const messageId = mime.messageId();
    return { messageId, data: await mime.build() };
  } catch (err) {
    return failure(err) as { error: { message: string; code?: string } };
  }
}

async function onJob(job: OutboxJob): Promise<void> {
  const built = await Promise.all(job.files.map(compose));
  const results = built.map((b, i): OutboxResult => {
    if ('error' in b) return b;
    try {
      write(job.files[i]!, b.data);
      return { messageId: b.messageId };
    } catch (err) {
      return failure(err);
    }
  });
  parentPort!.postMessage({ id: job.id, results } satisfies OutboxAnswer);
}

parentPort?.on('message', (job: OutboxJob) => void onJob(job));

/**
 * The outbox mail provider (product §11, embedded default): each mail is built by nodemailer's
 * MailComposer (the composer its transports use, without the transport's plugin steps, which a
 * plain-text mail does not need) as a real RFC 5322 message (CRLF line ends, MIME headers,
 * Message-ID) and written to
 * `<dir>/<time>-<id>.eml`, where `<time>` is the UTC time `YYYYMMDDTHHmmssSSSZ` (file names sort in
 * sending order) and `<id>` a UUIDv7. Any mail client opens these files.
 *
 * The files are written by a worker thread, a batch of mails per hand-off ({@link createFileWriter};
 * docs/decisions/0038-receipts-off-the-threadpool.md): the mail queue sends a purchase batch's
 * receipts with one {@link MailProvider.sendMany} call.
 */
import path from 'node:path';
import type Mail from 'nodemailer/lib/mailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { newId } from '../../lib/ids';
import { createFileWriter, type FileWriter } from './file-writer';
import type { MailMessage, MailProvider, SentMail } from './index';

export interface OutboxOptions {
  /** Directory of the `.eml` files (created on first send). */
  dir: string;
  /** The From header, e.g. `Coffer <no-reply@coffer.local>`. */
  from: string;
  /** Milliseconds since the epoch for file names; `Date.now` by default. */
  now?: () => number;
  /** Writes the files (tests inject failures); a worker thread of {@link createFileWriter} by default. */
  writer?: FileWriter;
}

/** `20261122T103503123Z` for a millisecond timestamp. */
export function outboxStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:.]/g, '');
}

export function createOutboxMail(options: OutboxOptions): MailProvider {
  const now = options.now ?? Date.now;
  const writer = options.writer ?? createFileWriter();

  /** Composes every message, then writes them all in one hand-off; one result per message. */
  async function sendMany(messages: MailMessage[]): Promise<(SentMail | Error)[]> {
    // A mail that cannot be composed is that mail's error alone: it must not fail its batch-mates' attempts.
    const built: ((SentMail & { data: Buffer }) | Error)[] = [];
    for (const m of messages) {
      try {
        // `newline` is an option of nodemailer's composer missing from its typings: CRLF, as RFC 5322 wants.
        const mime = new MailComposer({
          from: options.from,
          to: m.to,
          subject: m.subject,
          text: m.text,
          newline: 'windows',
        } as Mail.Options).compile();
        built.push({
          messageId: mime.messageId(),
          location: path.join(options.dir, `${outboxStamp(now())}-${newId()}.eml`),
          data: await mime.build(),
        });
      } catch (err) {
        built.push(err instanceof Error ? err : new Error(String(err)));
      }
    }
    const ready = built.filter((b): b is SentMail & { data: Buffer } => !(b instanceof Error));
    // Owner-only: a file may hold a reset code. The directory is made when a write finds it missing.
    const written = await writer.writeMany(ready.map((b) => ({ path: b.location, data: b.data, mode: 0o600 })));
    const results = new Map(ready.map((b, i) => [b, written[i] ?? { messageId: b.messageId, location: b.location }]));
    return built.map((b) => (b instanceof Error ? b : results.get(b)!));
  }

  return {
    kind: 'outbox',
    async send(message: MailMessage): Promise<SentMail> {
      const [result] = await sendMany([message]);
      if (result instanceof Error) throw result;
      return result!;
    },
    sendMany,
    async close() {
      await writer.close();
    },
  };
}

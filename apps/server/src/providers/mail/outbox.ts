/**
 * The outbox mail provider (product §11, embedded default): each mail is built by nodemailer's
 * MailComposer (the composer its transports use, without the transport's plugin steps, which a
 * plain-text mail does not need) as a real RFC 5322 message (CRLF line ends, MIME headers,
 * Message-ID) and written to
 * `<dir>/<time>-<id>.eml`, where `<time>` is the UTC time `YYYYMMDDTHHmmssSSSZ` (file names sort in
 * sending order) and `<id>` a UUIDv7. Any mail client opens these files.
 *
 * The mails are composed and their files written by a worker thread, a batch of mails per hand-off
 * ({@link createOutboxWriter}; docs/decisions/0038-receipts-off-the-threadpool.md, 0039): the mail
 * queue sends a purchase batch's receipts with one {@link MailProvider.sendMany} call.
 */
import path from 'node:path';
import { newId } from '../../lib/ids';
import type { MailMessage, MailProvider, SentMail } from './types';
import { createOutboxWriter, type OutboxWriter } from './outbox-writer';

export interface OutboxOptions {
  /** Directory of the `.eml` files (created on first send). */
  dir: string;
  /** The From header, e.g. `Coffer <no-reply@coffer.local>`. */
  from: string;
  /** Milliseconds since the epoch for file names; `Date.now` by default. */
  now?: () => number;
  /** Composes and writes the files (tests inject failures); a worker thread of {@link createOutboxWriter} by default. */
  writer?: OutboxWriter;
}

/** `20261122T103503123Z` for a millisecond timestamp. */
export function outboxStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:.]/g, '');
}

export function createOutboxMail(options: OutboxOptions): MailProvider {
  const now = options.now ?? Date.now;
  const writer = options.writer ?? createOutboxWriter();

  /**
   * Names a file per message and hands them all to the writer at once; one result per message
   * (a mail that cannot be composed or written is that mail's Error alone).
   */
  async function sendMany(messages: MailMessage[]): Promise<(SentMail | Error)[]> {
    const files = messages.map((m) => ({
      path: path.join(options.dir, `${outboxStamp(now())}-${newId()}.eml`),
      // Owner-only: a file may hold a reset code. The directory is made when a write finds it missing.
      mode: 0o600,
      message: { from: options.from, to: m.to, subject: m.subject, text: m.text },
    }));
    const written = await writer.writeMany(files);
    return files.map((f, i) => {
      const r = written[i] ?? new Error('the outbox writer gave no answer for this mail');
      return r instanceof Error ? r : { messageId: r.messageId, location: f.path };
    });
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

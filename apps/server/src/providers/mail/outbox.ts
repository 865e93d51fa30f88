/**
 * The outbox mail provider (product §11, embedded default): each mail is built by nodemailer's stream
 * transport as a real RFC 5322 message (CRLF line ends, MIME headers, Message-ID) and written to
 * `<dir>/<time>-<id>.eml`, where `<time>` is the UTC time `YYYYMMDDTHHmmssSSSZ` (file names sort in
 * sending order) and `<id>` a UUIDv7. Any mail client opens these files.
 */
import { writeFile as writeFileCallback } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import nodemailer from 'nodemailer';
import type StreamTransport from 'nodemailer/lib/stream-transport';
import { newId } from '../../lib/ids';
import type { MailMessage, MailProvider, SentMail } from './index';

/**
 * `fs.writeFile` (callback API) as a promise: about a third less CPU per small file on this kind of
 * machine than `fs/promises` (no FileHandle object per file), which counts with one receipt per purchase.
 */
const writeFile = promisify(writeFileCallback);

export interface OutboxOptions {
  /** Directory of the `.eml` files (created on first send). */
  dir: string;
  /** The From header, e.g. `Coffer <no-reply@coffer.local>`. */
  from: string;
  /** Milliseconds since the epoch for file names; `Date.now` by default. */
  now?: () => number;
}

/** `20261122T103503123Z` for a millisecond timestamp. */
export function outboxStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:.]/g, '');
}

export function createOutboxMail(options: OutboxOptions): MailProvider {
  const now = options.now ?? Date.now;
  // `newline` is a per-message option of nodemailer's composer (missing from its typings): CRLF as RFC 5322 wants.
  const defaults = { newline: 'windows' } as StreamTransport.Options;
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true }, defaults);
  return {
    kind: 'outbox',
    async send(message: MailMessage): Promise<SentMail> {
      const info = await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text });
      const file = path.join(options.dir, `${outboxStamp(now())}-${newId()}.eml`);
      // Owner-only: the file may hold a reset code. The directory is made on the first send and
      // again only when a write finds it gone (not one mkdir per mail).
      try {
        await writeFile(file, info.message as Buffer, { mode: 0o600 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        await mkdir(options.dir, { recursive: true });
        await writeFile(file, info.message as Buffer, { mode: 0o600 });
      }
      return { messageId: info.messageId, location: file };
    },
    async close() {
      transport.close();
    },
  };
}

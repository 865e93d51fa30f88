/**
 * Mail (product §11, "mail (reset codes)"): one small interface, two providers, chosen once at boot.
 *
 * - `outbox` (the embedded default): every mail becomes an RFC 5322 file
 *   `$DATA_DIR/outbox/<time>-<id>.eml` (see {@link createOutboxMail});
 * - `smtp` (when `SMTP_URL` is set): sent through that server with nodemailer (see {@link createSmtpMail}).
 *
 * Providers never log a mail's text: it may hold a reset code.
 */
import path from 'node:path';
import type { Config } from '../../env';
import { createOutboxMail } from './outbox';
import { createSmtpMail } from './smtp';

export { createOutboxMail } from './outbox';
export { createSmtpMail } from './smtp';

/** A plain-text mail to one recipient. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** What a provider reports after accepting a mail. */
export interface SentMail {
  /** The Message-ID header of the mail. */
  messageId: string;
  /** Where it went: the outbox file path, or `smtp` for a mail the SMTP server accepted. */
  location: string;
}

export interface MailProvider {
  readonly kind: 'outbox' | 'smtp';
  /**
   * Delivers one mail (writes the outbox file, or hands it to the SMTP server).
   * @throws Error when the file cannot be written or the SMTP server refuses the mail
   */
  send(message: MailMessage): Promise<SentMail>;
  /**
   * Delivers `messages` together where the provider can do so more cheaply than one by one (the
   * outbox writes their files in one hand-off): one result per message, in order, the Error of a
   * message that was not delivered. Rejects when the provider failed as a whole (then any of the
   * messages may have been delivered). Providers without it are sent to with {@link send}.
   */
  sendMany?(messages: MailMessage[]): Promise<(SentMail | Error)[]>;
  /** Releases connections; later sends fail. */
  close(): Promise<void>;
}

/**
 * The provider the configuration asks for: `smtp` when `SMTP_URL` is set, else the outbox under
 * `$DATA_DIR/outbox`. Mails are sent from `MAIL_FROM`.
 */
export function createMailProvider(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'dataDir'>): MailProvider {
  if (config.SMTP_URL) return createSmtpMail({ url: config.SMTP_URL, from: config.MAIL_FROM });
  return createOutboxMail({ dir: path.join(config.dataDir, 'outbox'), from: config.MAIL_FROM });
}

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
import type { MailProvider } from './types';

export { createOutboxMail } from './outbox';
export { createSmtpMail } from './smtp';
export type { MailMessage, MailProvider, SentMail } from './types';

/**
 * The provider the configuration asks for: `smtp` when `SMTP_URL` is set, else the outbox under
 * `$DATA_DIR/outbox`. Mails are sent from `MAIL_FROM`.
 */
export function createMailProvider(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'dataDir'>): MailProvider {
  if (config.SMTP_URL) return createSmtpMail({ url: config.SMTP_URL, from: config.MAIL_FROM });
  return createOutboxMail({ dir: path.join(config.dataDir, 'outbox'), from: config.MAIL_FROM });
}

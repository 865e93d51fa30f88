/**
 * The SMTP mail provider (product §11, production): nodemailer over `SMTP_URL`
 * (`smtp://user:pass@host:587` upgrades with STARTTLS when the server offers it; `smtps://` is TLS
 * from the start; `?pool=true` keeps a connection pool). One transport per process, made at the
 * first mail: nodemailer (about 15 MB of memory) is loaded only by a server that sends through SMTP.
 */
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { MailMessage, MailProvider, SentMail } from './types';

export interface SmtpOptions {
  /** `smtp://` or `smtps://` URL with optional credentials. */
  url: string;
  /** The From header. */
  from: string;
}

export function createSmtpMail(options: SmtpOptions): MailProvider {
  let transport: Promise<Transporter<SMTPTransport.SentMessageInfo>> | null = null;
  const open = () => (transport ??= import('nodemailer').then((m) => m.default.createTransport(options.url)));
  return {
    kind: 'smtp',
    async send(message: MailMessage): Promise<SentMail> {
      const info = await (await open()).sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text });
      if (info.rejected.length > 0) throw new Error(`The SMTP server refused the recipient (${info.response})`);
      return { messageId: info.messageId, location: 'smtp' };
    },
    async close() {
      if (transport) (await transport).close();
    },
  };
}

/**
 * The mail provider interface (product §11, "mail (reset codes)"): what Coffer's modules send through
 * and what each provider (./outbox.ts, ./smtp.ts) implements. ./index.ts chooses one at boot.
 */

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

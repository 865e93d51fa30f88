/**
 * The mail queue (docs/decisions/0032-mail-queue.md): a notification mail is a row written in the
 * transaction of the change it tells about, then sent after COMMIT and retried until the mail
 * server accepts it. Reset-code mails are not queued (their text holds a secret).
 */
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = () => timestamp({ withTimezone: true, mode: 'date' });

/** One mail to one recipient; `key` names the business reason (`library-change:<seq>:<user id>`), unique. */
export const mailQueue = pgTable(
  'mail_queue',
  {
    id: text().primaryKey(),
    key: text().notNull(),
    to: text().notNull(),
    subject: text().notNull(),
    body: text().notNull(),
    /** 'pending' | 'sent' | 'failed' */
    status: text().notNull(),
    attempts: integer().notNull().default(0),
    /** When the next attempt is due, also the lease of an attempt in progress; null once final. */
    nextAttemptAt: ts(),
    lastError: text(),
    /** The Message-ID the provider answered, once sent. */
    messageId: text(),
    createdAt: ts().notNull(),
    sentAt: ts(),
    updatedAt: ts().notNull(),
  },
  (t) => [uniqueIndex('mail_queue_key_idx').on(t.key), index('mail_queue_due_idx').on(t.status, t.nextAttemptAt)],
);

/** Reports of collections and the operators' audit log (product §27, modules/moderation). */
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { collections } from './collections';

/**
 * A user's report of a collection. `status` is 'open' until an operator resolves or dismisses it;
 * one open report per reporter and collection (partial unique index).
 */
export const reports = pgTable(
  'reports',
  {
    id: text().primaryKey(),
    collectionId: text()
      .notNull()
      .references(() => collections.id),
    reporterId: text()
      .notNull()
      .references(() => users.id),
    /** 'copyright' | 'illegal' | 'spam' | 'other' */
    reason: text().notNull(),
    details: text().notNull().default(''),
    /** 'open' | 'resolved' | 'dismissed' */
    status: text().notNull().default('open'),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    closedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** The operator who resolved or dismissed it. */
    closedBy: text(),
  },
  (t) => [
    uniqueIndex('reports_open_uq')
      .on(t.reporterId, t.collectionId)
      .where(sql`${t.status} = 'open'`),
    index('reports_status_created_idx').on(t.status, t.createdAt),
  ],
);

/** Every operator action (hide, unhide, suspend, unsuspend, report resolve/dismiss): who, when, why. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text().primaryKey(),
    /** The operator's name as given to the admin command (`--by`). */
    actor: text().notNull(),
    /** 'collection.hide' | 'collection.unhide' | 'user.suspend' | 'user.unsuspend' | 'report.resolve' | 'report.dismiss' */
    action: text().notNull(),
    /** What was acted on: `collection:<id>`, `user:<id>`, `report:<id>`. */
    target: text().notNull(),
    reason: text().notNull(),
    at: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    details: jsonb().notNull().default({}),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
);

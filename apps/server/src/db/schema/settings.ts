/** Facts about the database itself, written once (docs/abuse.md, "Sandbox points"). */
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const databaseFacts = pgTable('database_facts', {
  /** e.g. 'payments_mode'. */
  key: text().primaryKey(),
  value: text().notNull(),
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

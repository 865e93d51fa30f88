/**
 * Personal access tokens (docs/decisions/0058-personal-access-tokens.md): one row per token a user
 * created on the Developer tab. The token itself is never stored, only the SHA-256 hex of the whole
 * token (`coffer_pat_...`), which the bearer lookup reads by its unique index.
 */
import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';

export const accessTokens = pgTable(
  'access_tokens',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id),
    /** What the user called it (1-100 characters). */
    name: text().notNull(),
    /** SHA-256 hex of the whole token. */
    tokenHash: text().notNull(),
    /** The scopes granted (TOKEN_SCOPES keys, in table order). */
    scopes: jsonb().$type<string[]>().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Every token expires (7, 30, 90 or 365 days after creation). */
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** Refreshed at most once a minute (TOKEN_LAST_USED_INTERVAL_MS); null until first used. */
    lastUsedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Set by token/revoke or by a suspension; a revoked token answers 401. */
    revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('access_tokens_token_hash_uq').on(t.tokenHash), index('access_tokens_user_idx').on(t.userId)],
);

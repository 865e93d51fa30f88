/** Users, sessions and password-reset codes (product §12). */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: text().primaryKey(),
    username: text().notNull(),
    /** Lower-cased. */
    email: text().notNull(),
    nickname: text().notNull().default(''),
    avatar: text().notNull().default(''),
    /** argon2id of the client's MD5 digest. */
    passwordHash: text().notNull(),
    /** Mails about updates to collections the user bought (product §24); the user turns them off in Your Profile. */
    updateMails: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Set while an operator has suspended the account (product §27, modules/moderation). */
    suspendedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** The suspension's reason, told to the user at sign-in; null when not suspended. */
    suspendedReason: text(),
  },
  (t) => [uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`), uniqueIndex('users_email_uq').on(t.email)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id),
    /** SHA-256 hex of the opaque token; the token itself is never stored. */
    tokenHash: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** The User-Agent header at sign-in (product §26 session list), at most 512 characters. */
    userAgent: text().notNull().default(''),
    /** The client address at sign-in (TRUST_PROXY decides which). */
    address: text().notNull().default(''),
    /** When the session was last used, refreshed at most once a minute; null until the first refresh. */
    lastSeenAt: timestamp({ withTimezone: true, mode: 'date' }),
    /**
     * When the holder last proved it is them on this session: the sign-in itself, or a password (a
     * code with two-factor on) sent with `order/pay`. Spending needs one within STEP_UP_MINUTES
     * (product.md "Step-up"). Null: never (sessions from before step-up).
     */
    steppedUpAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const resetCodes = pgTable(
  'reset_codes',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id),
    /** SHA-256 hex of the 6-digit code. */
    codeHash: text().notNull(),
    tries: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [index('reset_codes_user_idx').on(t.userId)],
);

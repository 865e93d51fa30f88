/**
 * Account security (product §26): two-factor state, recovery codes, login challenges and the
 * devices a user has signed in from. Sessions themselves are in accounts.ts.
 */
import { bigint, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/** One row per user who has started two-factor setup; `enabledAt` set once a code proved the secret. */
export const twoFactor = pgTable('two_factor', {
  userId: text()
    .primaryKey()
    .references(() => users.id),
  /** The base32 TOTP secret sealed with AES-256-GCM under the two-factor key (two-factor.ts); never stored in clear. */
  secretSealed: text().notNull(),
  enabledAt: timestamp({ withTimezone: true, mode: 'date' }),
  /** The last 30-second TOTP step accepted: a code of this step or an earlier one is refused (no replay). */
  lastStep: bigint({ mode: 'number' }),
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id),
    /** HMAC-SHA256 hex of the normalised code under the two-factor key. */
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_uq').on(t.userId, t.codeHash)],
);

/** The answer to a right password when two-factor is on: single use, LOGIN_CHALLENGE_TTL_SECONDS. */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id),
    /** SHA-256 hex of the challenge token. */
    tokenHash: text().notNull(),
    userAgent: text().notNull().default(''),
    address: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('login_challenges_token_hash_uq').on(t.tokenHash), index('login_challenges_user_idx').on(t.userId)],
);

/** Devices (browser, OS and device kind from the user agent) a user signed in from; a new one gets a mail. */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: text()
      .notNull()
      .references(() => users.id),
    /** SHA-256 hex of the device label (devices.ts). */
    deviceKey: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceKey] })],
);

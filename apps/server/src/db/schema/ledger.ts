/**
 * The double-entry ledger (product §13) and the user-facing transaction records.
 * Amounts are bigint hundredths of a point ("minor units"); never floats.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * Ledger accounts. User accounts (`available`, `frozen`, `pending`: sale proceeds in their holding
 * period, docs/decisions/0045-clearance-and-step-up.md) carry `user_id` and may never go below zero
 * (a database CHECK); platform accounts (`deposits`, `withdrawals`, `fees`) have no user and may.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: text().primaryKey(),
    userId: text().references(() => users.id),
    /** 'available' | 'frozen' | 'pending' | 'deposits' | 'withdrawals' | 'fees' */
    kind: text().notNull(),
    /** Current balance in minor units; equals the sum of the account's entries. */
    balance: bigint({ mode: 'bigint' }).notNull().default(sql`0`),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_user_kind_uq').on(t.userId, t.kind),
    uniqueIndex('ledger_accounts_platform_kind_uq').on(t.kind).where(sql`${t.userId} is null`),
    check('ledger_accounts_user_nonnegative', sql`${t.userId} is null or ${t.balance} >= 0`),
  ],
);

/** One business event: its entries sum to zero; the idempotency key makes replays harmless. */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: text().primaryKey(),
    idempotencyKey: text().notNull(),
    /** The business event, one of `LedgerTransactionKind` (modules/ledger/ledger.repository.ts). */
    kind: text().notNull(),
    bizId: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ledger_transactions_key_uq').on(t.idempotencyKey), index('ledger_transactions_biz_idx').on(t.bizId)],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial({ mode: 'bigint' }).primaryKey(),
    transactionId: text()
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: text()
      .notNull()
      .references(() => ledgerAccounts.id),
    /** Signed minor units: positive credits the account's balance, negative debits it. */
    amount: bigint({ mode: 'bigint' }).notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('ledger_entries_tx_idx').on(t.transactionId), index('ledger_entries_account_idx').on(t.accountId)],
);

/** The history users see (product §3 "Transaction record"); written in the same transaction as its posting. */
export const records = pgTable(
  'records',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id),
    /** The bill or order id. */
    bizId: text().notNull(),
    /** 'TopUp' | 'CashOut' | 'Purchase' | 'Sale' | 'Refund' */
    type: text().notNull(),
    /** 'Incoming' | 'Outgoing' */
    direction: text().notNull(),
    /** Unsigned minor units of points. */
    amount: bigint({ mode: 'bigint' }).notNull(),
    status: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('records_user_type_biz_uq').on(t.userId, t.type, t.bizId),
    index('records_user_created_idx').on(t.userId, t.createdAt),
  ],
);

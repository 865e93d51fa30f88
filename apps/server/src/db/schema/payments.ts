/**
 * Top-up and cash-out (product §14-§15): deposit bills and the payments they received, withdraw bills and
 * their payout state, wrong-password attempts at withdraw confirmation, and the sandbox provider's
 * own payout book.
 *
 * Units: points in bigint minor units (hundredths), USD in bigint cents, crypto as exact NUMERIC
 * (scale 18, enough for any token's base units) — never floats.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';

const crypto = () => numeric({ precision: 38, scale: 18 });
const ts = () => timestamp({ withTimezone: true, mode: 'date' });

/** A top-up order: the user pays `currency_amount` of `pay_currency` to `address` within 1800 s. */
export const depositBills = pgTable(
  'deposit_bills',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id),
    /** Points asked for (minor units). */
    amount: bigint({ mode: 'bigint' }).notNull(),
    /** USD value of `amount` (cents). */
    amountUsd: bigint({ mode: 'bigint' }).notNull(),
    payCurrency: text().notNull(),
    network: text().notNull(),
    address: text().notNull(),
    /** Memo/destination tag the payer must add, if the provider needs one. */
    extraId: text(),
    /** Crypto to pay. */
    currencyAmount: crypto().notNull(),
    /** USD per unit of the currency when the bill was made (credits use it). */
    usdPrice: crypto().notNull(),
    /** Points per USD when the bill was made (credits use it). */
    pointsPerUsd: crypto().notNull(),
    /** 'DepositStatusProcessing' | 'DepositStatusSuccess' | 'DepositStatusExpired' */
    status: text().notNull(),
    /** The provider that issued the address ('sandbox', 'evm', ...). */
    provider: text().notNull(),
    /** The provider's own id for this deposit, if any. */
    providerRef: text(),
    /** Crypto received so far. */
    paidCurrencyAmount: crypto().notNull().default('0'),
    /** Points credited so far (minor units). */
    credited: bigint({ mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    createdAt: ts().notNull(),
    expiresAt: ts().notNull(),
    paidAt: ts(),
    updatedAt: ts().notNull(),
  },
  (t) => [
    index('deposit_bills_user_created_idx').on(t.userId, t.createdAt),
    index('deposit_bills_status_expires_idx').on(t.status, t.expiresAt),
  ],
);

/** One received payment: the unique payment reference makes its credit happen exactly once. */
export const depositPayments = pgTable(
  'deposit_payments',
  {
    id: text().primaryKey(),
    billId: text()
      .notNull()
      .references(() => depositBills.id),
    /** The provider's reference (transaction hash + log index, webhook payment id, ...). */
    paymentRef: text().notNull(),
    currencyAmount: crypto().notNull(),
    /** Points credited for this payment (minor units). */
    credited: bigint({ mode: 'bigint' }).notNull(),
    /**
     * USD per unit the credit used: the bill's quote, or the lower price at arrival for a late or
     * non-exact payment of a non-stable coin (docs/decisions/0012-late-payment-pricing.md). Null on
     * rows written before this rule.
     */
    usdPrice: crypto(),
    /** Ledger transaction of the credit (null when the payment was worth less than 0.01 point). */
    ledgerTransactionId: text(),
    receivedAt: ts().notNull(),
  },
  (t) => [uniqueIndex('deposit_payments_ref_uq').on(t.paymentRef), index('deposit_payments_bill_idx').on(t.billId)],
);

/**
 * A cash-out order. `status` is what users see; `payoutState` drives the payout worker:
 * null (awaiting confirmation) -> 'queued' -> 'sending' (lease taken, provider being called) ->
 * 'sent' (provider accepted, outcome pending) -> 'done'. A lease that runs out makes the bill
 * claimable again, so a crash at any step resumes; the provider call is idempotent by bill id.
 */
export const withdrawBills = pgTable(
  'withdraw_bills',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id),
    /** Points cashed out (minor units): frozen at confirmation, debited on success. */
    amount: bigint({ mode: 'bigint' }).notNull(),
    /** USD value of `amount` (cents). */
    amountUsd: bigint({ mode: 'bigint' }).notNull(),
    /** Network fee (cents of USD). */
    feeUsd: bigint({ mode: 'bigint' }).notNull(),
    /** Network fee in points (minor units), booked to the fees account on success. */
    feePoints: bigint({ mode: 'bigint' }).notNull(),
    currency: text().notNull(),
    network: text().notNull(),
    address: text().notNull(),
    memo: text().notNull().default(''),
    /** Crypto the address receives (after the fee). */
    currencyAmount: crypto().notNull(),
    /** WithdrawStatus wire value. */
    status: text().notNull(),
    /**
     * The provider that pays it out ('sandbox', 'evm', ...): a worker only claims its own provider's
     * bills, so switching `PAYMENTS` never sends a sandbox cash-out over a real rail.
     */
    provider: text().notNull().default('sandbox'),
    /** null | 'queued' | 'sending' | 'sent' | 'done' */
    payoutState: text(),
    payoutAttempts: integer().notNull().default(0),
    /** Until when the current claim holds; a claim past it is taken over by the next worker pass. */
    leaseUntil: ts(),
    txid: text(),
    failureReason: text(),
    createdAt: ts().notNull(),
    expiresAt: ts().notNull(),
    confirmedAt: ts(),
    completedAt: ts(),
    updatedAt: ts().notNull(),
  },
  (t) => [
    index('withdraw_bills_user_created_idx').on(t.userId, t.createdAt),
    index('withdraw_bills_payout_idx').on(t.status, t.payoutState, t.leaseUntil),
    index('withdraw_bills_status_expires_idx').on(t.status, t.expiresAt),
  ],
);

/** Wrong passwords at withdraw confirmation, counted per user over a window (rate limit). */
export const withdrawPasswordFailures = pgTable(
  'withdraw_password_failures',
  {
    id: bigserial({ mode: 'bigint' }).primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id),
    createdAt: ts().notNull(),
  },
  (t) => [index('withdraw_password_failures_user_idx').on(t.userId, t.createdAt)],
);

/** The sandbox provider's payout book: one row per payout id, so a repeated send never pays twice. */
export const sandboxPayouts = pgTable('sandbox_payouts', {
  payoutId: text().primaryKey(),
  currency: text().notNull(),
  network: text().notNull(),
  address: text().notNull(),
  memo: text().notNull().default(''),
  currencyAmount: crypto().notNull(),
  /** 'success' | 'failed' */
  status: text().notNull(),
  txid: text(),
  reason: text(),
  createdAt: ts().notNull(),
});

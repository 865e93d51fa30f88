/**
 * The `nowpayments` gateway adapter's own state (docs/payments.md, "Running Coffer on the
 * NOWPayments gateway"): the gateway payment behind each deposit bill (so lost IPNs are made up for
 * by polling) and the gateway payout behind each withdraw bill (so a payout is requested once).
 * Crypto amounts are exact decimal strings as the gateway sends them (NUMERIC), never floats.
 */
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = () => timestamp({ withTimezone: true, mode: 'date' });

/** A gateway payment (`/v1/payment`) made for a deposit bill; `status` is the gateway's payment_status. */
export const nowpaymentsPayments = pgTable(
  'nowpayments_payments',
  {
    paymentId: text().primaryKey(),
    billId: text().notNull(),
    payCurrency: text().notNull(),
    payAddress: text().notNull(),
    status: text().notNull(),
    /** The bill's expiry; polling stops a while after it. */
    expiresAt: ts().notNull(),
    createdAt: ts().notNull(),
    updatedAt: ts().notNull(),
  },
  (t) => [uniqueIndex('nowpayments_payments_bill_uq').on(t.billId), index('nowpayments_payments_status_idx').on(t.status, t.expiresAt)],
);

/**
 * A gateway payout (`/v1/payout`) for a withdraw bill (docs/payments.md, "Payouts exactly once").
 * The row is written before any request ('requesting': the intent), every create request is
 * counted in `attempts` (and `lastAttemptAt`) before it is sent, and carries the bill id as
 * `unique_external_id`; after a request whose answer was lost, the payout is looked up by that id
 * before anything is asked again. `status` is the gateway's withdrawal status, lower case, or one of
 * Coffer's own: 'requesting', 'rejected' (refused, proven absent: refunded), 'held' (a retry was
 * refused and the gateway shows nothing: neither re-sent nor refunded, for an operator to review).
 */
export const nowpaymentsPayouts = pgTable('nowpayments_payouts', {
  payoutId: text().primaryKey(),
  /** The gateway's batch id (`id` of the `/v1/payout` answer), once known. */
  batchId: text(),
  /** The gateway's withdrawal id inside the batch, once known. */
  withdrawalId: text(),
  status: text().notNull(),
  hash: text(),
  error: text(),
  verifiedAt: ts(),
  /** Create requests sent so far (counted before each is sent). */
  attempts: integer().notNull().default(0),
  /** When the latest create request was sent. */
  lastAttemptAt: ts(),
  createdAt: ts().notNull(),
  updatedAt: ts().notNull(),
});

/**
 * Gateway reports Coffer refused to act on, for an operator to review (docs/payments.md, "What can
 * go wrong"): a payment IPN or poll answer whose payment id is unknown, belongs to another bill, or
 * names another pay_currency than the bill's; a payout IPN for another payout. Nothing is credited
 * for them. One row per (kind, gateway id, reason); repeats only log again.
 */
export const nowpaymentsReviews = pgTable(
  'nowpayments_reviews',
  {
    id: bigserial({ mode: 'bigint' }).primaryKey(),
    /** 'payment' | 'payout' */
    kind: text().notNull(),
    /** The gateway's payment id (or withdrawal id) the report names. */
    gatewayId: text().notNull(),
    /** Coffer's bill behind that gateway id, when there is one. */
    billId: text(),
    /** 'unknown_payment' | 'other_bill' | 'currency_mismatch' | 'unknown_payout' | 'other_payout' */
    reason: text().notNull(),
    /** A human sentence saying what did not match. */
    detail: text().notNull(),
    /** The report's JSON body as received. */
    body: text().notNull(),
    createdAt: ts().notNull(),
  },
  (t) => [uniqueIndex('nowpayments_reviews_uq').on(t.kind, t.gatewayId, t.reason)],
);

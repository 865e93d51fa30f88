/**
 * The `nowpayments` gateway adapter's own state (docs/payments.md, "Running Coffer on the
 * NOWPayments gateway"): the gateway payment behind each deposit bill (so lost IPNs are made up for
 * by polling) and the gateway payout behind each withdraw bill (so a payout is requested once).
 * Crypto amounts are exact decimal strings as the gateway sends them (NUMERIC), never floats.
 */
import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
 * A gateway payout (`/v1/payout`) for a withdraw bill. The row is written before the request
 * ('requesting'), and the request carries the bill id as `unique_external_id`, so a retry after a
 * crash never asks for the money twice. `status` is the gateway's withdrawal status, lower case.
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
  createdAt: ts().notNull(),
  updatedAt: ts().notNull(),
});

/**
 * The `ton` payment provider's own state (docs/payments.md, "ton — USDT on TON"; ADR 0055, 0056):
 * the memo of each deposit bill, the watcher's position in the deposit jetton wallet's
 * transactions, the jetton transfers it has seen, and the hot wallet's payouts and the signed
 * batches (external messages) that carry them. Jetton amounts are base units as NUMERIC(78,0),
 * never floats; logical times (lt) are bigints.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, numeric, pgSequence, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = () => timestamp({ withTimezone: true, mode: 'date' });
const baseUnits = () => numeric({ precision: 78, scale: 0 });

/** Query ids of payout jetton transfers: one per payout, never reused (it finds the payout's message on chain). */
export const tonQueryIdSeq = pgSequence('ton_query_id_seq', { startWith: 1, minValue: 1 });

/**
 * One deposit memo per bill (ADR 0055): the bill's short code, which the payer puts in the jetton
 * transfer's comment. Unique over all bills, ever; matched case-insensitively (stored upper case).
 */
export const tonDeposits = pgTable(
  'ton_deposits',
  {
    billId: text().primaryKey(),
    memo: text().notNull(),
    /** The currency the bill asks for (`usdtton`). */
    code: text().notNull(),
    /** The owner address the bill shows (raw form `0:<hex>`): the deposit wallet. */
    depositAddress: text().notNull(),
    createdAt: ts().notNull(),
    /** The bill's expiry: payments are credited until `expires_at` + the late-payment window. */
    expiresAt: ts().notNull(),
  },
  (t) => [uniqueIndex('ton_deposits_memo_uq').on(t.memo)],
);

/**
 * Where the watcher stands in an account's transactions (the deposit jetton wallet, raw address):
 * every transaction up to (`last_lt`, `last_hash`) has been read.
 */
export const tonScanState = pgTable('ton_scan_state', {
  account: text().primaryKey(),
  lastLt: bigint({ mode: 'bigint' }).notNull(),
  /** Hex hash of that transaction ('' before the account had any). */
  lastHash: text().notNull(),
  updatedAt: ts().notNull(),
});

/**
 * A jetton transfer received by the deposit jetton wallet, identified by its transaction (hash, lt).
 * status: 'pending' -> 'credited' | 'ignored' (`reason`: no-memo, unknown-memo, fake-jetton,
 * zero-value, dust, late, unknown-bill). A pending transfer whose crediting failed waits until
 * `next_attempt_at` (backoff) and never blocks the others.
 */
export const tonTransfers = pgTable(
  'ton_transfers',
  {
    /** The deposit jetton wallet (raw address). */
    account: text().notNull(),
    /** Hex hash of the jetton wallet's transaction. */
    txHash: text().notNull(),
    lt: bigint({ mode: 'bigint' }).notNull(),
    /** Chain time of the transaction (unix seconds). */
    txTime: integer().notNull(),
    /** The jetton wallet the transfer came from (raw), and its owner as the transfer names it. */
    sourceWallet: text().notNull(),
    fromOwner: text(),
    amount: baseUnits().notNull(),
    /** The transfer's text comment as sent (trimmed), or null. */
    memo: text(),
    billId: text(),
    status: text().notNull(),
    reason: text(),
    attempts: integer().notNull().default(0),
    nextAttemptAt: ts(),
    createdAt: ts().notNull(),
    settledAt: ts(),
  },
  (t) => [primaryKey({ columns: [t.txHash, t.lt] }), index('ton_transfers_status_idx').on(t.account, t.status)],
);

/**
 * A signed external message of the hot wallet carrying up to `TON_BATCH_MAX` jetton transfers
 * (ADR 0056). Stored before it is broadcast. The wallet's `seqno` makes it valid once; `valid_until`
 * (chain time, unix s) ends its life. status: 'signed' (may still land) -> 'landed' (the wallet ran
 * it: `tx_hash`/`tx_lt`) | 'expired' (proof it never lands: past `valid_until` with the seqno
 * unused) | 'superseded' (the seqno was used by another message). One live batch per wallet.
 */
export const tonBatches = pgTable(
  'ton_batches',
  {
    id: text().primaryKey(),
    wallet: text().notNull(),
    seqno: integer().notNull(),
    /** The external message, BOC base64: re-broadcast as is, never re-signed. */
    boc: text().notNull(),
    /** Hex hash of the external message cell (finds the wallet's transaction). */
    msgHash: text().notNull(),
    validUntil: integer().notNull(),
    /** The wallet's last transaction lt when signed: its transaction for this message comes later. */
    afterLt: bigint({ mode: 'bigint' }).notNull(),
    status: text().notNull(),
    txHash: text(),
    txLt: bigint({ mode: 'bigint' }),
    createdAt: ts().notNull(),
    updatedAt: ts().notNull(),
  },
  (t) => [uniqueIndex('ton_batches_live_uq').on(t.wallet).where(sql`${t.status} = 'signed'`)],
);

/**
 * A payout (withdraw bill) from the hot wallet: a jetton transfer with query id `query_id`.
 * status: 'queued' (not in a live batch) -> 'sent' (in batch `batch_id`) -> 'relayed' (the wallet
 * sent the message to its jetton wallet: `msg_lt`) -> 'moved' (the jetton wallet sent the jettons
 * on: `jetton_tx_*`) -> 'success' (the recipient's jetton wallet took them: `txid`) | 'failed'
 * (proof nothing was paid, `reason`). A batch proven never to land puts its payouts back to 'queued'.
 */
export const tonPayouts = pgTable(
  'ton_payouts',
  {
    payoutId: text().primaryKey(),
    queryId: bigint({ mode: 'bigint' }).notNull(),
    wallet: text().notNull(),
    toAddress: text().notNull(),
    amount: baseUnits().notNull(),
    memo: text().notNull(),
    status: text().notNull(),
    batchId: text(),
    /** Batches this payout was put in (more than one only after a batch was proven never to land). */
    batches: integer().notNull().default(0),
    /** Created lt of the wallet's message to its jetton wallet, and of the jetton wallet's message on. */
    msgLt: bigint({ mode: 'bigint' }),
    jettonTxLt: bigint({ mode: 'bigint' }),
    forwardLt: bigint({ mode: 'bigint' }),
    /** The recipient's jetton wallet (raw). */
    destWallet: text(),
    /** Hex hash of the recipient jetton wallet's transaction that took the jettons. */
    txid: text(),
    reason: text(),
    createdAt: ts().notNull(),
    updatedAt: ts().notNull(),
  },
  (t) => [uniqueIndex('ton_payouts_query_uq').on(t.wallet, t.queryId), index('ton_payouts_status_idx').on(t.wallet, t.status)],
);

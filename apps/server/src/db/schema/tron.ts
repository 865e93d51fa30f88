/**
 * The `tron` payment provider's own state (docs/payments.md, "tron — USDT on TRON"): HD deposit
 * addresses, the watcher's two scan positions and the hashes of the unsolidified blocks it has read
 * (reorg detection), the TRC-20 transfers it has seen, the payouts, every transaction Coffer signs
 * (payout attempts, sweep fundings and sweeps; stored signed, under their txid, before broadcast),
 * and the sweeps with the TRX they cost. Token amounts are base units and TRX amounts sun, as
 * NUMERIC(78,0) or bigint: never floats. Times of the chain (expiration) are ms since the epoch.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, numeric, pgSequence, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = () => timestamp({ withTimezone: true, mode: 'date' });
const baseUnits = () => numeric({ precision: 78, scale: 0 });

/** Hands out address indexes i of m/44'/195'/0'/0/i; a sequence never gives a number twice. */
export const tronAddressIndexSeq = pgSequence('tron_address_index_seq', { startWith: 0, minValue: 0 });

/** One deposit address per bill, derived from the HD seed at `hd_index`; an index is never reused. */
export const tronDepositAddresses = pgTable(
  'tron_deposit_addresses',
  {
    hdIndex: integer().primaryKey(),
    /** Base58 address (T...). */
    address: text().notNull(),
    billId: text().notNull(),
    /** The currency the bill asks for (`usdttrc20`). */
    code: text().notNull(),
    createdAt: ts().notNull(),
    /** The bill's expiry: payments are credited until `expires_at` + the late-payment window. */
    expiresAt: ts().notNull(),
    /** Last sweep of this address to the hot wallet. */
    sweptAt: ts(),
  },
  (t) => [
    uniqueIndex('tron_deposit_addresses_address_uq').on(t.address),
    uniqueIndex('tron_deposit_addresses_bill_uq').on(t.billId),
    index('tron_deposit_addresses_created_idx').on(t.createdAt),
  ],
);

/**
 * Where the watcher stands: `cursor` 'solid' — every solidified block up to `last_block` has been
 * read (the transfers credited come only from these reads); 'head' — unsolidified blocks read early.
 */
export const tronScanState = pgTable('tron_scan_state', {
  cursor: text().primaryKey(),
  lastBlock: bigint({ mode: 'bigint' }).notNull(),
  updatedAt: ts().notNull(),
});

/** Hashes of the unsolidified blocks the head scan read; one that changed means a reorg from there on. */
export const tronBlocks = pgTable('tron_blocks', {
  number: bigint({ mode: 'bigint' }).primaryKey(),
  hash: text().notNull(),
});

/**
 * A TRC-20 Transfer to a deposit address, identified by (txid, log index). `solid`: read from a
 * solidified block (only such rows are credited); a row seen only in an unsolidified block is
 * forgotten when a reorg or the solidified read shows it gone. status: 'pending' -> 'credited' |
 * 'ignored' (`reason`: zero-value, dust, other-token, late, unknown-bill). A pending transfer whose
 * crediting failed waits until `next_attempt_at` (backoff) and never blocks the others.
 */
export const tronTransfers = pgTable(
  'tron_transfers',
  {
    txid: text().notNull(),
    logIndex: integer().notNull(),
    blockNumber: bigint({ mode: 'bigint' }).notNull(),
    solid: boolean().notNull().default(false),
    /** The token contract (base58). */
    token: text().notNull(),
    fromAddress: text().notNull(),
    toAddress: text().notNull(),
    amount: baseUnits().notNull(),
    billId: text().notNull(),
    status: text().notNull(),
    reason: text(),
    attempts: integer().notNull().default(0),
    nextAttemptAt: ts(),
    createdAt: ts().notNull(),
    settledAt: ts(),
  },
  (t) => [primaryKey({ columns: [t.txid, t.logIndex] }), index('tron_transfers_status_idx').on(t.status, t.solid), index('tron_transfers_bill_idx').on(t.billId)],
);

/**
 * A payout (withdrawal), keyed by the withdraw bill id. status: 'sending' (a transaction of attempt
 * `attempts` is live or being proven) -> 'success' | 'failed'. `txid` is the current attempt's. A
 * payout refused before signing is stored 'failed' with no transaction. A new attempt is signed only
 * after proof that the previous one can never transfer anything (it expired unmined, or it was mined
 * and failed, e.g. OUT_OF_ENERGY).
 */
export const tronPayouts = pgTable(
  'tron_payouts',
  {
    payoutId: text().primaryKey(),
    token: text().notNull(),
    fromAddress: text().notNull(),
    toAddress: text().notNull(),
    amount: baseUnits().notNull(),
    status: text().notNull(),
    txid: text(),
    attempts: integer().notNull().default(0),
    reason: text(),
    /** The solidified block of the successful transfer. */
    blockNumber: bigint({ mode: 'bigint' }),
    createdAt: ts().notNull(),
    updatedAt: ts().notNull(),
  },
  (t) => [index('tron_payouts_status_idx').on(t.status)],
);

/**
 * Every transaction Coffer signs on TRON, stored before broadcast under its txid (SHA-256 of its raw
 * data). kind 'payout' (ref: payout id, `attempt`), 'fund' (TRX to a deposit address before a sweep;
 * ref: sweep id), 'sweep' (ref: sweep id), 'delegate' / 'reclaim' (the hot wallet lending a deposit
 * address the energy of its stake and taking it back, `amount` in sun of stake; ref: sweep id, or
 * `reclaim:<address>` for a later run's reclaim; ADR 0064). status: 'signed' -> 'broadcast' -> 'mined' (in an
 * unsolidified block) -> 'success' | 'failed' (solidified; `result` the receipt's) | 'expired' (proven
 * never mined). `fee_sun` is the TRX it burned, from its solidified info.
 */
export const tronTxs = pgTable(
  'tron_txs',
  {
    txid: text().primaryKey(),
    kind: text().notNull(),
    ref: text().notNull(),
    attempt: integer().notNull().default(1),
    fromAddress: text().notNull(),
    toAddress: text().notNull(),
    /** Token base units (payout, sweep) or sun (fund; delegate and reclaim: sun of stake). */
    amount: baseUnits().notNull(),
    signedTx: text().notNull(),
    /** The solidified block the transaction refers to (TaPoS): it cannot be in a block at or below it. */
    refBlock: bigint({ mode: 'bigint' }).notNull(),
    /** Expiration, ms of chain time. */
    expiration: bigint({ mode: 'number' }).notNull(),
    feeLimitSun: bigint({ mode: 'bigint' }),
    status: text().notNull(),
    result: text(),
    blockNumber: bigint({ mode: 'bigint' }),
    feeSun: bigint({ mode: 'bigint' }),
    energyUsed: integer(),
    createdAt: ts().notNull(),
    updatedAt: ts().notNull(),
  },
  (t) => [
    index('tron_txs_ref_idx').on(t.kind, t.ref),
    // One live transaction per payout: a new attempt only after the previous one is final.
    uniqueIndex('tron_txs_live_payout_uq')
      .on(t.ref)
      .where(sql`${t.kind} = 'payout' and ${t.status} in ('signed', 'broadcast', 'mined')`),
  ],
);

/**
 * One sweep of a deposit address to the hot wallet: `amount` (token base units) moved by
 * `sweep_txid`, after `fund_txid` sent it TRX for energy if it lacked it; `fee_sun` the TRX both
 * burned (solidified infos). status: 'funding' -> 'sending' -> 'done' | 'failed'.
 */
export const tronSweeps = pgTable(
  'tron_sweeps',
  {
    id: text().primaryKey(),
    hdIndex: integer().notNull(),
    address: text().notNull(),
    amount: baseUnits().notNull(),
    status: text().notNull(),
    fundTxid: text(),
    /** TRX sent to the address for energy and bandwidth (sun). */
    fundSun: bigint({ mode: 'bigint' }),
    sweepTxid: text(),
    feeSun: bigint({ mode: 'bigint' }),
    reason: text(),
    createdAt: ts().notNull(),
    updatedAt: ts().notNull(),
  },
  (t) => [index('tron_sweeps_address_idx').on(t.address)],
);

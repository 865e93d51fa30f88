/**
 * The `evm` payment provider's own state (docs/payments.md, "Running Coffer on real chains"):
 * HD deposit addresses, the watcher's scan position and recent block hashes (reorg detection), the
 * ERC-20 transfers it has seen, and the hot wallet's payouts (signed transaction stored before
 * broadcast). Token amounts are base units as NUMERIC(78,0) (a uint256 fits), never floats.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = () => timestamp({ withTimezone: true, mode: 'date' });
const baseUnits = () => numeric({ precision: 78, scale: 0 });

/** Hands out address indexes i of m/44'/60'/0'/0/i: a sequence never gives a number twice, even after a rollback. */
export const evmAddressIndexSeq = pgSequence('evm_address_index_seq', { startWith: 0, minValue: 0 });

/** One deposit address per bill, derived from the HD seed at `hd_index`; an index is never reused. */
export const evmDepositAddresses = pgTable(
  'evm_deposit_addresses',
  {
    hdIndex: integer().primaryKey(),
    /** Lower-case 0x address. */
    address: text().notNull(),
    billId: text().notNull(),
    chainId: integer().notNull(),
    /** The currency the bill asks for, e.g. `usdterc20`. */
    code: text().notNull(),
    createdAt: ts().notNull(),
    /** The bill's expiry: payments are credited until `expires_at` + the late-payment window. */
    expiresAt: ts().notNull(),
    /** Last sweep of this address to the hot wallet. */
    sweptAt: ts(),
  },
  (t) => [
    uniqueIndex('evm_deposit_addresses_address_uq').on(t.address),
    uniqueIndex('evm_deposit_addresses_bill_uq').on(t.billId),
    index('evm_deposit_addresses_chain_created_idx').on(t.chainId, t.createdAt),
  ],
);

/** Where the watcher stands on each chain: every block up to `last_block` has been scanned. */
export const evmScanState = pgTable('evm_scan_state', {
  chainId: integer().primaryKey(),
  lastBlock: bigint({ mode: 'bigint' }).notNull(),
  updatedAt: ts().notNull(),
});

/** Hashes of recently scanned blocks; one that changed on the chain means a reorg from there on. */
export const evmBlocks = pgTable(
  'evm_blocks',
  {
    chainId: integer().notNull(),
    number: bigint({ mode: 'bigint' }).notNull(),
    hash: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.number] })],
);

/**
 * An ERC-20 Transfer to a deposit address, identified by (chain, tx hash, log index).
 * status: 'pending' (waiting for confirmations) -> 'credited' | 'ignored' (never credited; `reason`
 * says why: zero-value, dust, other-token, late, unknown-bill). A pending transfer whose crediting
 * failed is retried after `next_attempt_at` (backoff), so it never blocks the others (docs/payments.md, "What can go wrong").
 */
export const evmTransfers = pgTable(
  'evm_transfers',
  {
    chainId: integer().notNull(),
    txHash: text().notNull(),
    logIndex: integer().notNull(),
    blockNumber: bigint({ mode: 'bigint' }).notNull(),
    blockHash: text().notNull(),
    /** Token contract (lower case). */
    token: text().notNull(),
    fromAddress: text().notNull(),
    toAddress: text().notNull(),
    amount: baseUnits().notNull(),
    billId: text().notNull(),
    status: text().notNull(),
    /** Why an ignored transfer was not credited, or the last crediting error of a pending one. */
    reason: text(),
    /** Failed crediting attempts of a pending transfer. */
    attempts: integer().notNull().default(0),
    /** A pending transfer whose crediting failed is not tried again before this time. */
    nextAttemptAt: ts(),
    createdAt: ts().notNull(),
    settledAt: ts(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] }), index('evm_transfers_status_idx').on(t.chainId, t.status)],
);

/**
 * A transaction from the hot wallet, keyed by `payout_id`.
 *
 * kind 'payout': a withdrawal, keyed by the withdraw bill id. The signed transaction and its nonce
 * are stored before broadcast, so a restart re-broadcasts the same transaction instead of signing a
 * second one. status: 'signed' -> 'broadcast' -> 'success' | 'failed'. A payout refused before
 * signing (preflight) is stored 'failed' with no nonce or transaction, so every later call agrees.
 *
 * kind 'filler': a zero-value self-transfer that fills nonce `nonce` (a gap, or a payout whose
 * transaction the node never takes), keyed `filler:<chain>:<from>:<nonce>`; re-signed with higher
 * fees (`attempts`) until the nonce is used. 'success' once the nonce is used by any transaction.
 */
export const evmPayouts = pgTable(
  'evm_payouts',
  {
    payoutId: text().primaryKey(),
    chainId: integer().notNull(),
    token: text().notNull(),
    fromAddress: text().notNull(),
    toAddress: text().notNull(),
    amount: baseUnits().notNull(),
    nonce: integer(),
    signedTx: text(),
    txHash: text(),
    status: text().notNull(),
    reason: text(),
    blockNumber: bigint({ mode: 'bigint' }),
    /** 'payout' | 'filler'. */
    kind: text().notNull().default('payout'),
    /** Times a filler was signed (its fees grow with each). */
    attempts: integer().notNull().default(0),
    /** The chain head when the transaction was signed: where the search for its nonce's block starts. */
    signedBlock: bigint({ mode: 'bigint' }),
    /** Since when the node has not had this transaction (rejected or forgotten it); null when it has. */
    stuckSince: ts(),
    /** Set while this payout waits behind a nonce that no live transaction fills (a gap): that nonce. */
    blockedByNonce: integer(),
    createdAt: ts().notNull(),
    updatedAt: ts().notNull(),
  },
  (t) => [
    // A nonce belongs to one live payout (fillers may race a stuck payout at the same nonce).
    uniqueIndex('evm_payouts_live_nonce_uq')
      .on(t.chainId, t.fromAddress, t.nonce)
      .where(sql`${t.status} <> 'failed' and ${t.kind} = 'payout'`),
    uniqueIndex('evm_payouts_live_filler_uq')
      .on(t.chainId, t.fromAddress, t.nonce)
      .where(sql`${t.status} <> 'failed' and ${t.kind} = 'filler'`),
    index('evm_payouts_status_idx').on(t.status),
  ],
);

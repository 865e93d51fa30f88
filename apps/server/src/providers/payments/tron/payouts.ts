/**
 * Hot-wallet payouts of the `tron` provider (product §15, docs/payments.md "tron — USDT on TRON"): a
 * TRC-20 `transfer` from the hot wallet to the withdraw bill's address, exactly once per payout id
 * (the withdraw bill id).
 *
 * - Signing runs under a per-payout advisory lock, in one database transaction: the row is looked
 *   up again, the transfer is simulated (`triggerconstantcontract`: a revert, e.g. too few tokens,
 *   refuses the payout before anything is signed), its energy sets the fee_limit (130 % of the
 *   estimate at the chain's energy price, never above `TRON_MAX_FEE_LIMIT_TRX`), and the hot wallet
 *   must hold the TRX its staked energy and bandwidth do not cover. The transaction is built and
 *   signed locally, and stored under its txid (`tron_txs`) BEFORE broadcast: a restart re-broadcasts
 *   the same bytes; a lost broadcast answer is looked up by txid, never answered by a new transaction.
 * - A payout settles only from a solidified block: success when its solidified info says SUCCESS.
 * - A new attempt (a new transaction) is signed only on positive proof that the previous one can
 *   never transfer anything: it was mined and failed (its solidified receipt says OUT_OF_ENERGY:
 *   the next attempt doubles the fee_limit), or it expired unmined — every solidified block from
 *   its reference block to the first block at or past its expiration was read and none holds it
 *   (no later block may include it). After {@link MAX_ATTEMPTS} such attempts, or when a mined
 *   attempt failed otherwise (REVERT), or a new attempt's preflight refuses, the payout fails and the
 *   cash-out is refunded. Every node error or refusal of a broadcast decides nothing (try later).
 */
import { Big } from '@coffer/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { parseUnits } from 'viem';
import type { Db } from '../../../db/client';
import { tronPayouts, tronTxs } from '../../../db/schema/index';
import type { Clock } from '../../../lib/clock';
import type { PayoutOutcome, PayoutRequest } from '../types';
import { isTronAddress } from './address';
import { trxToSun, type TronSettings } from './config';
import type { SignedTx, TronNode } from './node';
import { buildTokenTransfer, signTx, transferData } from './tx';
import { TRON_USDT_CODE } from './watcher';

/** Advisory lock class of one payout's signing (second key: hashtext of the payout id). */
const PAYOUT_LOCK_CLASS = 727_070_021;
/** Transactions one payout may use (each only after proof that the previous one transferred nothing). */
export const MAX_ATTEMPTS = 3;
/** Bandwidth of one TRC-20 transfer transaction, bytes (about 345; rounded up). */
export const TRANSFER_BANDWIDTH = 350n;
/** Statuses of a transaction that may still be mined. */
export const LIVE_TX = ['signed', 'broadcast', 'mined'];

type PayoutRow = typeof tronPayouts.$inferSelect;
type TxRow = typeof tronTxs.$inferSelect;

export interface HotWallet {
  address: string;
  /** Hex private key, 64 digits. */
  key: string;
}

export interface TronPayouts {
  send(request: PayoutRequest): Promise<PayoutOutcome>;
  status(payoutId: string): Promise<PayoutOutcome>;
  /** Network fee of one token transfer at the chain's energy price: in tokens and in USD (2 decimals, rounded up). */
  estimateFee(): Promise<{ fee: string; feeUsd: string }>;
}

/**
 * The energy price and fee_limit of a transfer that needs `energy`, and the TRX (sun) the sender
 * burns beyond its staked energy and free bandwidth. @returns null when `energy` alone passes `maxSun`
 */
export function feePlan(input: {
  energy: bigint;
  energySun: bigint;
  bandwidthSun: bigint;
  stakedEnergy: bigint;
  bandwidth: bigint;
  maxSun: bigint;
  /** Multiplies the fee_limit (a retry after OUT_OF_ENERGY doubles it). */
  factor: bigint;
}): { feeLimitSun: bigint; burnSun: bigint } | null {
  if (input.energy * input.energySun > input.maxSun) return null;
  let feeLimitSun = (((input.energy * 13n + 9n) / 10n) * input.energySun * input.factor);
  if (feeLimitSun > input.maxSun) feeLimitSun = input.maxSun;
  if (feeLimitSun < input.energySun) feeLimitSun = input.energySun;
  const burnEnergy = input.energy > input.stakedEnergy ? input.energy - input.stakedEnergy : 0n;
  const burnSun = burnEnergy * input.energySun + (input.bandwidth >= TRANSFER_BANDWIDTH ? 0n : TRANSFER_BANDWIDTH * input.bandwidthSun);
  return { feeLimitSun, burnSun };
}

export function createTronPayouts(deps: {
  db: Db;
  node: TronNode;
  settings: TronSettings;
  clock: Clock;
  log: FastifyBaseLogger;
  hot: HotWallet | null;
}): TronPayouts {
  const { db, node, settings, clock, log, hot } = deps;
  const token = settings.token;
  const now = () => new Date(clock.now());
  const failed = (reason: string): PayoutOutcome => ({ status: 'failed', reason });

  function outcomeOf(row: PayoutRow): PayoutOutcome {
    if (row.status === 'success') return { status: 'success', txid: row.txid! };
    if (row.status === 'failed') return failed(row.reason ?? 'Payout failed');
    return { status: 'pending', txid: row.txid };
  }

  async function find(payoutId: string): Promise<PayoutRow | null> {
    const [row] = await db.select().from(tronPayouts).where(eq(tronPayouts.payoutId, payoutId));
    return row ?? null;
  }

  async function txOf(txid: string): Promise<TxRow | null> {
    const [row] = await db.select().from(tronTxs).where(eq(tronTxs.txid, txid));
    return row ?? null;
  }

  /** Compare-and-set on a live transaction. */
  async function updateTx(tx: TxRow, patch: Partial<typeof tronTxs.$inferInsert>): Promise<void> {
    await db
      .update(tronTxs)
      .set({ ...patch, updatedAt: now() })
      .where(and(eq(tronTxs.txid, tx.txid), inArray(tronTxs.status, LIVE_TX)));
  }

  /** Compare-and-set: finishes the payout only while it is still sending with this transaction. */
  async function finish(row: PayoutRow, status: 'success' | 'failed', patch: Partial<typeof tronPayouts.$inferInsert>): Promise<PayoutRow> {
    const [done] = await db
      .update(tronPayouts)
      .set({ ...patch, status, updatedAt: now() })
      .where(and(eq(tronPayouts.payoutId, row.payoutId), eq(tronPayouts.status, 'sending'), eq(tronPayouts.txid, row.txid!)))
      .returning();
    if (done && status === 'failed') log.warn({ payoutId: row.payoutId, txid: row.txid, reason: done.reason }, 'tron: payout failed');
    if (done && status === 'success') log.info({ payoutId: row.payoutId, txid: row.txid }, 'tron: payout solidified');
    return done ?? (await find(row.payoutId))!;
  }

  /**
   * Preflight and signing of attempt `attempt` inside `dbtx` (the payout's lock held).
   * @returns the signed transaction's row values, or a refusal reason (nothing signed)
   */
  async function prepare(
    to: string,
    amount: bigint,
    factor: bigint,
  ): Promise<{ refused: string } | { signed: SignedTx; refBlock: bigint; expiration: number; feeLimitSun: bigint }> {
    const from = hot!.address;
    const sim = await node.call(from, token.address, transferData(to, amount));
    if (sim.reverted) return { refused: `The hot wallet cannot send this transfer: ${sim.message || 'the transfer reverts'}` };
    const [fees, resources, account] = await Promise.all([node.fees(), node.resources(from), node.account(from)]);
    const plan = feePlan({
      energy: BigInt(sim.energyUsed),
      energySun: fees.energySun,
      bandwidthSun: fees.bandwidthSun,
      stakedEnergy: resources.energy,
      bandwidth: resources.bandwidth,
      maxSun: trxToSun(settings.maxFeeLimitTrx),
      factor,
    });
    if (!plan) return { refused: `The transfer needs more energy than TRON_MAX_FEE_LIMIT_TRX pays for (${sim.energyUsed} energy)` };
    if (account.balanceSun < plan.burnSun) return { refused: 'The hot wallet has too little TRX for energy and bandwidth' };
    const ref = await node.nowBlock(true);
    const unsigned = buildTokenTransfer({
      from,
      contract: token.address,
      to,
      amount,
      feeLimitSun: plan.feeLimitSun,
      ref,
      lifetimeMs: settings.txExpirationSeconds * 1000,
    });
    return { signed: signTx(unsigned, hot!.key), refBlock: ref.number, expiration: ref.timestamp + settings.txExpirationSeconds * 1000, feeLimitSun: plan.feeLimitSun };
  }

  /**
   * Signs attempt `attempt` of a payout and stores it, under the payout's lock. `previous`: the txid
   * the caller proved dead (null for the first attempt); when the row moved on meanwhile, nothing is signed.
   */
  async function signAttempt(
    request: { payoutId: string; to: string; amount: bigint },
    previous: string | null,
    factor: bigint,
  ): Promise<PayoutRow> {
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${PAYOUT_LOCK_CLASS}, hashtext(${request.payoutId}))`);
      const [row] = await tx.select().from(tronPayouts).where(eq(tronPayouts.payoutId, request.payoutId));
      if (row && (row.status !== 'sending' || row.txid !== previous)) return row;
      if (!row && previous !== null) throw new Error(`tron: payout ${request.payoutId} vanished`);
      const attempt = (row?.attempts ?? 0) + 1;
      const base = {
        payoutId: request.payoutId,
        token: token.address,
        fromAddress: hot!.address,
        toAddress: request.to,
        amount: request.amount.toString(),
        updatedAt: now(),
      };
      const prepared = await prepare(request.to, request.amount, factor);
      if ('refused' in prepared) {
        log.warn({ payoutId: request.payoutId, attempt, reason: prepared.refused }, 'tron: payout refused before signing');
        if (!row) {
          const [refused] = await tx.insert(tronPayouts).values({ ...base, status: 'failed', reason: prepared.refused, createdAt: now() }).returning();
          return refused!;
        }
        const [refused] = await tx
          .update(tronPayouts)
          .set({ status: 'failed', reason: prepared.refused, updatedAt: now() })
          .where(eq(tronPayouts.payoutId, request.payoutId))
          .returning();
        return refused!;
      }
      const txid = prepared.signed.txID;
      await tx.insert(tronTxs).values({
        txid,
        kind: 'payout',
        ref: request.payoutId,
        attempt,
        fromAddress: hot!.address,
        toAddress: request.to,
        amount: request.amount.toString(),
        signedTx: JSON.stringify(prepared.signed),
        refBlock: prepared.refBlock,
        expiration: prepared.expiration,
        feeLimitSun: prepared.feeLimitSun,
        status: 'signed',
        createdAt: now(),
        updatedAt: now(),
      });
      const [saved] = row
        ? await tx.update(tronPayouts).set({ txid, attempts: attempt, updatedAt: now() }).where(eq(tronPayouts.payoutId, request.payoutId)).returning()
        : await tx.insert(tronPayouts).values({ ...base, status: 'sending', txid, attempts: attempt, createdAt: now() }).returning();
      log.info({ payoutId: request.payoutId, txid, attempt, feeLimitSun: prepared.feeLimitSun.toString() }, 'tron: payout signed');
      return saved!;
    });
  }

  /**
   * True when `tx` can never be mined: every solidified block after its reference block up to the
   * first one at or past its expiration was served, and none holds it. @throws on node errors
   */
  async function provenExpired(tx: TxRow): Promise<boolean> {
    const solid = await node.nowBlock(true);
    if (solid.timestamp < tx.expiration) return false;
    let from = tx.refBlock + 1n;
    for (;;) {
      const to = from + 99n < solid.number ? from + 99n : solid.number;
      if (from > to) return false;
      const blocks = await node.solidBlocks(from, to);
      for (let i = 0; i < blocks.length; i++) {
        const b = blocks[i]!;
        if (b.number !== from + BigInt(i)) return false; // a gap in the answer proves nothing
        if (b.txids.includes(tx.txid)) return false;
        if (b.timestamp >= tx.expiration) return true;
      }
      if (blocks.length !== Number(to - from + 1n)) return false;
      from = to + 1n;
    }
  }

  /** Moves one payout on; never refunds without proof. Node errors are thrown ({@link safely} catches them). */
  async function advance(row: PayoutRow): Promise<PayoutRow> {
    if (row.status !== 'sending' || !row.txid) return row;
    const tx = await txOf(row.txid);
    if (!tx) throw new Error(`tron: the transaction ${row.txid} of payout ${row.payoutId} is not stored`);
    const request = { payoutId: row.payoutId, to: row.toAddress, amount: BigInt(row.amount) };

    const solid = await node.txInfo(tx.txid, true);
    if (solid) {
      const done = { blockNumber: solid.blockNumber, feeSun: solid.feeSun, energyUsed: solid.energyUsage, result: solid.receiptResult };
      if (!solid.failed) {
        await updateTx(tx, { ...done, status: 'success' });
        return finish(row, 'success', { blockNumber: solid.blockNumber, reason: null });
      }
      await updateTx(tx, { ...done, status: 'failed' });
      log.warn({ payoutId: row.payoutId, txid: tx.txid, result: solid.receiptResult, feeSun: solid.feeSun.toString() }, 'tron: payout transaction failed on chain');
      if (solid.receiptResult === 'OUT_OF_ENERGY' && row.attempts < MAX_ATTEMPTS) {
        return advanceNew(await signAttempt(request, tx.txid, 2n ** BigInt(row.attempts)));
      }
      return finish(row, 'failed', { reason: `the token transfer failed on chain (${solid.receiptResult})` });
    }
    if (await node.txInfo(tx.txid, false)) {
      if (tx.status !== 'mined') await updateTx(tx, { status: 'mined' });
      return row;
    }
    if (await provenExpired(tx)) {
      await updateTx(tx, { status: 'expired' });
      log.warn({ payoutId: row.payoutId, txid: tx.txid, attempt: tx.attempt }, 'tron: payout transaction expired unmined');
      if (row.attempts < MAX_ATTEMPTS) return advanceNew(await signAttempt(request, tx.txid, 2n ** BigInt(row.attempts - 1)));
      return finish(row, 'failed', { reason: `the transfer expired unmined ${row.attempts} times` });
    }
    // Neither mined nor proven dead: make sure the node has it (the same bytes, never a new transaction).
    const answer = await node.broadcast(JSON.parse(tx.signedTx) as SignedTx);
    if (answer.accepted || answer.code === 'DUP_TRANSACTION_ERROR') {
      if (tx.status === 'signed') await updateTx(tx, { status: 'broadcast' });
    } else {
      log.warn({ payoutId: row.payoutId, txid: tx.txid, code: answer.code, message: answer.message }, 'tron: the node refused the payout transaction; retried later');
    }
    return row;
  }

  /** A fresh attempt's first broadcast (and nothing more). */
  async function advanceNew(row: PayoutRow): Promise<PayoutRow> {
    return row.status === 'sending' ? advance(row) : row;
  }

  async function safely(row: PayoutRow): Promise<PayoutOutcome> {
    try {
      return outcomeOf(await advance(row));
    } catch (err) {
      log.warn({ payoutId: row.payoutId, txid: row.txid, reason: err instanceof Error ? err.message : String(err) }, 'tron: payout check failed; retried later');
      return outcomeOf((await find(row.payoutId)) ?? row);
    }
  }

  return {
    async send(request) {
      const existing = await find(request.payoutId);
      if (existing) return safely(existing);
      if (!hot) return failed('Payouts are not configured (no hot wallet)');
      if (request.currency !== TRON_USDT_CODE || request.network.toUpperCase() !== 'TRX')
        return failed(`Unsupported payout currency ${request.currency} on ${request.network}`);
      if (!isTronAddress(request.address)) return failed('Invalid address format');
      const amount = parseUnits(new Big(request.currencyAmount).round(token.decimals, Big.roundDown).toFixed(token.decimals), token.decimals);
      if (amount <= 0n) return failed('The payout amount is zero');
      let row: PayoutRow;
      try {
        row = await signAttempt({ payoutId: request.payoutId, to: request.address, amount }, null, 1n);
      } catch (err) {
        // Nothing was stored: the worker asks again (the same payout id).
        log.warn({ payoutId: request.payoutId, reason: err instanceof Error ? err.message : String(err) }, 'tron: payout preflight failed; retried later');
        return { status: 'unknown' };
      }
      return safely(row);
    },

    async status(payoutId) {
      const row = await find(payoutId);
      if (!row) return { status: 'unknown' };
      return safely(row);
    },

    async estimateFee() {
      const fees = await node.fees();
      const sun = BigInt(settings.payoutEnergy) * fees.energySun + TRANSFER_BANDWIDTH * fees.bandwidthSun;
      const usd = new Big(sun.toString()).div(1_000_000).times(settings.trxUsdPrice);
      return { fee: usd.round(8, Big.roundUp).toFixed(8), feeUsd: usd.round(2, Big.roundUp).toFixed(2) };
    },
  };
}

/**
 * Hot-wallet payouts of the `evm` provider (product §15, docs/payments.md and its "What can go wrong" table): an
 * ERC-20 `transfer` from the hot wallet to the withdraw bill's address, exactly once per payout id
 * (the withdraw bill id).
 *
 * - Creation runs under a per-payout advisory lock, in one transaction: the row is looked up again,
 *   the transfer is simulated (`eth_call`) and the gas money checked, then the nonce is chosen under
 *   the chain's nonce lock, the transaction signed and stored ('signed') BEFORE broadcast. A payout
 *   the preflight refuses is stored 'failed' without a transaction, so an overlapping instance can
 *   neither refund one that another instance is sending nor send one that was refused.
 * - Once a signed transaction exists, the payout is refunded ONLY on positive proof, at the
 *   network's confirmations: its own receipt says it reverted, or the block in which the hot
 *   wallet's nonce was used holds a different transaction at that nonce. Every RPC error (timeout,
 *   429, dropped or late answer) means "try again later"; so do broadcast rejections ("underpriced",
 *   "insufficient funds", "already known", "nonce too low"), which only mark the payout stuck.
 * - Nonce gaps: a nonce below a waiting payout that no live transaction holds, or that a payout
 *   holds whose transaction the node has not taken for {@link STUCK_MS}, is filled by a zero-value
 *   self-transfer ("filler"), re-signed with 25 % higher fees until the nonce is used, so later
 *   payouts go through. A payout waiting behind such a nonce is logged (warn, with the nonce and bill
 *   ids) and counted by {@link countPayoutsBehindGap}.
 * - Status changes are compare-and-set on the row's status: two instances working on one payout
 *   reach the same proof-based result, and only the first write counts.
 */
import { Big } from '@coffer/contract';
import { and, eq, inArray, isNotNull, max, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  encodeFunctionData,
  erc20Abi,
  getAddress,
  isAddress,
  keccak256,
  parseUnits,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import type { Db } from '../../../db/client';
import { evmPayouts } from '../../../db/schema/index';
import type { Clock } from '../../../lib/clock';
import type { PayoutOutcome, PayoutRequest } from '../types';
import { errorText, nodeText, shortReason, type EvmChains, type EvmClient } from './chain';
import type { EvmNetwork } from './config';

/** Advisory lock class of payout nonce allocation (second key: the chain id). */
const NONCE_LOCK_CLASS = 727_070_010;
/** Advisory lock class of one payout's creation (second key: hashtext of the payout id). */
const PAYOUT_LOCK_CLASS = 727_070_011;
/** A transaction the node has not taken for this long (ms, by the app clock) has its nonce filled. */
export const STUCK_MS = 10 * 60_000;
/** A filler the node holds but has not mined for this long (ms) is re-signed with higher fees. */
export const FILLER_BUMP_MS = 2 * 60_000;
/** At most this many nonces are checked for gaps below one payout (a lagging node can report a low count). */
const GAP_SCAN_LIMIT = 64;
/** A filler is signed at most this many times (fees at most 1.25^10, about 9.3x the network's). */
const MAX_FILLER_SIGNS = 10;
/** Gas of a plain value transfer (a filler). */
const FILLER_GAS = 21_000n;
/** Statuses of a transaction that may still be mined. */
const LIVE = ['signed', 'broadcast'];

type PayoutRow = typeof evmPayouts.$inferSelect;
type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

export interface EvmPayouts {
  send(request: PayoutRequest): Promise<PayoutOutcome>;
  status(payoutId: string): Promise<PayoutOutcome>;
  /** Network fee of one token transfer: in the token and in USD (2 decimals, rounded up). */
  estimateFee(code: string): Promise<{ fee: string; feeUsd: string }>;
}

/**
 * Counts payouts waiting behind a nonce gap (a lower nonce of the hot wallet that no live
 * transaction holds, or whose transaction the node does not take), as last seen by a payout check.
 * For a metric (e.g. `coffer_evm_payouts_behind_gap`); read-only, one query.
 * @returns the number of live payouts (status 'signed' | 'broadcast') with `blocked_by_nonce` set
 */
export async function countPayoutsBehindGap(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`count(*)::text` })
    .from(evmPayouts)
    .where(and(eq(evmPayouts.kind, 'payout'), inArray(evmPayouts.status, LIVE), isNotNull(evmPayouts.blockedByNonce)));
  return Number(row?.n ?? 0);
}

/** How a node answered a broadcast: has it, nonce already used, refused it as too cheap, or refused it otherwise (none is final). */
type Broadcast = 'known' | 'nonce-used' | 'underpriced' | 'rejected';

/**
 * Classifies a broadcast error. @returns the kind, or null for a transport or unknown error (try later)
 */
export function broadcastErrorKind(err: unknown): Broadcast | null {
  const text = errorText(err);
  if (/already known|known transaction|already imported|already exists|already in the (tx )?pool/.test(text)) return 'known';
  if (
    /nonce too low|nonce has already been used|nonce is too low|doesn't have the correct nonce|nonce .*already.*used/.test(text)
  )
    return 'nonce-used';
  if (/underpriced|fee too low|less than block base fee/.test(text)) return 'underpriced';
  if (
    /insufficient funds|exceeds balance|execution reverted|revert|intrinsic gas|exceeds block gas limit|fee cap|less than block base fee/.test(
      text,
    )
  )
    return 'rejected';
  return null;
}

export function createEvmPayouts(deps: { db: Db; chains: EvmChains; clock: Clock; log: FastifyBaseLogger }): EvmPayouts {
  const { db, chains, clock, log } = deps;

  const failed = (reason: string): PayoutOutcome => ({ status: 'failed', reason });
  const now = () => new Date(clock.now());

  function networkOf(row: PayoutRow): EvmNetwork {
    const n = chains.networks.find((x) => x.chainId === row.chainId);
    if (!n) throw new Error(`evm: payout ${row.payoutId} is on chain ${row.chainId}, which is no longer configured`);
    return n;
  }

  function outcomeOf(row: PayoutRow): PayoutOutcome {
    if (row.status === 'success') {
      // Settled at the network's confirmation depth (watchQueue's proof), reported with the event.
      const depth = chains.networks.find((x) => x.chainId === row.chainId)?.confirmations;
      return { status: 'success', txid: row.txHash!, ...(depth ? { confirmations: depth } : {}) };
    }
    if (row.status === 'failed') return failed(row.reason ?? 'Payout failed');
    return { status: 'pending', txid: row.txHash };
  }

  async function find(payoutId: string): Promise<PayoutRow | null> {
    const [row] = await db.select().from(evmPayouts).where(eq(evmPayouts.payoutId, payoutId));
    return row ?? null;
  }

  /** Compare-and-set: updates the row only while it is still live. @returns the row as it is now */
  async function update(row: PayoutRow, patch: Partial<typeof evmPayouts.$inferInsert>): Promise<PayoutRow> {
    const [updated] = await db
      .update(evmPayouts)
      .set({ ...patch, updatedAt: now() })
      .where(and(eq(evmPayouts.payoutId, row.payoutId), inArray(evmPayouts.status, LIVE)))
      .returning();
    return updated ?? (await find(row.payoutId))!;
  }

  async function finish(
    row: PayoutRow,
    status: 'success' | 'failed',
    patch: Partial<typeof evmPayouts.$inferInsert>,
  ): Promise<PayoutRow> {
    const done = await update(row, { ...patch, status, stuckSince: null, blockedByNonce: null });
    if (done.status === status && status === 'failed')
      log.warn({ payoutId: row.payoutId, txHash: row.txHash, nonce: row.nonce, reason: done.reason }, 'evm: payout failed');
    if (done.status === status && status === 'success')
      log.info({ payoutId: row.payoutId, txHash: row.txHash, kind: row.kind }, 'evm: payout confirmed');
    return done;
  }

  /** The receipt of `hash`, or null when the node answers that it has none (errors are thrown). */
  async function receiptOf(client: EvmClient, hash: Hex): Promise<TransactionReceipt | null> {
    try {
      return await client.getTransactionReceipt({ hash });
    } catch (err) {
      if (err instanceof TransactionReceiptNotFoundError) return null;
      throw err;
    }
  }

  /** Whether the node knows `hash` (pool or chain); errors are thrown. */
  async function nodeHas(client: EvmClient, hash: Hex): Promise<boolean> {
    try {
      await client.getTransaction({ hash });
      return true;
    } catch (err) {
      if (err instanceof TransactionNotFoundError) return false;
      throw err;
    }
  }

  /**
   * The hash of the transaction that used `nonce` of `from`, found in the chain itself: the first
   * block at which the account's count passes the nonce (binary search from `low`), then that
   * block's transaction from `from` with that nonce. Positive proof, not an absence of answers.
   * @throws when the node's answers do not agree (try again later)
   */
  async function txAtNonce(
    client: EvmClient,
    from: Hex,
    nonce: number,
    low: bigint,
    high: bigint,
  ): Promise<{ hash: Hex; block: bigint }> {
    const countAt = (b: bigint) => client.getTransactionCount({ address: from, blockNumber: b });
    let lo = low < 0n ? 0n : low > high ? high : low;
    if ((await countAt(lo)) > nonce) lo = 0n;
    let hi = high;
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      if ((await countAt(mid)) > nonce) hi = mid;
      else lo = mid + 1n;
    }
    const block = await client.getBlock({ blockNumber: hi, includeTransactions: true });
    const tx = block.transactions.find(
      (t) => typeof t !== 'string' && t.from.toLowerCase() === from.toLowerCase() && t.nonce === nonce,
    );
    if (!tx || typeof tx === 'string') throw new Error(`evm: block ${hi} shows no transaction of ${from} at nonce ${nonce}`);
    return { hash: tx.hash, block: hi };
  }

  async function fees(network: EvmNetwork): Promise<Fees> {
    const client = chains.client(network);
    try {
      const f = await client.estimateFeesPerGas({ type: 'eip1559' });
      return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
    } catch {
      return { gasPrice: await client.getGasPrice() };
    }
  }

  /** Fees times 1.25^times (a replacement needs at least +10 % on every fee field). */
  function bumped(f: Fees, times: number): Fees {
    const up = (v: bigint) => {
      let x = v > 0n ? v : 1n;
      for (let i = 0; i < times; i++) x = (x * 125n + 99n) / 100n;
      return x;
    };
    return 'gasPrice' in f
      ? { gasPrice: up(f.gasPrice) }
      : { maxFeePerGas: up(f.maxFeePerGas), maxPriorityFeePerGas: up(f.maxPriorityFeePerGas) };
  }

  const feeFields = (f: Fees) =>
    'gasPrice' in f ? { type: 'legacy' as const, gasPrice: f.gasPrice } : { type: 'eip1559' as const, ...f };

  /** Sends the stored signed transaction (again). @throws on transport errors (try later) */
  async function broadcast(client: EvmClient, row: PayoutRow): Promise<Broadcast> {
    try {
      await client.sendRawTransaction({ serializedTransaction: row.signedTx as Hex });
      return 'known';
    } catch (err) {
      const kind = broadcastErrorKind(err);
      if (!kind) throw err;
      if (kind === 'rejected' || kind === 'underpriced')
        log.warn(
          { payoutId: row.payoutId, nonce: row.nonce, reason: shortReason(err) },
          'evm: the node refused the transaction; retried later',
        );
      return kind;
    }
  }

  /**
   * Moves one payout or filler on. Never refunds without proof; RPC errors are thrown to the caller
   * ({@link safely} turns them into "pending").
   */
  async function advance(row: PayoutRow): Promise<PayoutRow> {
    if (!LIVE.includes(row.status)) return row;
    const network = networkOf(row);
    const client = chains.client(network);
    const from = row.fromAddress as Hex;
    const nonce = row.nonce!;
    const hash = row.txHash as Hex;
    const conf = BigInt(network.confirmations);

    if (row.kind === 'payout') {
      const receipt = await receiptOf(client, hash);
      if (receipt) {
        const head = await client.getBlockNumber({ cacheTime: 0 });
        if (head - receipt.blockNumber + 1n < conf)
          return row.stuckSince || row.blockedByNonce !== null ? update(row, { stuckSince: null, blockedByNonce: null }) : row;
        await fillersDone(row, nonce);
        // Our own transaction used the nonce: a revert is proof that nothing was paid.
        if (receipt.status !== 'success')
          return finish(row, 'failed', { reason: 'the token transfer reverted', blockNumber: receipt.blockNumber });
        return finish(row, 'success', { blockNumber: receipt.blockNumber });
      }
    }
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const deepest = head - conf + 1n;
    const usedConfirmed = deepest >= 0n ? await client.getTransactionCount({ address: from, blockNumber: deepest }) : 0;
    if (usedConfirmed > 0) await fillersDone(row, Math.min(usedConfirmed, nonce));
    if (usedConfirmed > nonce) {
      if (row.kind === 'filler') return finish(row, 'success', { blockNumber: deepest });
      const used = await txAtNonce(client, from, nonce, (row.signedBlock ?? 0n) - 1n, deepest);
      if (used.hash.toLowerCase() === hash.toLowerCase()) return row; // ours after all: its receipt comes with the next answer
      return finish(row, 'failed', {
        reason: `nonce ${nonce} was used by another transaction (${used.hash})`,
        blockNumber: used.block,
      });
    }
    const usedLatest = await client.getTransactionCount({ address: from, blockTag: 'latest' });
    if (usedLatest > nonce) return row; // mined, not yet confirmed (ours or not: the next pass proves which)

    // Not mined: make sure the node has it. A transport error here still lets the queue be checked.
    let current = row;
    let transportError: unknown = null;
    try {
      const has = await nodeHas(client, hash);
      if (!has) {
        const answer = await broadcast(client, row);
        if (answer === 'known' && row.status === 'signed') current = await update(row, { status: 'broadcast' });
        const refused = answer === 'rejected' || answer === 'underpriced';
        if (refused && !current.stuckSince) current = await update(current, { stuckSince: now() });
        if (answer === 'known' && current.stuckSince) current = await update(current, { stuckSince: null });
        // Only a price refusal is answered with higher fees (never "insufficient funds": that needs gas money).
        if (row.kind === 'filler' && answer === 'underpriced') current = await resign(network, current);
      } else {
        if (row.status === 'signed') current = await update(current, { status: 'broadcast' });
        if (current.stuckSince) current = await update(current, { stuckSince: null });
        if (row.kind === 'filler' && clock.now() - current.updatedAt.getTime() >= FILLER_BUMP_MS)
          current = await resign(network, current);
      }
    } catch (err) {
      transportError = err;
    }
    if (current.kind === 'payout' && LIVE.includes(current.status)) current = await watchQueue(network, current, usedLatest);
    if (transportError) throw transportError;
    return current;
  }

  /** Marks live fillers below `belowNonce` done: the chain used those nonces at a confirmed depth. */
  async function fillersDone(row: PayoutRow, belowNonce: number): Promise<void> {
    await db
      .update(evmPayouts)
      .set({ status: 'success', updatedAt: now() })
      .where(
        and(
          eq(evmPayouts.chainId, row.chainId),
          eq(evmPayouts.fromAddress, row.fromAddress),
          eq(evmPayouts.kind, 'filler'),
          inArray(evmPayouts.status, LIVE),
          sql`${evmPayouts.nonce} < ${belowNonce}`,
        ),
      );
  }

  /** Re-signs a filler at the same nonce with fees 25 % higher than last time. */
  async function resign(network: EvmNetwork, row: PayoutRow): Promise<PayoutRow> {
    const hot = chains.hotWallet;
    if (!hot || row.kind !== 'filler' || row.attempts >= MAX_FILLER_SIGNS) return row;
    const attempts = row.attempts + 1;
    const signedTx = await hot.signTransaction({
      chainId: network.chainId,
      to: hot.address,
      value: 0n,
      nonce: row.nonce!,
      gas: FILLER_GAS,
      ...feeFields(bumped(await fees(network), attempts)),
    });
    const next = await update(row, { signedTx, txHash: keccak256(signedTx), attempts, status: 'signed' });
    log.warn({ payoutId: row.payoutId, nonce: row.nonce, attempts }, 'evm: nonce filler re-signed with higher fees');
    await broadcast(chains.client(network), next).catch((err: unknown) =>
      log.warn({ payoutId: row.payoutId, reason: shortReason(err) }, 'evm: filler broadcast failed; retried later'),
    );
    return next;
  }

  /**
   * A payout that is not mined: are the hot wallet's nonces below it all held by live transactions?
   * Fills every free nonce (and its own, once stuck for {@link STUCK_MS} at the head of the queue)
   * with a filler, moves the fillers below it on, and records/logs what it waits behind.
   */
  async function watchQueue(network: EvmNetwork, row: PayoutRow, usedLatest: number): Promise<PayoutRow> {
    const nonce = row.nonce!;
    const from = row.fromAddress;
    const stuckLong = row.stuckSince !== null && clock.now() - row.stuckSince.getTime() >= STUCK_MS;
    const low = Math.max(usedLatest, nonce - GAP_SCAN_LIMIT);
    if (low >= nonce && !(stuckLong && usedLatest === nonce)) {
      return row.blockedByNonce !== null ? update(row, { blockedByNonce: null }) : row;
    }
    const fee = await fees(network);
    const hot = chains.hotWallet;
    if (!hot) return row;
    // Under the nonce lock: no payout is being given one of these nonces meanwhile.
    const { gaps, stuck, fillers } = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${NONCE_LOCK_CLASS}, ${network.chainId})`);
      const held = await tx
        .select()
        .from(evmPayouts)
        .where(
          and(
            eq(evmPayouts.chainId, network.chainId),
            eq(evmPayouts.fromAddress, from),
            sql`${evmPayouts.nonce} >= ${low} and ${evmPayouts.nonce} <= ${nonce}`,
            or(inArray(evmPayouts.status, [...LIVE, 'success']), isNotNull(evmPayouts.blockNumber)),
          ),
        );
      const gaps: number[] = [];
      const stuck: number[] = [];
      for (let n = low; n < nonce; n++) {
        const rows = held.filter((h) => h.nonce === n);
        const payoutAt = rows.find((h) => h.kind === 'payout' && LIVE.includes(h.status));
        if (payoutAt?.stuckSince) stuck.push(n);
        const stuckLongAt = payoutAt?.stuckSince && clock.now() - payoutAt.stuckSince.getTime() >= STUCK_MS;
        if (!rows.length || (stuckLongAt && !rows.some((h) => h.kind === 'filler'))) gaps.push(n);
      }
      if (stuckLong && usedLatest === nonce && !held.some((h) => h.nonce === nonce && h.kind === 'filler')) gaps.push(nonce);
      for (const n of gaps) {
        const signedTx = await hot.signTransaction({
          chainId: network.chainId,
          to: hot.address,
          value: 0n,
          nonce: n,
          gas: FILLER_GAS,
          ...feeFields(bumped(fee, 1)),
        });
        await tx
          .insert(evmPayouts)
          .values({
            payoutId: `filler:${network.chainId}:${from}:${n}`,
            kind: 'filler',
            chainId: network.chainId,
            token: hot.address.toLowerCase(),
            fromAddress: from,
            toAddress: from,
            amount: '0',
            nonce: n,
            signedTx,
            txHash: keccak256(signedTx),
            status: 'signed',
            attempts: 1,
            signedBlock: null,
            createdAt: now(),
            updatedAt: now(),
          })
          .onConflictDoNothing();
      }
      const fillers = await tx
        .select()
        .from(evmPayouts)
        .where(
          and(
            eq(evmPayouts.chainId, network.chainId),
            eq(evmPayouts.fromAddress, from),
            eq(evmPayouts.kind, 'filler'),
            inArray(evmPayouts.status, LIVE),
            sql`${evmPayouts.nonce} <= ${nonce}`,
          ),
        );
      return { gaps, stuck, fillers };
    });
    // What this payout waits behind: a free nonce, a payout the node does not take, or a filler not yet mined.
    const blockers = [...gaps, ...stuck, ...fillers.map((f) => f.nonce!)].filter((n) => n < nonce);
    const blockedBy = blockers.length ? Math.min(...blockers) : null;
    if (gaps.length)
      log.warn(
        { payoutId: row.payoutId, nonce, gaps },
        'evm: filling free or stuck nonces of the hot wallet with zero-value self-transfers',
      );
    for (const f of fillers) {
      await advance(f).catch((err: unknown) =>
        log.warn({ payoutId: f.payoutId, nonce: f.nonce, reason: shortReason(err) }, 'evm: filler check failed; retried later'),
      );
    }
    if (blockedBy !== null && blockedBy < nonce) {
      const waiting = await db
        .select({ payoutId: evmPayouts.payoutId })
        .from(evmPayouts)
        .where(
          and(
            eq(evmPayouts.chainId, network.chainId),
            eq(evmPayouts.fromAddress, from),
            eq(evmPayouts.kind, 'payout'),
            inArray(evmPayouts.status, LIVE),
            sql`${evmPayouts.nonce} > ${blockedBy}`,
          ),
        );
      log.warn(
        { nonce: blockedBy, payoutNonce: nonce, billIds: waiting.map((w) => w.payoutId) },
        'evm: payouts wait behind a nonce gap',
      );
    }
    const value = blockedBy !== null && blockedBy < nonce ? blockedBy : null;
    return value !== row.blockedByNonce ? update(row, { blockedByNonce: value }) : row;
  }

  /** {@link advance}, with any error turned into "pending, try again later" (a signed transaction exists). */
  async function safely(row: PayoutRow): Promise<PayoutOutcome> {
    try {
      return outcomeOf(await advance(row));
    } catch (err) {
      log.warn(
        { payoutId: row.payoutId, txHash: row.txHash, reason: shortReason(err) },
        'evm: payout check failed; retried later',
      );
      return outcomeOf((await find(row.payoutId)) ?? row);
    }
  }

  return {
    async send(request) {
      const existing = await find(request.payoutId);
      if (existing) return safely(existing);

      const hot = chains.hotWallet;
      const found = chains.byCode(request.currency);
      if (!hot) return failed('Payouts are not configured (no hot wallet)');
      if (!found || found.network.name !== request.network.toUpperCase())
        return failed(`Unsupported payout currency ${request.currency} on ${request.network}`);
      const { network, token } = found;
      if (!isAddress(request.address, { strict: false })) return failed('Invalid address format');
      const to = getAddress(request.address);
      const amount = parseUnits(
        new Big(request.currencyAmount).round(token.decimals, Big.roundDown).toFixed(token.decimals),
        token.decimals,
      );
      if (amount <= 0n) return failed('The payout amount is zero');
      const client = chains.client(network);
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
      const from = hot.address.toLowerCase();
      const base = {
        payoutId: request.payoutId,
        chainId: network.chainId,
        token: token.address,
        fromAddress: from,
        toAddress: to.toLowerCase(),
        amount: amount.toString(),
      };

      // Everything below runs while this payout's lock is held: an overlapping instance waits, then finds the row.
      const row = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${PAYOUT_LOCK_CLASS}, hashtext(${request.payoutId}))`);
        const [again] = await tx.select().from(evmPayouts).where(eq(evmPayouts.payoutId, request.payoutId));
        if (again) return again;
        const refuse = async (reason: string) => {
          const [refused] = await tx
            .insert(evmPayouts)
            .values({ ...base, status: 'failed', reason, createdAt: now(), updatedAt: now() })
            .returning();
          log.warn({ payoutId: request.payoutId, reason }, 'evm: payout refused before signing');
          return refused!;
        };
        // Preflight: a transfer that would revert (too few tokens) or cannot pay for gas is refused.
        try {
          await client.simulateContract({
            account: hot,
            address: token.address,
            abi: erc20Abi,
            functionName: 'transfer',
            args: [to, amount],
          });
        } catch (err) {
          // Only the node's own words count: viem reads any -32000 answer of an eth_call as a revert.
          if (/revert|insufficient|exceeds balance/.test(nodeText(err)))
            return refuse(`The hot wallet cannot send this transfer: ${shortReason(err)}`);
          throw err;
        }
        const gas = BigInt(network.transferGasLimit);
        const fee = await fees(network);
        const perGas = 'gasPrice' in fee ? fee.gasPrice : fee.maxFeePerGas;
        const native = await client.getBalance({ address: hot.address });
        if (native < gas * perGas) return refuse(`The hot wallet has too little ${network.nativeSymbol} for gas`);
        const signedBlock = await client.getBlockNumber({ cacheTime: 0 });

        await tx.execute(sql`select pg_advisory_xact_lock(${NONCE_LOCK_CLASS}, ${network.chainId})`);
        const pending = await client.getTransactionCount({ address: hot.address, blockTag: 'pending' });
        const [{ highest } = { highest: null }] = await tx
          .select({ highest: max(evmPayouts.nonce) })
          .from(evmPayouts)
          .where(
            and(
              eq(evmPayouts.chainId, network.chainId),
              eq(evmPayouts.fromAddress, from),
              or(inArray(evmPayouts.status, [...LIVE, 'success']), isNotNull(evmPayouts.blockNumber)),
            ),
          );
        const nonce = highest !== null && highest + 1 > pending ? highest + 1 : pending;
        const signedTx = await hot.signTransaction({
          chainId: network.chainId,
          to: token.address,
          data,
          nonce,
          gas,
          ...feeFields(fee),
        });
        const [created] = await tx
          .insert(evmPayouts)
          .values({
            ...base,
            nonce,
            signedTx,
            txHash: keccak256(signedTx),
            status: 'signed',
            signedBlock,
            createdAt: now(),
            updatedAt: now(),
          })
          .returning();
        log.info({ payoutId: request.payoutId, network: network.name, txHash: created!.txHash, nonce }, 'evm: payout signed');
        return created!;
      });
      return safely(row);
    },

    async status(payoutId) {
      const row = await find(payoutId);
      if (!row) return { status: 'unknown' };
      return safely(row);
    },

    async estimateFee(code) {
      const found = chains.byCode(code);
      if (!found) throw new Error(`evm: unknown currency ${code}`);
      const { network, token } = found;
      const gasPrice = await chains.client(network).getGasPrice();
      const wei = gasPrice * BigInt(network.transferGasLimit);
      const usd = new Big(wei.toString()).div('1e18').times(network.nativeUsdPrice);
      const feeUsd = usd.round(2, Big.roundUp).toFixed(2);
      const fee = usd.div(token.usdPrice).round(8, Big.roundUp).toFixed(8);
      return { fee, feeUsd };
    },
  };
}

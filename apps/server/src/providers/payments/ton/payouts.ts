/**
 * Hot-wallet payouts of the `ton` provider (product §15; docs/payments.md "ton — USDT on TON";
 * ADR 0056): USDT jetton transfers from a v5r1 wallet, several per external message (a batch),
 * exactly once per payout id (the withdraw bill id).
 *
 * Exactly once rests on the wallet's seqno: a signed message carries one seqno and a
 * `valid_until`, and the wallet accepts it only while its seqno equals that one and the chain time
 * is before `valid_until`. So:
 * - A batch is signed and stored (`ton_batches`, with its payouts moved to 'sent') BEFORE it is
 *   broadcast; a lost or failed broadcast answer leads to re-sending the SAME bytes, never to
 *   signing the payouts again. One batch per wallet is live at a time.
 * - A live batch is resolved only on positive proof, read from one account-state answer (seqno and
 *   chain time together) and the wallet's transactions: seqno past the batch's and the wallet's
 *   transaction for its message found -> 'landed', each payout's transfer found among its out
 *   messages ('relayed') or proven not sent ('failed'); seqno past and no transaction for the
 *   message between the batch's signing and the seqno's use -> 'superseded' (another message used
 *   the seqno; ours can never run); seqno unchanged with the chain time more than
 *   {@link EXPIRY_MARGIN_S} past `valid_until` -> 'expired' (it can never run). Only the last two
 *   put payouts back in the queue, to be signed in a new batch. Anything else (timeouts, 429, 503,
 *   a lagging answer) decides nothing: the batch is broadcast again and resolved later.
 * - A relayed payout settles on the transactions that followed the message: the hot jetton
 *   wallet's (it sends `internal_transfer` on) and the recipient jetton wallet's (it takes the
 *   jettons). Either one failing is proof nothing was paid (the jettons stay or bounce back):
 *   refunded. Success needs the recipient's jetton wallet to have taken them.
 * - Preflight before signing: a payout the hot wallet cannot cover (its USDT, or the TON each
 *   transfer carries) is refused ('failed') without signing anything.
 *
 * One instance works at a time (a PostgreSQL advisory lock), and in one process one pass at a time.
 */
import { Big } from '@coffer/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano, type Transaction } from '@ton/core';
import type { WalletContractV5R1 } from '@ton/ton';
import type { Db } from '../../../db/client';
import { tonBatches, tonPayouts } from '../../../db/schema/index';
import type { Clock } from '../../../lib/clock';
import type { AdvisoryLock } from '../evm/lock';
import type { PayoutOutcome, PayoutRequest } from '../types';
import { tonReason, type TonAccountState, type TonApi } from './api';
import type { TonSettings } from './config';
import { jettonTransferBody, jettonWalletOf, messageHash, OP_INTERNAL_TRANSFER, parseTransfer, txHashHex, txSucceeded } from './jetton';

/** Seconds past a batch's `valid_until` (chain time) before an unused seqno proves it never runs. */
export const EXPIRY_MARGIN_S = 60;
/** Transactions per page when the wallet's history is read. */
const PAGE = 50;
/** Most pages read back looking for a batch's transaction in one pass (the wallet's own history since signing). */
const MAX_PAGES = 40;
/** TON kept on the hot wallet beyond the transfers' own: the external message's fees and storage. */
const WALLET_RESERVE = toNano('0.05');
/** Live payout states. */
const LIVE = ['queued', 'sent', 'relayed', 'moved'];

type PayoutRow = typeof tonPayouts.$inferSelect;
type BatchRow = typeof tonBatches.$inferSelect;

/** The hot wallet: its contract (address, state init) and signing key. */
export interface HotWallet {
  contract: WalletContractV5R1;
  secretKey: Buffer;
}

export interface TonPayouts {
  send(request: PayoutRequest): Promise<PayoutOutcome>;
  status(payoutId: string): Promise<PayoutOutcome>;
  /** One pass over the live batch and the payouts on their way (the worker calls it through status). */
  progress(): Promise<void>;
}

/** The seqno stored in a v5r1 wallet's data (after the 1-bit signature flag), 0 when not deployed. */
export function walletSeqno(state: TonAccountState): number {
  if (state.state !== 'active' || !state.data) return 0;
  const s = state.data.beginParse();
  s.loadBit();
  return s.loadUint(32);
}

/** A 256-bit hash as a bigint (a transaction's prev hash) to its 32 bytes. */
export const hashBytes = (h: bigint): Buffer => Buffer.from(h.toString(16).padStart(64, '0'), 'hex');

/**
 * Finds, in `address`'s transactions from `from` (the newest to read, included) back to those with
 * lt <= `afterLt` (excluded), the first one `match` accepts. Follows each transaction's
 * `prevTransaction` pointers, so an answer with repeated or missing entries is caught.
 * @param maxPages pages of {@link PAGE} transactions read at most
 * @returns the transaction, or null after a complete read without a match
 * @throws when an answer does not continue the chain (try again later), or past `maxPages`
 */
export async function findBack(
  api: TonApi,
  address: Address,
  from: { lt: bigint; hash: Buffer },
  afterLt: bigint,
  match: (tx: Transaction) => boolean,
  maxPages = MAX_PAGES,
): Promise<Transaction | null> {
  let next: { lt: bigint; hash: Buffer } | null = from;
  for (let page = 0; next && next.lt > afterLt; page++) {
    if (page >= maxPages) throw new Error(`ton: more than ${maxPages * PAGE} transactions to read back; retried later`);
    const txs = await api.getTransactions(address, { limit: PAGE, lt: next.lt, hash: next.hash });
    if (!txs.length) throw new Error('ton: the API answered no transactions where the chain has some');
    let expected: { lt: bigint; hash: Buffer } | null = next;
    for (const tx of txs) {
      if (!expected || expected.lt <= afterLt) break;
      if (tx.lt !== expected.lt || !tx.hash().equals(expected.hash)) {
        // A repeated entry is skipped; anything else is an answer out of order.
        if (tx.lt > expected.lt) continue;
        throw new Error('ton: the API answered transactions out of chain order');
      }
      if (match(tx)) return tx;
      expected = tx.prevTransactionLt > 0n ? { lt: tx.prevTransactionLt, hash: hashBytes(tx.prevTransactionHash) } : null;
    }
    next = expected;
  }
  return null;
}

export function createTonPayouts(deps: {
  db: Db;
  api: TonApi;
  clock: Clock;
  log: FastifyBaseLogger;
  settings: TonSettings;
  code: string;
  hot: HotWallet | null;
  lock: AdvisoryLock;
}): TonPayouts {
  const { db, api, clock, log, settings } = deps;
  const hot = deps.hot;
  const walletRaw = hot ? hot.contract.address.toRawString() : '';
  const attach = toNano(settings.jettonTransferTon);
  let hotJetton: Address | null = null;
  const now = () => new Date(clock.now());

  async function hotJettonWallet(): Promise<Address> {
    hotJetton ??= await jettonWalletOf(api, settings.usdtMaster, hot!.contract.address);
    return hotJetton;
  }

  async function find(payoutId: string): Promise<PayoutRow | null> {
    const [row] = await db.select().from(tonPayouts).where(eq(tonPayouts.payoutId, payoutId));
    return row ?? null;
  }

  function outcomeOf(row: PayoutRow): PayoutOutcome {
    if (row.status === 'success') return { status: 'success', txid: row.txid! };
    if (row.status === 'failed') return { status: 'failed', reason: row.reason ?? 'Payout failed' };
    return { status: 'pending', txid: null };
  }

  /** Compare-and-set on the payout's status. @returns whether this call moved it */
  async function move(row: PayoutRow, from: string, patch: Partial<typeof tonPayouts.$inferInsert>): Promise<boolean> {
    const done = await db
      .update(tonPayouts)
      .set({ ...patch, updatedAt: now() })
      .where(and(eq(tonPayouts.payoutId, row.payoutId), eq(tonPayouts.status, from)))
      .returning({ id: tonPayouts.payoutId });
    if (done.length && patch.status === 'failed')
      log.warn({ payoutId: row.payoutId, reason: patch.reason }, 'ton: payout failed');
    if (done.length && patch.status === 'success') log.info({ payoutId: row.payoutId, txid: patch.txid }, 'ton: payout confirmed');
    return done.length > 0;
  }

  /** Puts the live payouts of a batch that can never run back in the queue, and closes the batch. */
  async function requeue(batch: BatchRow, status: 'expired' | 'superseded'): Promise<void> {
    await db.transaction(async (tx) => {
      const closed = await tx
        .update(tonBatches)
        .set({ status, updatedAt: now() })
        .where(and(eq(tonBatches.id, batch.id), eq(tonBatches.status, 'signed')))
        .returning({ id: tonBatches.id });
      if (!closed.length) return;
      await tx
        .update(tonPayouts)
        .set({ status: 'queued', batchId: null, updatedAt: now() })
        .where(and(eq(tonPayouts.batchId, batch.id), eq(tonPayouts.status, 'sent')));
    });
    const level = status === 'superseded' ? 'error' : 'warn';
    log[level](
      { batchId: batch.id, seqno: batch.seqno },
      status === 'superseded'
        ? 'ton: another message used the batch seqno (is the hot wallet key used elsewhere?); its payouts are queued again'
        : 'ton: batch expired without landing; its payouts are queued again',
    );
  }

  /** Settles a batch whose message the wallet ran (`tx`): each payout relayed, or failed on proof. */
  async function landed(batch: BatchRow, tx: Transaction): Promise<void> {
    const jettonWallet = await hotJettonWallet();
    const payouts = await db
      .select()
      .from(tonPayouts)
      .where(and(eq(tonPayouts.batchId, batch.id), eq(tonPayouts.status, 'sent')));
    const sent = new Map<bigint, bigint>();
    for (const out of tx.outMessages.values()) {
      if (out.info.type !== 'internal' || !out.info.dest.equals(jettonWallet)) continue;
      const t = parseTransfer(out.body);
      if (t) sent.set(t.queryId, out.info.createdLt);
    }
    for (const p of payouts) {
      const lt = sent.get(p.queryId);
      if (lt !== undefined) await move(p, 'sent', { status: 'relayed', msgLt: lt });
      else
        await move(p, 'sent', {
          status: 'failed',
          reason: 'The hot wallet did not send the transfer (too little TON on the hot wallet?)',
        });
    }
    await db
      .update(tonBatches)
      .set({ status: 'landed', txHash: txHashHex(tx), txLt: tx.lt, updatedAt: now() })
      .where(and(eq(tonBatches.id, batch.id), eq(tonBatches.status, 'signed')));
    log.info({ batchId: batch.id, seqno: batch.seqno, payouts: payouts.length, txHash: txHashHex(tx) }, 'ton: batch landed');
  }

  /**
   * Resolves the live batch. @returns 'live' while it may still run (it was broadcast again),
   * 'closed' once it landed or was proven never to run
   */
  async function resolve(batch: BatchRow): Promise<'live' | 'closed'> {
    const wallet = hot!.contract.address;
    const state = await api.getAccountState(wallet);
    const seqno = walletSeqno(state);
    if (seqno > batch.seqno) {
      // Only a run that went through counts: one that failed rolled back and used no seqno, sent nothing.
      const tx = await findBack(api, wallet, state.lastTransaction!, batch.afterLt, (t) => {
        const m = t.inMessage;
        return !!m && m.info.type === 'external-in' && txSucceeded(t) && messageHash(m) === batch.msgHash;
      });
      if (tx) await landed(batch, tx);
      else await requeue(batch, 'superseded');
      return 'closed';
    }
    if (seqno < batch.seqno) throw new Error('ton: the API answered a wallet state older than a batch it already ran; retried later');
    if (state.time > batch.validUntil + EXPIRY_MARGIN_S) {
      await requeue(batch, 'expired');
      return 'closed';
    }
    await api
      .sendBoc(Buffer.from(batch.boc, 'base64'))
      .catch((err: unknown) => log.warn({ batchId: batch.id, reason: tonReason(err) }, 'ton: batch broadcast failed; retried later'));
    return 'live';
  }

  /** Signs the queued payouts (oldest first, at most `TON_BATCH_MAX`) into one batch, stores it, then broadcasts it. */
  async function signBatch(): Promise<void> {
    const queued = await db
      .select()
      .from(tonPayouts)
      .where(and(eq(tonPayouts.wallet, walletRaw), eq(tonPayouts.status, 'queued')))
      .orderBy(asc(tonPayouts.createdAt), asc(tonPayouts.queryId))
      .limit(settings.batchMax);
    if (!queued.length) return;
    const wallet = hot!.contract;
    const jettonWallet = await hotJettonWallet();
    const state = await api.getAccountState(wallet.address);
    const seqno = walletSeqno(state);
    // Preflight: what the hot wallet can cover now. A payout it cannot is refused before anything is signed.
    const jettonState = await api.getAccountState(jettonWallet);
    let jettons = 0n;
    if (jettonState.state === 'active') jettons = (await api.runGetMethod(jettonWallet, 'get_wallet_data', [])).readBigNumber();
    let ton = state.balance - WALLET_RESERVE;
    const chosen: PayoutRow[] = [];
    for (const p of queued) {
      const amount = BigInt(p.amount);
      if (amount > jettons) {
        await move(p, 'queued', { status: 'failed', reason: 'The hot wallet holds too few USDT for this payout' });
        continue;
      }
      if (attach > ton) {
        await move(p, 'queued', { status: 'failed', reason: 'The hot wallet has too little TON for the transfer fee' });
        continue;
      }
      jettons -= amount;
      ton -= attach;
      chosen.push(p);
    }
    if (!chosen.length) return;
    const validUntil = state.time + settings.messageTtlS;
    const body = wallet.createTransfer({
      seqno,
      secretKey: hot!.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
      timeout: validUntil,
      messages: chosen.map((p) =>
        internal({
          to: jettonWallet,
          value: attach,
          bounce: true,
          body: jettonTransferBody({
            queryId: p.queryId,
            amount: BigInt(p.amount),
            destination: Address.parse(p.toAddress),
            responseDestination: wallet.address,
            forwardTonAmount: BigInt(settings.forwardTonNano),
            memo: p.memo,
          }),
        }),
      ),
    });
    const message = external({ to: wallet.address, init: state.state === 'active' ? null : wallet.init, body });
    const boc = beginCell().store(storeMessage(message)).endCell().toBoc();
    const batch: typeof tonBatches.$inferInsert = {
      id: `${walletRaw}:${seqno}:${validUntil}`,
      wallet: walletRaw,
      seqno,
      boc: boc.toString('base64'),
      msgHash: messageHash(message),
      validUntil,
      afterLt: state.lastTransaction?.lt ?? 0n,
      status: 'signed',
      createdAt: now(),
      updatedAt: now(),
    };
    await db.transaction(async (tx) => {
      await tx.insert(tonBatches).values(batch);
      const moved = await tx
        .update(tonPayouts)
        .set({ status: 'sent', batchId: batch.id, batches: sql`${tonPayouts.batches} + 1`, updatedAt: now() })
        .where(
          and(
            inArray(
              tonPayouts.payoutId,
              chosen.map((p) => p.payoutId),
            ),
            eq(tonPayouts.status, 'queued'),
          ),
        )
        .returning({ id: tonPayouts.payoutId });
      if (moved.length !== chosen.length) throw new Error('ton: payouts changed while a batch was signed; retried later');
    });
    log.info({ batchId: batch.id, seqno, payouts: chosen.length }, 'ton: batch signed');
    await api
      .sendBoc(boc)
      .catch((err: unknown) => log.warn({ batchId: batch.id, reason: tonReason(err) }, 'ton: batch broadcast failed; retried later'));
  }

  /** Follows a relayed or moved payout through the jetton wallets' transactions. */
  async function follow(p: PayoutRow): Promise<void> {
    const jettonWallet = await hotJettonWallet();
    if (p.status === 'relayed') {
      const jt = await api.findResultTransaction(hot!.contract.address, jettonWallet, p.msgLt!);
      if (!jt) return;
      if (!txSucceeded(jt)) {
        await move(p, 'relayed', { status: 'failed', reason: 'The hot jetton wallet refused the transfer (too few USDT?); nothing was sent' });
        return;
      }
      for (const out of jt.outMessages.values()) {
        if (out.info.type !== 'internal') continue;
        const s = out.body.beginParse();
        if (s.remainingBits < 32 || s.loadUint(32) !== OP_INTERNAL_TRANSFER) continue;
        await move(p, 'relayed', { status: 'moved', jettonTxLt: jt.lt, forwardLt: out.info.createdLt, destWallet: out.info.dest.toRawString() });
        p = (await find(p.payoutId))!;
        break;
      }
      if (p.status === 'relayed') throw new Error(`ton: the jetton wallet's transaction of payout ${p.payoutId} sent no internal_transfer`);
    }
    if (p.status === 'moved') {
      const dt = await api.findResultTransaction(jettonWallet, Address.parseRaw(p.destWallet!), p.forwardLt!);
      if (!dt) return;
      if (!txSucceeded(dt))
        await move(p, 'moved', { status: 'failed', reason: "The recipient's jetton wallet refused the transfer; the USDT came back" });
      else await move(p, 'moved', { status: 'success', txid: txHashHex(dt) });
    }
  }

  async function pass(): Promise<void> {
    if (!hot) return;
    if (!(await deps.lock.tryAcquire())) return;
    try {
      const [live] = await db
        .select()
        .from(tonBatches)
        .where(and(eq(tonBatches.wallet, walletRaw), eq(tonBatches.status, 'signed')));
      let error: unknown = null;
      try {
        if (!live || (await resolve(live)) === 'closed') await signBatch();
      } catch (err) {
        error = err;
      }
      const moving = await db
        .select()
        .from(tonPayouts)
        .where(and(eq(tonPayouts.wallet, walletRaw), inArray(tonPayouts.status, ['relayed', 'moved'])));
      for (const p of moving) {
        await follow(p).catch((err: unknown) =>
          log.warn({ payoutId: p.payoutId, reason: tonReason(err) }, 'ton: payout check failed; retried later'),
        );
      }
      if (error) throw error;
    } finally {
      await deps.lock.release();
    }
  }

  // One pass at a time in this process; a caller that arrives while one runs waits for the next
  // one to start after it, and skips its own if another caller's pass started after it arrived.
  let tail: Promise<void> = Promise.resolve();
  let started = 0;
  function progress(): Promise<void> {
    const seen = started;
    const run = tail.then(async () => {
      if (started > seen) return;
      started++;
      await pass();
    });
    tail = run.catch(() => {});
    return run;
  }

  async function settled(payoutId: string): Promise<PayoutOutcome> {
    try {
      await progress();
    } catch (err) {
      log.warn({ payoutId, reason: tonReason(err) }, 'ton: payout pass failed; retried later');
    }
    const row = await find(payoutId);
    return row ? outcomeOf(row) : { status: 'unknown' };
  }

  return {
    progress,
    async send(request) {
      const existing = await find(request.payoutId);
      if (existing) return LIVE.includes(existing.status) ? settled(request.payoutId) : outcomeOf(existing);
      if (!hot) return { status: 'failed', reason: 'Payouts are not configured (no hot wallet)' };
      if (request.currency !== deps.code || request.network.toUpperCase() !== 'TON')
        return { status: 'failed', reason: `Unsupported payout currency ${request.currency} on ${request.network}` };
      let to: Address;
      try {
        to = Address.parse(request.address.trim());
      } catch {
        return { status: 'failed', reason: 'Invalid address format' };
      }
      const amount = BigInt(
        new Big(request.currencyAmount).times(new Big(10).pow(settings.decimals)).round(0, Big.roundDown).toFixed(0),
      );
      if (amount <= 0n) return { status: 'failed', reason: 'The payout amount is zero' };
      const next = (await db.execute(sql`select nextval('ton_query_id_seq')::text as q`)) as unknown as { rows: { q: string }[] };
      await db
        .insert(tonPayouts)
        .values({
          payoutId: request.payoutId,
          queryId: BigInt(next.rows[0]!.q),
          wallet: walletRaw,
          toAddress: to.toRawString(),
          amount: amount.toString(),
          memo: request.memo.trim(),
          status: 'queued',
          createdAt: now(),
          updatedAt: now(),
        })
        .onConflictDoNothing();
      return settled(request.payoutId);
    },
    async status(payoutId) {
      const row = await find(payoutId);
      if (!row) return { status: 'unknown' };
      if (!LIVE.includes(row.status)) return outcomeOf(row);
      return settled(payoutId);
    },
  };
}

/**
 * The TON deposit watcher (product §14; docs/payments.md "ton — USDT on TON"; ADR 0055): a
 * background worker that reads the deposit wallet's USDT jetton wallet's transactions and credits
 * each received transfer whose comment is a bill's memo.
 *
 * One pass ({@link TonWatcher.tick}):
 * 1. Read: the jetton wallet's newest transaction from its account state, then its transactions
 *    back to the stored position (`ton_scan_state`), following each transaction's previous-hash
 *    link so that a missing, repeated or reordered answer is noticed (the pass stops; nothing is
 *    skipped). A lagging answer only means the newest transactions come in a later pass.
 * 2. Record (one database transaction with the new position): every successful `internal_transfer`
 *    is stored once, keyed by (tx hash, lt). It is 'pending' for its bill when the sending jetton
 *    wallet is the USDT master's wallet of the named sender (`get_wallet_address`: a fake jetton of
 *    the same name comes from another address) and the comment is a known memo; otherwise 'ignored'
 *    with the reason (fake-jetton, no-memo, unknown-memo, zero-value, dust). Failed transactions
 *    (an internal_transfer the jetton wallet refused) received nothing and are skipped.
 * 3. Credit: pending transfers, oldest first, each under the payment reference `ton:<lt>:<tx hash>`
 *    (unique per real transfer, the same on every read). A transaction read from the API is in a
 *    block the masterchain committed: one confirmation, final on TON. A transfer more than
 *    `TON_LATE_PAYMENT_HOURS` after its bill expired is ignored ('late'). A crediting error waits
 *    with backoff (30 s doubling, at most 1 h) and never blocks the others.
 *
 * Several instances are safe: a pass runs only while it holds a PostgreSQL advisory lock.
 */
import { Big } from '@coffer/contract';
import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Address, Transaction } from '@ton/core';
import type { Db } from '../../../db/client';
import { tonDeposits, tonScanState, tonTransfers } from '../../../db/schema/index';
import type { Clock } from '../../../lib/clock';
import { AppError } from '../../../lib/errors';
import type { AdvisoryLock } from '../evm/lock';
import type { ReceivedPayment } from '../types';
import { tonReason, type TonApi } from './api';
import type { TonSettings } from './config';
import { jettonWalletOf, normalizeMemo, parseInternalTransfer, txHashHex, txSucceeded } from './jetton';
import { findBack } from './payouts';

const HOUR_MS = 3_600_000;

/** Backoff of a transfer whose crediting failed: 30 s doubling per attempt, at most an hour (ms). */
export const retryDelayMs = (attempts: number): number => Math.min(HOUR_MS, 30_000 * 2 ** Math.min(attempts - 1, 20));

/** The reference a transfer is credited under: unique per real transfer, the same on every read. */
export const paymentRefOf = (lt: bigint, txHash: string): string => `ton:${lt}:${txHash}`;

export interface TonPass {
  /** Transfers recorded in this pass (new rows). */
  found: number;
  credited: number;
  ignored: number;
  failed: number;
}

export interface TonWatcher {
  name: string;
  intervalMs: number;
  /** One pass. @returns null when another instance holds the lock */
  tick(): Promise<TonPass | null>;
  close(): Promise<void>;
}

export interface TonWatcherDeps {
  db: Db;
  api: TonApi;
  clock: Clock;
  log: FastifyBaseLogger;
  lock: AdvisoryLock;
  settings: TonSettings;
  code: string;
  /** The deposit wallet (owner address). */
  owner: Address;
  /** The deposit wallet's USDT jetton wallet (computed once from the master). */
  depositJettonWallet(): Promise<Address>;
  credit(payment: ReceivedPayment): Promise<unknown>;
}

/** Base units to a decimal string of whole tokens. */
export function formatUnits(value: bigint, decimals: number): string {
  return new Big(value.toString()).div(new Big(10).pow(decimals)).toFixed();
}

/** Stores the watcher's first position (the jetton wallet's newest transaction, or none) unless one exists. */
export async function initScanPosition(db: Db, account: string, newest: { lt: bigint; hash: Buffer } | null, nowMs: number): Promise<void> {
  await db
    .insert(tonScanState)
    .values({ account, lastLt: newest?.lt ?? 0n, lastHash: newest?.hash.toString('hex') ?? '', updatedAt: new Date(nowMs) })
    .onConflictDoNothing();
}

export function createTonWatcher(deps: TonWatcherDeps): TonWatcher {
  const { db, api, clock, log, settings } = deps;
  const dustUnits = BigInt(new Big(settings.dust).times(new Big(10).pow(settings.decimals)).round(0, Big.roundUp).toFixed(0));
  /** The master's wallet for each sender owner seen (raw owner -> raw jetton wallet). */
  const expectedWallets = new Map<string, string>();

  async function expectedWalletOf(owner: Address): Promise<string> {
    const key = owner.toRawString();
    let w = expectedWallets.get(key);
    if (!w) {
      w = (await jettonWalletOf(api, settings.usdtMaster, owner)).toRawString();
      expectedWallets.set(key, w);
    }
    return w;
  }

  /** The transfers of the transactions newer than the stored position, oldest first, and the new position. */
  async function read(jw: Address, pass: TonPass): Promise<void> {
    const account = jw.toRawString();
    const [stored] = await db.select().from(tonScanState).where(eq(tonScanState.account, account));
    const state = await api.getAccountState(jw);
    const newest = state.lastTransaction;
    if (!stored) {
      // A fresh database: start where the jetton wallet stands (bills made from now on carry new memos).
      await initScanPosition(db, account, newest, clock.now());
      return;
    }
    const lastLt = stored.lastLt;
    if (!newest || newest.lt <= lastLt) return;
    const txs: Transaction[] = [];
    // Up to 50 000 transactions since the last pass (a day of heavy deposits after an outage).
    await findBack(
      api,
      jw,
      newest,
      lastLt,
      (tx) => {
        txs.push(tx);
        return false;
      },
      1_000,
    );
    txs.reverse();
    const rows: (typeof tonTransfers.$inferInsert)[] = [];
    const memos = new Map<string, string>();
    for (const tx of txs) {
      const m = tx.inMessage;
      if (!m || m.info.type !== 'internal' || !txSucceeded(tx)) continue;
      const it = parseInternalTransfer(m.body);
      if (!it) continue;
      const source = m.info.src;
      // The sending jetton wallet must be the USDT master's wallet of the sender it names (or the master minting).
      let genuine = source.equals(settings.usdtMaster);
      if (!genuine && it.from) genuine = (await expectedWalletOf(it.from)) === source.toRawString();
      const memo = it.comment ? normalizeMemo(it.comment) : null;
      if (memo) memos.set(memo, '');
      rows.push({
        account,
        txHash: txHashHex(tx),
        lt: tx.lt,
        txTime: tx.now,
        sourceWallet: source.toRawString(),
        fromOwner: it.from?.toRawString() ?? null,
        amount: it.amount.toString(),
        memo: it.comment,
        billId: null,
        status: 'pending',
        reason: !genuine ? 'fake-jetton' : it.amount <= 0n ? 'zero-value' : it.amount < dustUnits ? 'dust' : !memo ? 'no-memo' : null,
        createdAt: new Date(clock.now()),
      });
    }
    if (memos.size) {
      const bills = await db
        .select({ memo: tonDeposits.memo, billId: tonDeposits.billId })
        .from(tonDeposits)
        .where(inArray(tonDeposits.memo, [...memos.keys()]));
      for (const b of bills) memos.set(b.memo, b.billId);
    }
    for (const r of rows) {
      const billId = r.memo ? memos.get(normalizeMemo(r.memo)) || null : null;
      if (!r.reason && !billId) r.reason = 'unknown-memo';
      r.billId = billId;
      if (r.reason) {
        r.status = 'ignored';
        r.settledAt = new Date(clock.now());
        const context = { txHash: r.txHash, lt: String(r.lt), amount: r.amount, memo: r.memo, reason: r.reason, billId };
        if (r.reason === 'no-memo' || r.reason === 'unknown-memo')
          log.warn(context, 'ton: USDT received without a known memo; not credited (refund or credit by hand)');
        else if (r.reason === 'fake-jetton') log.warn(context, 'ton: transfer from a jetton wallet of another master (fake USDT); not credited');
        else log.info(context, 'ton: transfer ignored');
      }
    }
    const top = txs[txs.length - 1]!;
    await db.transaction(async (tx) => {
      if (rows.length) {
        const inserted = await tx.insert(tonTransfers).values(rows).onConflictDoNothing().returning({ h: tonTransfers.txHash });
        pass.found += inserted.length;
      }
      await tx
        .insert(tonScanState)
        .values({ account, lastLt: top.lt, lastHash: txHashHex(top), updatedAt: new Date(clock.now()) })
        .onConflictDoUpdate({
          target: tonScanState.account,
          set: { lastLt: top.lt, lastHash: txHashHex(top), updatedAt: new Date(clock.now()) },
          setWhere: lte(tonScanState.lastLt, top.lt),
        });
    });
  }

  async function creditDue(jw: Address, pass: TonPass): Promise<void> {
    const account = jw.toRawString();
    const due = await db
      .select()
      .from(tonTransfers)
      .where(
        and(
          eq(tonTransfers.account, account),
          eq(tonTransfers.status, 'pending'),
          or(isNull(tonTransfers.nextAttemptAt), lte(tonTransfers.nextAttemptAt, new Date(clock.now()))),
        ),
      )
      .orderBy(asc(tonTransfers.lt));
    if (!due.length) return;
    const bills = await db
      .select()
      .from(tonDeposits)
      .where(
        inArray(
          tonDeposits.billId,
          due.map((d) => d.billId!),
        ),
      );
    const billOf = new Map(bills.map((b) => [b.billId, b]));
    for (const t of due) {
      const where = and(eq(tonTransfers.txHash, t.txHash), eq(tonTransfers.lt, t.lt), eq(tonTransfers.status, 'pending'));
      const currencyAmount = formatUnits(BigInt(t.amount), settings.decimals);
      const context = { txHash: t.txHash, lt: String(t.lt), billId: t.billId, currencyAmount };
      const ignore = async (reason: string) => {
        await db.update(tonTransfers).set({ status: 'ignored', reason, settledAt: new Date(clock.now()) }).where(where);
        pass.ignored++;
      };
      try {
        const bill = billOf.get(t.billId!);
        if (!bill) throw new Error(`no deposit row for bill ${t.billId}`);
        if (t.txTime * 1000 > bill.expiresAt.getTime() + settings.latePaymentHours * HOUR_MS) {
          log.warn(context, 'ton: payment after the late-payment window; not credited (refund or credit by hand)');
          await ignore('late');
          continue;
        }
        try {
          await deps.credit({ billId: t.billId!, paymentRef: paymentRefOf(t.lt, t.txHash), currencyAmount });
        } catch (err) {
          if (!(err instanceof AppError && err.reason === 'NOT_FOUND')) throw err;
          log.error(context, 'ton: payment with the memo of an unknown bill; not credited');
          await ignore('unknown-bill');
          continue;
        }
        await db
          .update(tonTransfers)
          .set({ status: 'credited', reason: null, nextAttemptAt: null, settledAt: new Date(clock.now()) })
          .where(where);
        log.info(context, 'ton: deposit credited');
        pass.credited++;
      } catch (err) {
        const attempts = t.attempts + 1;
        const reason = tonReason(err);
        await db
          .update(tonTransfers)
          .set({ attempts, reason, nextAttemptAt: new Date(clock.now() + retryDelayMs(attempts)) })
          .where(where)
          .catch((e: unknown) => log.error({ ...context, reason: tonReason(e) }, 'ton: could not record a crediting failure'));
        log.error({ ...context, attempts, reason }, 'ton: crediting a transfer failed; retried later, the others go on');
        pass.failed++;
      }
    }
  }

  return {
    name: 'ton-watcher',
    intervalMs: settings.pollMs,
    async tick() {
      if (!(await deps.lock.tryAcquire())) return null;
      const pass: TonPass = { found: 0, credited: 0, ignored: 0, failed: 0 };
      try {
        const jw = await deps.depositJettonWallet();
        try {
          await read(jw, pass);
        } catch (err) {
          // Transfers already recorded are still credited; the next pass reads on from the saved position.
          log.warn({ reason: tonReason(err) }, 'ton: reading the deposit transactions failed; retried next pass');
        }
        await creditDue(jw, pass);
        return pass;
      } finally {
        await deps.lock.release();
      }
    },
    close: () => deps.lock.close(),
  };
}

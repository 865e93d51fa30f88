/**
 * Cash-out (product §7 withdraw calls, product §5 cash-out rules, product §15). Rules:
 *
 * - Amounts: the request's `amount` is points (product §5 "crypto amount sent" = USD x rate, up to 8
 *   decimals), kept at 2 decimals (rounded down). Its USD value is `amount / POINTS_PER_USD`; the
 *   crypto sent is that value at the currency's price minus the network fee (8 decimals, rounded
 *   down). Only USDT currencies pay out (product §9).
 * - `withdraw/create` checks the currency and network, the address (wallet_regex), the memo
 *   (extra_id_regex, when the currency needs one), the minimum (`fiatEquivalent` USD), that the
 *   amount exceeds the fee, and the available balance; it stores a WithdrawStatusPending bill and
 *   changes no balance. Unconfirmed bills expire after 15 minutes (WithdrawStatusExpired).
 * - `withdraw/confirm` checks the login password against the user's shared password budget
 *   (account/password-budget.ts: 10 wrong in 15 minutes across every password call), then in one transaction freezes the amount (`withdraw-freeze:<bill>`),
 *   sets the bill WithdrawStatusProcessing and queues the payout, and writes the CashOut/Outgoing/
 *   Pending record. Confirming again changes nothing and returns the same bill.
 * - The payout worker claims queued bills (`FOR UPDATE SKIP LOCKED` plus a lease), saves the claim,
 *   then asks the provider to pay (idempotent by bill id), at most `payoutConcurrency` at once (capped
 *   by the provider's `maxPayoutConcurrency`). {@link drainPayouts} keeps claiming batches while work
 *   remains; a confirmed bill wakes it at once (`onPayoutWork`, and `NOTIFY coffer_payouts` sent on
 *   commit for the other instances, see payout-wake.ts). Success: the frozen amount is debited —
 *   net to the withdrawals platform account, the fee to the fees account (`withdraw-settle:<bill>`) —
 *   WithdrawStatusSuccess, record Success. Failure: the frozen amount returns to available
 *   (`withdraw-refund:<bill>`), WithdrawStatusRefunded, record Refunded. A crash anywhere leaves the
 *   bill claimable after its lease; the provider never pays one bill twice.
 */
import {
  Big,
  formatAmount,
  groupThousands,
  minorToPoints,
  PaymentMessages,
  pointsToMinor,
  RecordStatus,
  WITHDRAW_CONFIRM_WINDOW_SECONDS,
  WithdrawStatus,
  type FeeEstimateResult,
  type WithdrawBill,
  type WithdrawCreateRequest,
  type WithdrawEstimateFeeRequest,
} from '@coffer/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { PayoutOutcome, ProviderCurrency } from '../../providers/payments/index';
import type { Credentials } from '../account/credentials';
import type { TwoFactorService } from '../account/two-factor.service';
import { payoutStatusEvent, type EventWriter } from '../events/events.service';
import { LedgerTransactionKind, type LedgerService } from '../ledger/ledger.service';
import { matchesPattern, type PaymentsService } from '../payments/payments.service';
import type { RecordsService } from '../records/records.service';
import * as repo from './withdrawals.repository';

/** How long a payout claim holds before another worker pass may take the bill over. */
export const PAYOUT_LEASE_MS = 60_000;
/** How long to wait before asking the provider again about a pending payout. */
export const PAYOUT_RECHECK_MS = 15_000;
/** Default of `PAYOUT_CONCURRENCY`: payouts one pass sends at once. */
export const DEFAULT_PAYOUT_CONCURRENCY = 16;
/** PostgreSQL channel a confirmation notifies (payload: the provider name) to wake every payout worker. */
export const PAYOUT_WAKE_CHANNEL = 'coffer_payouts';

export interface WithdrawalsDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  records: RecordsService;
  /** The password check of a confirmation (the account module's shared password budget). */
  credentials: Pick<Credentials, 'checkPassword'>;
  /** The second factor of a confirmation when two-factor sign-in is on (product §26). */
  twoFactor: Pick<TwoFactorService, 'checkSecondFactor'>;
  payments: PaymentsService;
  /** Writes the `payout.status` event of each status change in its transaction (product §23). */
  events: EventWriter;
  log?: FastifyBaseLogger;
  /** Payouts one pass sends at once, before the provider's own cap (default {@link DEFAULT_PAYOUT_CONCURRENCY}). */
  payoutConcurrency?: number;
  /**
   * Refuses a suspended account (product §27: cash-out refused until the suspension is lifted);
   * built by services.ts from the moderation module. @throws ACCOUNT_SUSPENDED
   */
  refuseSuspended?: (userId: string) => Promise<void>;
}

const crypto8 = (v: string | Big): string => new Big(v).round(8, Big.roundDown).toFixed(8);

/** product §3 withdraw bill as the API sends it. */
export function toWithdrawBill(row: repo.WithdrawBillRow): WithdrawBill {
  return {
    id: row.id,
    user_id: row.userId,
    amount: minorToPoints(row.amount),
    amount_usd: minorToPoints(row.amountUsd),
    fee_fiat: minorToPoints(row.feeUsd),
    currency_amount: crypto8(row.currencyAmount),
    currency: row.currency,
    network: row.network,
    address: row.address,
    memo: row.memo,
    status: row.status as WithdrawStatus,
    created_at: String(row.createdAt.getTime()),
    expires_at: row.expiresAt.getTime(),
    txid: row.txid,
    failure_reason: row.failureReason,
  };
}

/**
 * True when `userId` has a confirmed cash-out whose payout is not final (status Processing), read
 * in `db` (the account deletion's transaction: a deletion waits for it, product §12).
 */
export function hasCashOutInFlight(db: DbOrTx, userId: string): Promise<boolean> {
  return repo.hasInFlight(db, userId);
}

export interface PayoutRunSummary {
  claimed: number;
  succeeded: number;
  refunded: number;
  pending: number;
  failedToRun: number;
}

/** Runs `task` over `items` with at most `limit` at once; resolves when all have settled. */
async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}

export function createWithdrawalsService(deps: WithdrawalsDeps) {
  const { db, clock, ledger, records, credentials, twoFactor, payments } = deps;
  const provider = payments.provider;
  const rate = payments.pointsPerUsd;
  /** Payouts in flight at once in one pass: the configured value, capped by what the rail allows. */
  const concurrency = Math.max(
    1,
    Math.min(deps.payoutConcurrency ?? DEFAULT_PAYOUT_CONCURRENCY, provider.maxPayoutConcurrency ?? Number.MAX_SAFE_INTEGER),
  );
  /** A drain claims this many bills at a time: enough to keep every lane busy, few enough to finish well within the lease. */
  const drainBatch = Math.max(50, concurrency * 8);
  const wakeListeners = new Set<() => void>();
  const wake = () => {
    for (const listener of wakeListeners) {
      try {
        listener();
      } catch (err) {
        deps.log?.error({ err }, 'payout wake-up listener failed');
      }
    }
  };

  /** The payout currency of `code`. @throws VALIDATION_FAILED for an unknown or non-USDT currency */
  async function payoutCurrency(code: string): Promise<ProviderCurrency> {
    const currency = await payments.currency(code);
    if (!currency.payout) throw errors.validation('Only USDT can be cashed out');
    return currency;
  }

  /** Prices a cash-out of `amountText` points in `currency`. */
  async function quote(currency: ProviderCurrency, amountText: string) {
    const points = new Big(amountText).round(2, Big.roundDown);
    if (points.lte(0)) throw errors.validation('The amount must be above 0');
    const usd = points.div(rate);
    const price = await provider.priceUsd(currency.code);
    const gross = usd.div(price).round(8, Big.roundDown);
    const fee = await provider.estimatePayoutFee({ code: currency.code, currencyAmount: gross.toFixed(8) });
    const feeUsd = new Big(fee.feeUsd).round(2, Big.roundUp);
    return {
      amount: pointsToMinor(points.toFixed(2)),
      amountUsd: usd.round(2, Big.roundDown),
      fee: new Big(fee.fee),
      feeUsd,
      feePoints: pointsToMinor(feeUsd.times(rate).round(2, Big.roundUp).toFixed(2)),
      net: gross.minus(fee.fee).round(8, Big.roundDown),
    };
  }

  /** The caller's bill. @throws NOT_FOUND for a missing bill or another user's */
  async function ownBill(callerId: string, billId: string): Promise<repo.WithdrawBillRow> {
    const bill = await repo.findBill(db, billId);
    if (!bill || bill.userId !== callerId) throw errors.notFound('Bill not found');
    return bill;
  }

  /** Expires a pending bill past its window (no balance was touched, so nothing else changes). */
  async function expireIfDue(bill: repo.WithdrawBillRow): Promise<repo.WithdrawBillRow> {
    if (bill.status !== WithdrawStatus.Pending || bill.expiresAt.getTime() > clock.now()) return bill;
    return db.transaction(async (tx) => {
      const locked = await repo.lockBill(tx, bill.id);
      if (!locked || locked.status !== WithdrawStatus.Pending) return locked ?? bill;
      return repo.updateBill(tx, bill.id, { status: WithdrawStatus.Expired, updatedAt: new Date(clock.now()) });
    });
  }

  /** Success: frozen -> withdrawals (net) + fees (fee), bill and record final. No-op once final. */
  async function settle(billId: string, txid: string, confirmations: number | null): Promise<'settled' | 'already'> {
    return db.transaction(async (tx) => {
      const bill = await repo.lockBill(tx, billId);
      if (!bill || bill.status !== WithdrawStatus.Processing) return 'already';
      const fee = bill.feePoints < bill.amount ? bill.feePoints : 0n;
      await ledger.post(
        {
          key: `withdraw-settle:${bill.id}`,
          kind: LedgerTransactionKind.WithdrawSettle,
          bizId: bill.id,
          entries: [
            { account: { userId: bill.userId, kind: 'frozen' }, amount: -bill.amount },
            { account: { platform: 'withdrawals' }, amount: bill.amount - fee },
            ...(fee > 0n ? [{ account: { platform: 'fees' as const }, amount: fee }] : []),
          ],
        },
        tx,
      );
      const now = new Date(clock.now());
      await repo.updateBill(tx, bill.id, {
        status: WithdrawStatus.Success,
        payoutState: 'done',
        txid,
        leaseUntil: null,
        completedAt: now,
        updatedAt: now,
      });
      await records.setStatus({ userId: bill.userId, type: 'CashOut', bizId: bill.id }, RecordStatus.Success, tx);
      // A rail that reports a payout paid at once (no pending step with a hash) still gives receivers
      // the broadcast step first: every paid payout has one broadcast and one final event (ADR 0060).
      await deps.events.append(tx, [
        ...(bill.txid || !txid ? [] : [payoutStatusEvent({ ...bill, txid, failureReason: null }, { status: 'broadcast' })]),
        payoutStatusEvent({ ...bill, status: WithdrawStatus.Success, txid, failureReason: null }, { status: 'final', confirmations }),
      ]);
      return 'settled';
    });
  }

  /** Failure: frozen -> available, WithdrawStatusRefunded, record Refunded. No-op once final. */
  async function refund(billId: string, reason: string): Promise<'refunded' | 'already'> {
    return db.transaction(async (tx) => {
      const bill = await repo.lockBill(tx, billId);
      if (!bill || bill.status !== WithdrawStatus.Processing) return 'already';
      await ledger.unfreeze(bill.userId, bill.amount, `withdraw-refund:${bill.id}`, bill.id, tx);
      const now = new Date(clock.now());
      await repo.updateBill(tx, bill.id, {
        status: WithdrawStatus.Refunded,
        payoutState: 'done',
        failureReason: reason.slice(0, 500),
        leaseUntil: null,
        completedAt: now,
        updatedAt: now,
      });
      await records.setStatus({ userId: bill.userId, type: 'CashOut', bizId: bill.id }, RecordStatus.Refunded, tx);
      await deps.events.append(tx, [
        payoutStatusEvent({ ...bill, status: WithdrawStatus.Refunded, failureReason: reason.slice(0, 500) }, { status: 'failed' }),
      ]);
      return 'refunded';
    });
  }

  /** Applies a provider outcome to a claimed bill. */
  async function apply(bill: repo.WithdrawBillRow, outcome: PayoutOutcome): Promise<'succeeded' | 'refunded' | 'pending'> {
    switch (outcome.status) {
      case 'success':
        await settle(bill.id, outcome.txid, outcome.confirmations ?? null);
        return 'succeeded';
      case 'failed':
        await refund(bill.id, outcome.reason);
        return 'refunded';
      case 'pending':
      case 'unknown': {
        const now = clock.now();
        const patch = {
          // 'unknown' after a send means the provider lost it: send again on the next pass (idempotent).
          payoutState: outcome.status === 'pending' ? 'sent' : 'sending',
          txid: outcome.status === 'pending' ? (outcome.txid ?? bill.txid) : bill.txid,
          leaseUntil: new Date(now + PAYOUT_RECHECK_MS),
          updatedAt: new Date(now),
        };
        if (outcome.status === 'pending' && outcome.txid && !bill.txid) {
          // The first hash the rail reports: the broadcast event, written with it under the bill's lock
          // (exactly once: a bill that already has a hash is not broadcast again).
          await db.transaction(async (tx) => {
            const locked = await repo.lockBill(tx, bill.id);
            if (!locked || locked.status !== WithdrawStatus.Processing) return;
            const updated = await repo.updateBill(tx, bill.id, patch);
            if (!locked.txid) await deps.events.append(tx, [payoutStatusEvent(updated, { status: 'broadcast' })]);
          });
          return 'pending';
        }
        // Only while still processing: a slower pass must not reopen a bill another pass finished.
        await repo.updateProcessingBill(db, bill.id, patch);
        return 'pending';
      }
    }
  }

  return {
    /**
     * product §7 withdraw/estimate/fee.
     * @returns amount (points), fee (in the currency, 8 decimals), fiat_equivalent (the fee in USD)
     * @throws VALIDATION_FAILED unsupported or non-USDT currency, amount not above 0
     */
    async estimateFee(req: WithdrawEstimateFeeRequest): Promise<{ result: FeeEstimateResult }> {
      const currency = await payoutCurrency(req.currency);
      const q = await quote(currency, req.amount);
      return { result: { amount: minorToPoints(q.amount), fee: q.fee.toFixed(8), fiat_equivalent: q.feeUsd.toFixed(2) } };
    },

    /**
     * product §7 withdraw/create: validates and stores a pending bill; balances do not change.
     * @throws NOT_FOUND when `user_id` is not the caller; VALIDATION_FAILED with the product §8 messages
     * ('Invalid address format', 'Memo required', 'Invalid memo format', 'Minimum amount is {n} USD');
     * INSUFFICIENT_BALANCE 'Insufficient balance'; ACCOUNT_SUSPENDED while the account is suspended (product §27)
     */
    async create(callerId: string, req: WithdrawCreateRequest): Promise<{ bill: WithdrawBill }> {
      if (req.user_id !== callerId) throw errors.notFound('Record does not exist');
      await deps.refuseSuspended?.(callerId);
      const currency = await payoutCurrency(req.currency);
      if (req.network.toUpperCase() !== currency.network.toUpperCase())
        throw errors.validation('The network does not match the currency');
      if (!matchesPattern(currency.walletRegex, req.address)) throw errors.validation(PaymentMessages.invalidAddress);
      let memo = '';
      if (currency.extraIdExists) {
        if (!req.memo) throw errors.validation(PaymentMessages.memoRequired);
        if (!matchesPattern(currency.extraIdRegex, req.memo)) throw errors.validation(PaymentMessages.invalidMemo);
        memo = req.memo;
      }
      const q = await quote(currency, req.amount);
      if (q.amountUsd.lt(currency.payoutMinUsd))
        throw errors.validation(PaymentMessages.minimumUsd(groupThousands(new Big(currency.payoutMinUsd).toFixed())));
      if (q.net.lte(0)) throw errors.validation(`The amount must be larger than the network fee (${formatAmount(q.feeUsd.toFixed(2), { unit: 'USD' })})`);
      const { available } = await ledger.balances(callerId);
      if (available < q.amount) throw errors.insufficientBalance(PaymentMessages.insufficientBalance);
      const now = clock.now();
      const row = await repo.insertBill(db, {
        id: newId(),
        userId: callerId,
        amount: q.amount,
        amountUsd: pointsToMinor(q.amountUsd.toFixed(2)),
        feeUsd: pointsToMinor(q.feeUsd.toFixed(2)),
        feePoints: q.feePoints,
        currency: currency.code,
        network: currency.network,
        address: req.address,
        memo,
        currencyAmount: q.net.toFixed(8),
        status: WithdrawStatus.Pending,
        provider: provider.railOf?.(currency.code) ?? provider.name,
        createdAt: new Date(now),
        expiresAt: new Date(now + WITHDRAW_CONFIRM_WINDOW_SECONDS * 1000),
        updatedAt: new Date(now),
      });
      return { bill: toWithdrawBill(row) };
    },

    /**
     * product §7 withdraw/confirm: password, then freeze + processing + CashOut record in one transaction.
     * A bill already confirmed is returned unchanged.
     * @throws NOT_FOUND, INVALID_CREDENTIALS 'Incorrect password' or 'Incorrect code', TWO_FACTOR_REQUIRED
     *   when two-factor sign-in is on and no `code` was sent, RATE_LIMITED once the user's password
     * budget is spent (10 wrong in 15 minutes), CONFLICT for an expired bill, INSUFFICIENT_BALANCE when the balance fell meanwhile
     */
    async confirm(callerId: string, req: { bill_id: string; password: string; code?: string | undefined }): Promise<{ bill: WithdrawBill }> {
      let bill = await expireIfDue(await ownBill(callerId, req.bill_id));
      if (bill.status === WithdrawStatus.Expired) throw errors.conflict('This withdrawal has expired. Please create a new one.');
      if (bill.status !== WithdrawStatus.Pending) return { bill: toWithdrawBill(bill) };
      await deps.refuseSuspended?.(callerId);
      // The user's shared password budget counts before the password is evaluated (parallel tries cannot pass it).
      await credentials.checkPassword(callerId, req.password);
      // product §26: with two-factor sign-in on, a code too (same budget; TWO_FACTOR_REQUIRED without one).
      await twoFactor.checkSecondFactor(callerId, req.code);
      bill = await db.transaction(async (tx: Tx) => {
        const locked = await repo.lockBill(tx, req.bill_id);
        if (!locked) throw errors.notFound('Bill not found');
        if (locked.status !== WithdrawStatus.Pending) return locked;
        const now = clock.now();
        if (locked.expiresAt.getTime() <= now) {
          return repo.updateBill(tx, locked.id, { status: WithdrawStatus.Expired, updatedAt: new Date(now) });
        }
        await ledger.freeze(callerId, locked.amount, `withdraw-freeze:${locked.id}`, locked.id, tx);
        const updated = await repo.updateBill(tx, locked.id, {
          status: WithdrawStatus.Processing,
          payoutState: 'queued',
          confirmedAt: new Date(now),
          updatedAt: new Date(now),
        });
        await records.write(
          {
            userId: callerId,
            bizId: locked.id,
            type: 'CashOut',
            direction: 'Outgoing',
            amount: locked.amount,
            status: RecordStatus.Pending,
            createdAt: now,
          },
          tx,
        );
        await deps.events.append(tx, [payoutStatusEvent(updated)]);
        // Delivered on commit only: every instance's payout worker wakes (payout-wake.ts).
        await repo.notifyOnCommit(tx, PAYOUT_WAKE_CHANNEL, provider.name);
        return updated;
      });
      if (bill.status === WithdrawStatus.Processing) wake();
      if (bill.status === WithdrawStatus.Expired) throw errors.conflict('This withdrawal has expired. Please create a new one.');
      return { bill: toWithdrawBill(bill) };
    },

    /**
     * product §7 withdraw/bill/detail: the caller's bill (an unconfirmed one past 15 minutes reads expired).
     * @throws NOT_FOUND when `user_id` is not the caller or the bill is not theirs
     */
    async detail(callerId: string, req: { user_id: string; bill_id: string }): Promise<{ bill: WithdrawBill }> {
      if (req.user_id !== callerId) throw errors.notFound('Bill not found');
      return { bill: toWithdrawBill(await expireIfDue(await ownBill(callerId, req.bill_id))) };
    },

    /** Claims this provider's payouts to work on (saved before any provider call). Exposed for the crash-recovery tests. */
    async claimPayouts(limit = 10): Promise<repo.WithdrawBillRow[]> {
      const now = clock.now();
      return db.transaction((tx) => repo.claimPayouts(tx, provider.rails ?? [provider.name], new Date(now), new Date(now + PAYOUT_LEASE_MS), limit));
    },

    /** Sends (or resumes) one claimed payout and applies the outcome. */
    async processPayout(bill: repo.WithdrawBillRow): Promise<'succeeded' | 'refunded' | 'pending'> {
      const outcome =
        bill.payoutState === 'sent'
          ? await provider.payoutStatus(bill.id)
          : await provider.sendPayout({
              payoutId: bill.id,
              currency: bill.currency,
              network: bill.network,
              address: bill.address,
              memo: bill.memo,
              currencyAmount: crypto8(bill.currencyAmount),
            });
      return apply(bill, outcome);
    },

    /**
     * One batch of the payout worker: claim up to `limit` bills, send them with at most the pass's
     * concurrency in flight (oldest confirmation first), apply each outcome. Safe on several
     * instances at once: a bill is claimed by one of them (SKIP LOCKED plus the lease).
     */
    async runPayouts(limit = 10): Promise<PayoutRunSummary> {
      const claimed = await this.claimPayouts(limit);
      const summary: PayoutRunSummary = { claimed: claimed.length, succeeded: 0, refunded: 0, pending: 0, failedToRun: 0 };
      await eachLimited(claimed, concurrency, async (bill) => {
        try {
          summary[await this.processPayout(bill)]++;
        } catch (err) {
          // Left claimed: the lease runs out and a later pass resumes it.
          summary.failedToRun++;
          deps.log?.error({ err, billId: bill.id }, 'payout failed to run; will retry after the lease');
        }
      });
      return summary;
    },

    /**
     * The payout worker's pass: `payoutConcurrency` lanes send payouts from a queue of claimed bills,
     * which is refilled (one claim of a batch at a time) whenever it runs low, until a claim finds
     * nothing (every bill touched leaves the queue or gets a lease in the future, so the pass ends).
     * No lane waits for a batch's slowest payout. When `signal` aborts (shutdown), nothing more is
     * claimed and the lanes finish the bills already claimed. A failed claim ends the pass (logged;
     * the next tick tries again).
     * @returns the pass's summary
     */
    async drainPayouts(signal?: AbortSignal): Promise<PayoutRunSummary> {
      const total: PayoutRunSummary = { claimed: 0, succeeded: 0, refunded: 0, pending: 0, failedToRun: 0 };
      const queue: repo.WithdrawBillRow[] = [];
      let exhausted = false;
      let claiming: Promise<void> | null = null;
      const refill = (): Promise<void> =>
        (claiming ??= (async () => {
          try {
            const rows = await this.claimPayouts(drainBatch);
            total.claimed += rows.length;
            if (!rows.length) exhausted = true;
            queue.push(...rows);
          } catch (err) {
            exhausted = true;
            deps.log?.error({ err }, 'payout claim failed; the next pass tries again');
          } finally {
            claiming = null;
          }
        })());
      const lane = async () => {
        for (;;) {
          if (signal?.aborted) exhausted = true;
          if (!exhausted && queue.length <= concurrency) {
            if (queue.length === 0) await refill();
            else void refill();
          }
          const bill = queue.shift();
          if (!bill) {
            if (exhausted) return;
            if (claiming) await claiming;
            continue;
          }
          try {
            total[await this.processPayout(bill)]++;
          } catch (err) {
            // Left claimed: the lease runs out and a later pass resumes it.
            total.failedToRun++;
            deps.log?.error({ err, billId: bill.id }, 'payout failed to run; will retry after the lease');
          }
        }
      };
      await Promise.all(Array.from({ length: concurrency }, lane));
      return total;
    },

    /** Payouts this instance sends at once (`PAYOUT_CONCURRENCY` capped by the provider). */
    payoutConcurrency: concurrency,

    /**
     * Calls `listener` after a bill is confirmed on this instance (its payout is queued). Other
     * instances hear of it through `NOTIFY coffer_payouts` (payout-wake.ts).
     * @returns a function that removes the listener
     */
    onPayoutWork(listener: () => void): () => void {
      wakeListeners.add(listener);
      return () => wakeListeners.delete(listener);
    },

    /** Expires unconfirmed bills past 15 minutes and forgets old wrong-password attempts. @returns bills expired */
    async expireDue(): Promise<number> {
      const now = clock.now();
      const n = await repo.expireDue(db, new Date(now));
      await repo.deletePasswordFailuresBefore(db, new Date(now - 24 * 3_600_000));
      return n;
    },
  };
}

export type WithdrawalsService = ReturnType<typeof createWithdrawalsService>;

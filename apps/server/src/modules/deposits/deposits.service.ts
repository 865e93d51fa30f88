/**
 * Top-up (product §7 deposit calls, product §14). Rules:
 *
 * - `min-amount`: the provider's minimum deposit in the currency, with its value in points and USD
 *   (rounded up to 2 decimals).
 * - `deposit`: `amount` points (>= the minimum) -> a bill with a fresh address, the crypto to pay
 *   (`amount / (price x POINTS_PER_USD)`, rounded up to 8 decimals), status DepositStatusProcessing
 *   and a TopUp/Incoming/Pending record, in one database transaction. The bill expires 1800 s after
 *   creation (product §9): status DepositStatusExpired, record Failure.
 * - A received payment is credited exactly once per payment reference (a unique index; concurrent
 *   reports of one payment serialize on the bill row), through the ledger (`deposit:<ref>`:
 *   deposits platform account -> the user's available), in the same transaction that marks the
 *   bill DepositStatusSuccess and the record Success with the credited amount.
 * - Money is never lost: a payment of exactly `currency_amount` credits the bill's `amount`; any
 *   other amount (short, excess, a second payment) — on time or late, even after expiry — credits
 *   its received value at the bill's rate, rounded down to 0.01 point.
 * - Price (docs/decisions/0012-late-payment-pricing.md): a stablecoin is always credited at the
 *   bill's quote. A late (arrived after the bill's expiry) or non-exact payment of a non-stable coin
 *   is credited at the lower of the quote and the price when it arrived (the rail's
 *   `usdPriceAtArrival`, else the provider's `priceUsd` at credit time), so an open bill is no free
 *   option on the coin's price. An exact payment on time keeps the quote.
 */
import {
  Big,
  DEPOSIT_ORDER_LIFETIME_SECONDS,
  DepositStatus,
  formatAmount,
  minorToPoints,
  pointsToMinor,
  RecordStatus,
  type DepositBill,
  type DepositRequest,
  type MinAmountResult,
} from '@coffer/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { ReceivedPayment, SandboxProvider } from '../../providers/payments/index';
import { LedgerTransactionKind, type LedgerService } from '../ledger/ledger.service';
import type { PaymentsService } from '../payments/payments.service';
import type { RecordsService } from '../records/records.service';
import * as repo from './deposits.repository';

/** Largest single top-up, in points (bounds every amount, product §19). */
export const DEPOSIT_MAX_POINTS = '10000000';

/** Coins credited at the bill's quote whatever happens (docs/decisions/0012-late-payment-pricing.md). */
const STABLE_SYMBOLS = new Set(['USDT', 'USDC']);

/** Largest credit of one payment, in minor units (a guard against absurd reports, far above any real payment). */
const MAX_CREDIT_MINOR = 10n ** 15n;

export interface DepositsDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  records: RecordsService;
  payments: PaymentsService;
  /** Open (Processing) bills one user may hold (MAX_OPEN_DEPOSIT_BILLS, docs/abuse.md); default 10. */
  maxOpenBills?: number;
  /** Where price decisions are logged (optional). */
  log?: FastifyBaseLogger | undefined;
}

/** How long a deposit/min-amount answer is reused per currency, in ms (docs/abuse.md). */
export const MIN_AMOUNT_CACHE_MS = 30_000;

/** The refusal past the open-bill cap (docs/abuse.md). */
const tooManyOpenBills = (max: number) =>
  errors.conflict(`You already have ${max} open deposit bills. Pay or let one expire before creating another.`);

/** Decimal string of a NUMERIC column with exactly 8 decimals (rounded down). */
const crypto8 = (v: string | Big): string => new Big(v).round(8, Big.roundDown).toFixed(8);

/** product §3 deposit bill as the API sends it. */
export function toDepositBill(row: repo.DepositBillRow): DepositBill {
  return {
    id: row.id,
    user_id: row.userId,
    amount: minorToPoints(row.amount),
    amount_usd: minorToPoints(row.amountUsd),
    currency_amount: crypto8(row.currencyAmount),
    pay_currency: row.payCurrency,
    network: row.network,
    address: row.address,
    extra_id: row.extraId ?? null,
    status: row.status as DepositStatus,
    created: String(row.createdAt.getTime()),
    expires_at: row.expiresAt.getTime(),
    paid_currency_amount: crypto8(row.paidCurrencyAmount),
    credited_amount: minorToPoints(row.credited),
  };
}

/**
 * How many of `userId`'s deposit bills are still Processing (may still be paid), read in `db` (the
 * account deletion's transaction: a deletion waits for them, docs/abuse.md).
 */
export function countOpenDepositBills(db: DbOrTx, userId: string): Promise<number> {
  return repo.countOpenBills(db, userId);
}

export function createDepositsService(deps: DepositsDeps) {
  const { db, clock, ledger, records, payments, log } = deps;
  const maxOpenBills = deps.maxOpenBills ?? 10;
  const minAmountCache = new Map<string, { until: number; answer: Promise<{ result: MinAmountResult }> }>();
  const provider = payments.provider;
  const rate = payments.pointsPerUsd;

  async function minimum(code: string) {
    const currencyMin = new Big(await provider.minDeposit(code));
    const price = new Big(await provider.priceUsd(code));
    return {
      currencyMin,
      points: currencyMin.times(price).times(rate).round(2, Big.roundUp),
      usd: currencyMin.times(price).round(2, Big.roundUp),
    };
  }

  /**
   * True for a coin worth 1 USD by definition (USDT, USDC): its payments keep the bill's quote. The
   * symbol comes from the currency list; a currency no longer listed is judged by its code.
   */
  async function isStable(code: string): Promise<boolean> {
    let symbol: string;
    try {
      symbol = (await payments.currency(code)).symbol;
    } catch {
      symbol = code.slice(0, 4);
    }
    return STABLE_SYMBOLS.has(symbol.toUpperCase());
  }

  /** Expires the bills due (all of them, or only `onlyId`) in one transaction; records become Failure. */
  async function expire(limit: number, onlyId?: string): Promise<number> {
    return db.transaction(async (tx) => {
      const now = new Date(clock.now());
      const expired = await repo.expireDue(tx, now, limit, onlyId);
      for (const bill of expired) {
        await records.setStatus({ userId: bill.userId, type: 'TopUp', bizId: bill.id }, RecordStatus.Failure, tx);
      }
      return expired.length;
    });
  }

  /** The caller's bill. @throws NOT_FOUND for a missing bill or another user's */
  async function ownBill(callerId: string, billId: string): Promise<repo.DepositBillRow> {
    const bill = await repo.findBill(db, billId);
    if (!bill || bill.userId !== callerId) throw errors.notFound('Bill not found');
    return bill;
  }

  return {
    /**
     * product §7 deposit/min-amount, cached per currency for MIN_AMOUNT_CACHE_MS (30 s).
     * @returns min_amount (points), currency_min_amount (crypto, 8 decimals), fiat_equivalent (USD)
     * @throws VALIDATION_FAILED 'Unsupported currency'
     */
    async minAmount(code: string): Promise<{ result: MinAmountResult }> {
      await payments.currency(code);
      // One answer (or call in flight) per currency for MIN_AMOUNT_CACHE_MS: visitors cannot hammer the provider.
      const hit = minAmountCache.get(code);
      if (hit && hit.until > clock.now()) return hit.answer;
      const answer = minimum(code).then((min) => ({
        result: {
          min_amount: min.points.toFixed(2),
          currency_min_amount: min.currencyMin.round(8, Big.roundUp).toFixed(8),
          fiat_equivalent: min.usd.toFixed(2),
        },
      }));
      minAmountCache.set(code, { until: clock.now() + MIN_AMOUNT_CACHE_MS, answer });
      answer.catch(() => minAmountCache.delete(code));
      return answer;
    },

    /**
     * product §7 deposit: creates a bill and its TopUp/Incoming/Pending record in one transaction.
     * @param req amount in points (2 decimals), pay_currency a currency code
     * @throws VALIDATION_FAILED unsupported currency, below the minimum ('Minimum amount is {min} {symbol}.'), above the maximum;
     *   CONFLICT when the user already holds `maxOpenBills` open bills (checked before the provider is asked)
     */
    async create(userId: string, req: DepositRequest): Promise<{ bill: DepositBill }> {
      if ((await repo.countOpenBills(db, userId)) >= maxOpenBills) throw tooManyOpenBills(maxOpenBills);
      const currency = await payments.currency(req.pay_currency);
      const points = new Big(req.amount);
      const min = await minimum(currency.code);
      if (points.lt(min.points)) {
        throw errors.validation(`Minimum amount is ${min.currencyMin.round(8, Big.roundUp).toString()} ${currency.symbol}.`);
      }
      if (points.gt(DEPOSIT_MAX_POINTS)) throw errors.validation(`Maximum amount is ${formatAmount(DEPOSIT_MAX_POINTS, { unit: 'points' })}.`);
      const price = await provider.priceUsd(currency.code);
      const perUnit = new Big(price).times(rate);
      const currencyAmount = points.div(perUnit).round(8, Big.roundUp);
      const amountUsd = points.div(rate).round(2, Big.roundDown);
      const id = newId();
      const createdAt = clock.now();
      const expiresAt = createdAt + DEPOSIT_ORDER_LIFETIME_SECONDS * 1000;
      const deposit = await provider.createDeposit({
        billId: id,
        code: currency.code,
        currencyAmount: currencyAmount.toFixed(8),
        expiresAt,
      });
      const amount = pointsToMinor(points.toFixed(2));
      const row = await db.transaction(async (tx) => {
        // Again under the user's lock: parallel creations cannot pass the cap.
        await repo.lockUserForBills(tx, userId);
        if ((await repo.countOpenBills(tx, userId)) >= maxOpenBills) throw tooManyOpenBills(maxOpenBills);
        const bill = await repo.insertBill(tx, {
          id,
          userId,
          amount,
          amountUsd: pointsToMinor(amountUsd.toFixed(2)),
          payCurrency: currency.code,
          network: currency.network,
          address: deposit.address,
          extraId: deposit.extraId,
          currencyAmount: currencyAmount.toFixed(8),
          usdPrice: price,
          pointsPerUsd: rate,
          status: DepositStatus.Processing,
          provider: provider.railOf?.(currency.code) ?? provider.name,
          providerRef: deposit.providerRef,
          createdAt: new Date(createdAt),
          expiresAt: new Date(expiresAt),
          updatedAt: new Date(createdAt),
        });
        await records.write(
          { userId, bizId: id, type: 'TopUp', direction: 'Incoming', amount, status: RecordStatus.Pending, createdAt },
          tx,
        );
        return bill;
      });
      return { bill: toDepositBill(row) };
    },

    /**
     * product §7 deposit/bill/detail: the caller's bill; a processing bill past its expiry is expired first.
     * @throws NOT_FOUND when `user_id` is not the caller or the bill is not theirs
     */
    async detail(callerId: string, req: { user_id: string; bill_id: string }): Promise<{ bill: DepositBill }> {
      if (req.user_id !== callerId) throw errors.notFound('Bill not found');
      let bill = await ownBill(callerId, req.bill_id);
      if (bill.status === DepositStatus.Processing && bill.expiresAt.getTime() <= clock.now()) {
        await expire(1, bill.id);
        bill = await ownBill(callerId, req.bill_id);
      }
      return { bill: toDepositBill(bill) };
    },

    /**
     * Credits a received payment exactly once (product §14), whatever the bill's status; a running
     * total (`payment.cumulative`) credits only what exceeds what arrived under its reference before
     * (docs/payments.md "Late, partial and over-payments").
     * @returns the bill after the credit, the points credited now (minor units; 0 on a repeat) and whether it was a repeat
     * @throws NOT_FOUND unknown bill; VALIDATION_FAILED for an amount that is not a positive decimal
     */
    async creditPayment(payment: ReceivedPayment): Promise<{ bill: DepositBill; credited: bigint; replayed: boolean }> {
      let total: Big;
      try {
        total = new Big(payment.currencyAmount);
      } catch {
        throw errors.validation('Invalid payment amount');
      }
      if (total.lte(0)) throw errors.validation('The amount must be above 0');
      // The price at arrival is fetched before the transaction (a provider call never runs under a row lock).
      const seen = await repo.findBill(db, payment.billId);
      if (!seen) throw errors.notFound('Bill not found');
      const arrivedAt = clock.now();
      const late = arrivedAt > seen.expiresAt.getTime();
      // A running total may hold an earlier part: what arrives now is known only under the lock.
      const exactAmount = total.eq(seen.currencyAmount) && !payment.cumulative;
      let arrivalPrice: string | null = null;
      if ((late || !exactAmount) && !(await isStable(seen.payCurrency))) {
        arrivalPrice = payment.usdPriceAtArrival ?? (await provider.priceUsd(seen.payCurrency));
        if (!new Big(arrivalPrice).gt(0)) throw new Error(`No usable price for ${seen.payCurrency} at arrival: ${arrivalPrice}`);
      }
      return db.transaction(async (tx) => {
        const bill = await repo.lockBill(tx, payment.billId);
        if (!bill) throw errors.notFound('Bill not found');
        let paymentRef = payment.paymentRef;
        let received = total;
        if (payment.cumulative) {
          // docs/payments.md "Late, partial and over-payments": only what exceeds what arrived before.
          const before = new Big(await repo.receivedUnder(tx, bill.id, payment.paymentRef));
          received = total.minus(before);
          if (received.lte(0)) {
            if (received.lt(0)) {
              log?.info(
                { billId: bill.id, paymentRef, reported: total.toString(), received: before.toString() },
                'deposit: a payment reported below what was already received (a late or replayed report); nothing credited',
              );
            }
            return { bill: toDepositBill(bill), credited: 0n, replayed: true };
          }
          paymentRef = `${payment.paymentRef}:${total.toString()}`;
        }
        const exact = received.eq(bill.currencyAmount);
        const price = arrivalPrice !== null && new Big(arrivalPrice).lt(bill.usdPrice) ? new Big(arrivalPrice) : new Big(bill.usdPrice);
        const credited =
          exact && price.eq(bill.usdPrice)
            ? bill.amount
            : BigInt(received.times(price).times(bill.pointsPerUsd).times(100).round(0, Big.roundDown).toFixed(0));
        // No real payment comes near this (10^13 points); past it the amount cannot be a real transfer.
        if (credited > MAX_CREDIT_MINOR) throw errors.validation('The payment amount is out of range');
        const paymentId = newId();
        const now = new Date(clock.now());
        const inserted = await repo.insertPayment(tx, {
          id: paymentId,
          billId: bill.id,
          paymentRef,
          currencyAmount: received.toString(),
          credited,
          usdPrice: price.toString(),
          receivedAt: now,
        });
        if (!price.eq(bill.usdPrice)) {
          log?.info(
            { billId: bill.id, paymentRef, quote: bill.usdPrice, arrivalPrice: price.toString(), late },
            'deposit credited at the lower price at arrival (late or non-exact payment of a non-stable coin)',
          );
        }
        if (!inserted) return { bill: toDepositBill(bill), credited: 0n, replayed: true };
        if (credited > 0n) {
          const posted = await ledger.post(
            {
              key: `deposit:${paymentRef}`,
              kind: LedgerTransactionKind.Deposit,
              bizId: bill.id,
              entries: [
                { account: { platform: 'deposits' }, amount: -credited },
                { account: { userId: bill.userId, kind: 'available' }, amount: credited },
              ],
            },
            tx,
          );
          await repo.setPaymentLedgerTransaction(tx, paymentId, posted.transactionId);
        }
        const totalCredited = bill.credited + credited;
        const updated = await repo.updateBill(tx, bill.id, {
          status: DepositStatus.Success,
          paidCurrencyAmount: new Big(bill.paidCurrencyAmount).plus(received).toString(),
          credited: totalCredited,
          paidAt: bill.paidAt ?? now,
          updatedAt: now,
        });
        await records.setStatus({ userId: bill.userId, type: 'TopUp', bizId: bill.id }, RecordStatus.Success, tx, {
          amount: totalCredited,
        });
        return { bill: toDepositBill(updated), credited, replayed: false };
      });
    },

    /**
     * The sandbox's simulate-payment path (`POST /api/dev/sandbox/pay`): pays the caller's bill with
     * `currencyAmount` (the full `currency_amount` by default) and credits it at once.
     * @throws NOT_FOUND when the bill is not the caller's; FORBIDDEN outside the sandbox
     */
    async simulatePayment(callerId: string, billId: string, currencyAmount?: string): Promise<{ bill: DepositBill }> {
      if (!provider.sandbox) throw errors.forbidden('Simulated payments exist only in the sandbox');
      const bill = await ownBill(callerId, billId);
      const payment = await (provider as SandboxProvider).simulatePaymentOf(bill.id, bill.payCurrency, currencyAmount ?? bill.currencyAmount);
      const { bill: after } = await this.creditPayment(payment);
      return { bill: after };
    },

    /** Credits what the provider reports (`pollPayments`), if it reports anything. @returns payments credited now */
    async pollProvider(): Promise<number> {
      if (!provider.pollPayments) return 0;
      let n = 0;
      for (const payment of await provider.pollPayments()) {
        try {
          if (!(await this.creditPayment(payment)).replayed) n++;
        } catch (err) {
          if (!(err instanceof AppError && err.reason === 'NOT_FOUND')) throw err;
        }
      }
      return n;
    },

    /** Expires processing bills older than 1800 s (the sweeper; safe on several instances). @returns how many */
    expireDue(limit = 500): Promise<number> {
      return expire(limit);
    },

    /** Every payment received for a bill (tests and support). */
    payments(billId: string) {
      return repo.paymentsOfBill(db, billId);
    },
  };
}

export type DepositsService = ReturnType<typeof createDepositsService>;

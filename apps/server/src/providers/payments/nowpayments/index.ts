/**
 * The `nowpayments` payment provider (product §11, §14, §15; docs/payments.md "Running Coffer on the
 * NOWPayments gateway"): a hosted gateway instead of Coffer's own keys.
 *
 * - Currencies: the gateway's `/v1/full-currencies` entries named by `NOWPAYMENTS_CURRENCIES`, with
 *   their wallet_regex / extra_id_exists / extra_id_regex; cash-out in USDT ones when a payout login
 *   is configured. Prices from `/v1/estimate`, minimums from `/v1/min-amount`.
 * - Deposits: each bill is one gateway payment (`POST /v1/payment`, order_id = bill id,
 *   pay_currency = price_currency = the bill's currency, price_amount = its crypto amount), whose
 *   pay_address (and payin_extra_id memo) the user pays to.
 * - Payment news arrives by IPN (`POST /api/payments/nowpayments/ipn`, signature always verified:
 *   a bad one changes nothing and is logged) and, for IPNs that get lost, by polling open payments.
 *   See {@link mapPaymentStatus} for what each payment_status means to Coffer. Each report is
 *   cross-checked (payment id → Coffer's bill, order id, pay_currency); a mismatch credits nothing
 *   and is recorded in `nowpayments_reviews`. A payment is credited once, under the reference
 *   `nowpayments:<payment_id>`, at `actually_paid` (priced per docs/decisions/0012).
 * - Payouts exactly once (docs/payments.md, "Payouts exactly once"): `POST /v1/payout` with a JWT
 *   from `/v1/auth` and the bill id as `unique_external_id`; the intent row and each attempt are
 *   saved before the request; after a lost answer the payout is looked up by that id before
 *   anything is asked again; a retry's refusal never refunds. Verified with a TOTP code from
 *   `NOWPAYMENTS_2FA_SECRET` when set; the outcome from `GET /v1/payout/:id` (and payout IPNs).
 */
import { Big, DepositStatus } from '@coffer/contract';
import { and, eq, gt, isNull, notInArray } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Secret as OtpSecret, TOTP } from 'otpauth';
import type { Db } from '../../../db/client';
import { nowpaymentsPayments, nowpaymentsPayouts, nowpaymentsReviews } from '../../../db/schema/index';
import type { Clock } from '../../../lib/clock';
import { AppError, errors } from '../../../lib/errors';
import { CURRENCY_LOGO_PATH } from '../sandbox';
import type { PaymentProvider, PayoutOutcome, PayoutRequest, ProviderCurrency, ProviderHooks } from '../types';
import {
  createNowPaymentsApi,
  decimal,
  GatewayRejection,
  verifyIpnSignature,
  type GatewayPayment,
  type GatewayWithdrawal,
  type NowPaymentsApi,
} from './api';
import type { NowPaymentsSettings } from './config';

/** The IPN route (registered only when PAYMENTS=nowpayments). */
export const IPN_PATH = '/api/payments/nowpayments/ipn';

export interface PaymentStatusMeaning {
  /** The deposit bill status this payment_status leads to. */
  depositStatus: DepositStatus;
  /** True when the payment is credited at this status (its `actually_paid`). */
  credit: boolean;
  /** True when the gateway will not change this payment any more. */
  final: boolean;
}

/**
 * What NOWPayments' payment_status means to Coffer:
 * - waiting, confirming, confirmed, sending: still processing (nothing credited yet; the funds are
 *   not in the merchant wallet before `finished`);
 * - partially_paid (short so far) and finished (paid in full, or more): credited at `actually_paid`,
 *   bill DepositStatusSuccess (product §14: the received value is credited, whatever was asked).
 *   `actually_paid` is the payment's running total: a later report credits only what it adds
 *   (ReceivedPayment.cumulative), and a partially_paid payment is polled on, since more may come;
 * - failed, refunded, expired: nothing is credited; the bill expires on Coffer's own clock
 *   (DepositStatusExpired).
 * An unknown status counts as processing.
 */
export function mapPaymentStatus(status: string): PaymentStatusMeaning {
  switch (status.toLowerCase()) {
    case 'finished':
      return { depositStatus: DepositStatus.Success, credit: true, final: true };
    case 'partially_paid':
      return { depositStatus: DepositStatus.Success, credit: true, final: false };
    case 'failed':
    case 'refunded':
    case 'expired':
      return { depositStatus: DepositStatus.Expired, credit: false, final: true };
    default:
      return { depositStatus: DepositStatus.Processing, credit: false, final: false };
  }
}

/** NOWPayments' withdrawal status (creating, waiting, processing, sending, finished, failed, rejected) as a payout outcome. */
export function mapPayoutStatus(w: { status: string; hash?: string | null; error?: string | null }): PayoutOutcome {
  const status = w.status.toLowerCase();
  if (status === 'finished') return { status: 'success', txid: w.hash ?? '' };
  if (status === 'failed' || status === 'rejected')
    return { status: 'failed', reason: w.error || `The gateway reports the payout ${status}` };
  return { status: 'pending', txid: w.hash ?? null };
}

/** Gateway payment statuses that are not polled any more (partially_paid is: the rest may still arrive). */
const FINAL_PAYMENT_STATUSES = ['finished', 'failed', 'refunded', 'expired', 'review'];
/** Gateway withdrawal statuses that never change again (a later report never overwrites them). */
/** Payouts one worker pass asks the gateway for at once. */
export const NOWPAYMENTS_MAX_PAYOUT_CONCURRENCY = 4;

const FINAL_PAYOUT_STATUSES = ['finished', 'failed', 'rejected'];
/**
 * After a payout request whose answer was lost, Coffer asks again only this long after it was sent
 * (ms): the client gives up after 20 s, and Coffer assumes the gateway acts on a request within
 * this window or never (docs/payments.md, "What the gateway guarantees and what Coffer assumes").
 */
export const LOST_ANSWER_GRACE_MS = 5 * 60_000;
/** The withdrawal list is read from this long before the intent was written (clock skew). */
const LOOKUP_MARGIN_MS = 24 * 3_600_000;
const LOOKUP_PAGE_SIZE = 100;
const LOOKUP_MAX_PAGES = 50;
/** Open gateway payments are polled until this long after their bill expired. */
const POLL_WINDOW_MS = 48 * 3_600_000;
const PRICE_CACHE_MS = 60_000;

export interface NowPaymentsProvider extends PaymentProvider {
  readonly name: 'nowpayments';
  /** Handles one gateway payment report (IPN or poll). @returns whether it was credited now */
  handlePayment(payment: GatewayPayment): Promise<boolean>;
  /** Polls the open gateway payments once (the worker's pass). @returns how many were credited */
  pollOpenPayments(): Promise<number>;
}

export function createNowPaymentsProvider(
  settings: NowPaymentsSettings,
  deps: { db: Db; clock: Clock; log: FastifyBaseLogger; api?: NowPaymentsApi },
): NowPaymentsProvider {
  const { db, clock, log } = deps;
  const api =
    deps.api ??
    createNowPaymentsApi({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey.reveal(),
      login: settings.login ? { email: settings.login.email, password: settings.login.password.reveal() } : null,
    });
  const prices = new Map<string, { at: number; price: string }>();
  let credit: ProviderHooks['credit'] | null = null;

  const symbolOf = (code: string): string =>
    code.startsWith('usdt') ? 'USDT' : code.startsWith('usdc') ? 'USDC' : code.toUpperCase();

  async function priceUsd(code: string): Promise<string> {
    const cached = prices.get(code);
    if (cached && clock.now() - cached.at < PRICE_CACHE_MS) return cached.price;
    const perThousand = await api.estimateFromUsd('1000', code);
    if (new Big(perThousand).lte(0)) throw new Error(`NOWPayments has no price for ${code}`);
    const price = new Big(1000).div(perThousand).round(8, Big.roundHalfUp).toFixed(8);
    prices.set(code, { at: clock.now(), price });
    return price;
  }

  /**
   * Records a gateway report Coffer refuses to act on, once per (kind, gateway id, reason), and logs
   * it every time (operators search the log for 'held for review' / 'nowpayments: review').
   */
  async function review(
    kind: 'payment' | 'payout',
    gatewayId: string,
    billId: string | null,
    reason: string,
    detail: string,
    body: unknown,
  ): Promise<void> {
    await db
      .insert(nowpaymentsReviews)
      .values({
        kind,
        gatewayId,
        billId,
        reason,
        detail,
        body: JSON.stringify(body).slice(0, 10_000),
        createdAt: new Date(clock.now()),
      })
      .onConflictDoNothing();
    log.warn(
      { kind, gatewayId, billId, reason, detail },
      'nowpayments: review: a gateway report did not match Coffer’s records; nothing credited',
    );
  }

  /**
   * Handles one gateway payment report (IPN or poll). The report is cross-checked against the
   * payment Coffer created (docs/payments.md, "IPN cross-checks"): its `payment_id` must be one of
   * Coffer's gateway payments, its `order_id` that payment's bill, and its `pay_currency` the bill's
   * currency; otherwise it is recorded for review (`nowpayments_reviews`) and credits nothing. A
   * crediting status credits the bill Coffer has for the payment id (never the body's order id), what
   * `actually_paid` (a running total) adds to what was received under `nowpayments:<payment_id>`
   * before, under `nowpayments:<payment_id>:<actually_paid>`; the stored status moves on only after the
   * credit, so a failed credit is retried by the poller.
   * @returns whether it was credited now
   * @throws on a database or price failure (the IPN answers non-200 and the gateway retries; the poller retries too)
   */
  async function handlePayment(p: GatewayPayment): Promise<boolean> {
    const paymentId = String(p.payment_id ?? '');
    const status = String(p.payment_status ?? '').toLowerCase();
    const [row] = paymentId
      ? await db.select().from(nowpaymentsPayments).where(eq(nowpaymentsPayments.paymentId, paymentId))
      : [];
    if (!row) {
      await review(
        'payment',
        paymentId || '(none)',
        null,
        'unknown_payment',
        `No Coffer bill has gateway payment ${paymentId || '(none)'}`,
        p,
      );
      return false;
    }
    const orderId = p.order_id === null || p.order_id === undefined ? '' : String(p.order_id);
    const payCurrency = String(p.pay_currency ?? '').toLowerCase();
    const mismatch =
      orderId !== row.billId
        ? {
            reason: 'other_bill',
            detail: `Payment ${paymentId} belongs to bill ${row.billId}; the report names order ${orderId || '(none)'}`,
          }
        : payCurrency !== row.payCurrency
          ? {
              reason: 'currency_mismatch',
              detail: `Bill ${row.billId} is paid in ${row.payCurrency}; the report says ${payCurrency || '(none)'}`,
            }
          : null;
    const now = new Date(clock.now());
    if (mismatch) {
      await review('payment', paymentId, row.billId, mismatch.reason, mismatch.detail, p);
      // Polling this payment would only repeat the mismatch: it waits for an operator.
      await db
        .update(nowpaymentsPayments)
        .set({ status: 'review', updatedAt: now })
        .where(eq(nowpaymentsPayments.paymentId, paymentId));
      return false;
    }
    const meaning = mapPaymentStatus(status);
    // A late or replayed report never moves a payment back from a final status (polling would resume).
    const stored = FINAL_PAYMENT_STATUSES.includes(row.status) ? row.status : status;
    if (!meaning.credit) {
      await db.update(nowpaymentsPayments).set({ status: stored, updatedAt: now }).where(eq(nowpaymentsPayments.paymentId, paymentId));
      return false;
    }
    let amount = decimal(p.actually_paid);
    if (new Big(amount).lte(0) && status === 'finished') amount = decimal(p.pay_amount);
    if (new Big(amount).lte(0)) {
      log.warn({ paymentId, status }, 'nowpayments: a paid payment without an amount; not credited');
      return false;
    }
    if (!credit) throw new Error('nowpayments: not attached to the deposits service');
    let result: { replayed?: boolean } | undefined;
    try {
      result = (await credit({
        billId: row.billId,
        paymentRef: `nowpayments:${paymentId}`,
        currencyAmount: amount,
        cumulative: true,
      })) as typeof result;
    } catch (err) {
      if (!(err instanceof AppError && err.reason === 'NOT_FOUND')) throw err;
      // The gateway payment exists but its bill was never stored (the bill's transaction failed).
      await review(
        'payment',
        paymentId,
        row.billId,
        'unknown_payment',
        `Gateway payment ${paymentId} names bill ${row.billId}, which does not exist`,
        p,
      );
      await db
        .update(nowpaymentsPayments)
        .set({ status: 'review', updatedAt: new Date(clock.now()) })
        .where(eq(nowpaymentsPayments.paymentId, paymentId));
      return false;
    }
    await db
      .update(nowpaymentsPayments)
      .set({ status: stored, updatedAt: new Date(clock.now()) })
      .where(eq(nowpaymentsPayments.paymentId, paymentId));
    const fresh = result?.replayed !== true;
    if (fresh) log.info({ paymentId, billId: row.billId, status, currencyAmount: amount }, 'nowpayments: deposit credited');
    return fresh;
  }

  type PayoutRow = typeof nowpaymentsPayouts.$inferSelect;

  async function findPayout(payoutId: string): Promise<PayoutRow | null> {
    const [row] = await db.select().from(nowpaymentsPayouts).where(eq(nowpaymentsPayouts.payoutId, payoutId));
    return row ?? null;
  }

  async function savePayout(payoutId: string, patch: Partial<typeof nowpaymentsPayouts.$inferInsert>) {
    await db
      .update(nowpaymentsPayouts)
      .set({ ...patch, updatedAt: new Date(clock.now()) })
      .where(eq(nowpaymentsPayouts.payoutId, payoutId));
  }

  /** Sends the 2FA code for a batch that still waits for it (when a TOTP secret is configured). */
  async function verify(row: typeof nowpaymentsPayouts.$inferSelect): Promise<void> {
    if (!settings.totpSecret || row.verifiedAt || !row.batchId || !['creating', 'waiting'].includes(row.status)) return;
    const code = new TOTP({ secret: OtpSecret.fromBase32(settings.totpSecret.reveal()) }).generate({ timestamp: clock.now() });
    try {
      await api.verifyPayout(row.batchId, code);
      await savePayout(row.payoutId, { verifiedAt: new Date(clock.now()) });
    } catch (err) {
      if (!(err instanceof GatewayRejection)) throw err;
      log.warn(
        { payoutId: row.payoutId, batchId: row.batchId, reason: err.message },
        'nowpayments: payout verification refused; will try again',
      );
    }
  }

  /**
   * Stores a withdrawal report (poll or IPN) unless the payout already reached a final status: a
   * late or replayed report never turns `finished` back into `sending`, nor `failed` into anything.
   * @returns the row as it stands after the report
   */
  async function record(row: PayoutRow, w: GatewayWithdrawal): Promise<PayoutRow> {
    if (FINAL_PAYOUT_STATUSES.includes(row.status)) return row;
    const patch = { status: w.status.toLowerCase(), hash: w.hash ?? row.hash, error: w.error ?? null };
    await savePayout(row.payoutId, patch);
    return { ...row, ...patch };
  }

  /** The outcome of a payout the gateway knows (its batch is saved), asking the gateway while it is not final. */
  async function refresh(row: PayoutRow): Promise<PayoutOutcome> {
    const final = mapPayoutStatus(row);
    if (final.status !== 'pending') return final;
    if (!row.batchId) return { status: 'unknown' };
    const list = await api.payout(row.batchId);
    const w = list.find((x) => String(x.id) === row.withdrawalId);
    if (w) row = await record(row, w);
    await verify(row);
    return mapPayoutStatus(row);
  }

  /**
   * The gateway's withdrawal carrying `row.payoutId` as `unique_external_id`, or null when the
   * account's withdrawal list since the intent was written holds none. The list is scanned page by
   * page (newest first); a scan that cannot finish throws, so "not found" always means a full scan.
   * @throws Error / GatewayRejection when the gateway cannot answer (try again later)
   */
  async function lookup(row: PayoutRow): Promise<GatewayWithdrawal | null> {
    const dateFrom = new Date(row.createdAt.getTime() - LOOKUP_MARGIN_MS).toISOString();
    for (let page = 0; page < LOOKUP_MAX_PAGES; page++) {
      const list = await api.listPayouts({ dateFrom, page, limit: LOOKUP_PAGE_SIZE });
      const hit = list.find((w) => String(w.unique_external_id ?? '') === row.payoutId);
      if (hit) return hit;
      if (list.length < LOOKUP_PAGE_SIZE) return null;
    }
    throw new Error(
      `nowpayments: payout ${row.payoutId} not found in ${LOOKUP_MAX_PAGES} pages of withdrawals; not concluding it is absent`,
    );
  }

  /** Takes over a withdrawal found at the gateway (its create answer was lost, or the retry was refused as a duplicate). */
  async function adopt(row: PayoutRow, w: GatewayWithdrawal): Promise<PayoutOutcome> {
    const batchId = String(w.batch_withdrawal_id ?? '');
    if (!batchId) throw new Error(`nowpayments: withdrawal ${w.id} has no batch id`);
    const status = w.status.toLowerCase();
    await savePayout(row.payoutId, { batchId, withdrawalId: String(w.id), status, hash: w.hash ?? null, error: w.error ?? null });
    log.warn(
      { payoutId: row.payoutId, batchId, withdrawalId: w.id, status },
      'nowpayments: payout found at the gateway by its unique_external_id (an earlier answer was lost); not created again',
    );
    const fresh = (await findPayout(row.payoutId))!;
    await verify(fresh);
    return mapPayoutStatus(fresh);
  }

  /** Marks the payout held for review: neither sent again nor refunded (see docs/payments.md). */
  async function hold(row: PayoutRow, reason: string): Promise<PayoutOutcome> {
    await savePayout(row.payoutId, { status: 'held', error: reason });
    log.error(
      { payoutId: row.payoutId, attempts: row.attempts, reason },
      'nowpayments: payout held for review: a retry was refused and the gateway shows no payout with its id; neither sent again nor refunded',
    );
    return { status: 'pending', txid: null };
  }

  /**
   * Sends a payout exactly once (docs/payments.md, "Payouts exactly once"):
   * 1. the intent row is written before any request; a known batch is only refreshed;
   * 2. after a create whose answer was lost (attempts > 0), the payout is looked up by its
   *    `unique_external_id`; found → adopted; not found → created again only once
   *    {@link LOST_ANSWER_GRACE_MS} have passed since the last request (a request still in flight
   *    at the gateway is acted on or dropped by then);
   * 3. each create request is counted (compare-and-set on `attempts`) before it is sent, so two
   *    overlapping passes never both send;
   * 4. a refusal (4xx) is followed by a lookup: found → adopted (a duplicate, or a lost earlier
   *    answer); not found → a first request's refusal refunds ('rejected'); a retry's refusal
   *    never does: the payout is held for review.
   * Network errors, 5xx and 401 are thrown: the worker retries later.
   */
  async function sendPayout(request: PayoutRequest): Promise<PayoutOutcome> {
    let row = await findPayout(request.payoutId);
    if (row?.batchId || row?.status === 'rejected') return refresh(row);
    if (!settings.login) {
      if (!row || row.attempts === 0) return { status: 'failed', reason: 'Payouts are not configured' };
      throw new Error('nowpayments: payouts are not configured, but an earlier payout request may have reached the gateway');
    }
    if (!row) {
      const now = new Date(clock.now());
      await db
        .insert(nowpaymentsPayouts)
        .values({ payoutId: request.payoutId, status: 'requesting', createdAt: now, updatedAt: now })
        .onConflictDoNothing();
      row = (await findPayout(request.payoutId))!;
      if (row.batchId) return refresh(row);
    }
    if (row.attempts > 0) {
      const found = await lookup(row);
      if (found) return adopt(row, found);
      if (row.status === 'held') return { status: 'pending', txid: null };
      const since = clock.now() - (row.lastAttemptAt?.getTime() ?? 0);
      if (since < LOST_ANSWER_GRACE_MS) return { status: 'unknown' };
      log.warn(
        { payoutId: row.payoutId, attempts: row.attempts },
        'nowpayments: an earlier payout request left no payout at the gateway; asking again',
      );
    }
    // Count this request before sending it; a pass that loses the race sends nothing.
    const now = new Date(clock.now());
    const claimed = await db
      .update(nowpaymentsPayouts)
      .set({ attempts: row.attempts + 1, lastAttemptAt: now, updatedAt: now })
      .where(
        and(
          eq(nowpaymentsPayouts.payoutId, row.payoutId),
          eq(nowpaymentsPayouts.attempts, row.attempts),
          isNull(nowpaymentsPayouts.batchId),
        ),
      )
      .returning();
    if (!claimed[0]) return { status: 'unknown' };
    const first = row.attempts === 0;
    row = claimed[0];
    let created: { id: string | number; withdrawals: GatewayWithdrawal[] };
    try {
      created = await api.createPayout({
        ipn_callback_url: settings.ipnUrl,
        withdrawals: [
          {
            address: request.address,
            currency: request.currency,
            amount: Number(request.currencyAmount),
            ...(request.memo ? { extra_id: request.memo } : {}),
            ipn_callback_url: settings.ipnUrl,
            unique_external_id: request.payoutId,
          },
        ],
      });
    } catch (err) {
      if (!(err instanceof GatewayRejection) || err.status === 401) throw err;
      const found = await lookup(row);
      if (found) return adopt(row, found);
      if (!first) return hold(row, `A retry was refused: ${err.message}`);
      await savePayout(request.payoutId, { status: 'rejected', error: err.message });
      log.warn({ payoutId: request.payoutId, reason: err.message }, 'nowpayments: payout refused');
      return { status: 'failed', reason: err.message };
    }
    const w =
      created.withdrawals.find((x) => String(x.unique_external_id ?? request.payoutId) === request.payoutId) ??
      created.withdrawals[0];
    if (!w) throw new Error('NOWPayments created a payout without withdrawals');
    await savePayout(request.payoutId, {
      batchId: String(created.id),
      withdrawalId: String(w.id),
      status: w.status.toLowerCase(),
      hash: w.hash ?? null,
    });
    const saved = (await findPayout(request.payoutId))!;
    await verify(saved);
    log.info({ payoutId: request.payoutId, batchId: saved.batchId }, 'nowpayments: payout requested');
    return mapPayoutStatus(saved);
  }

  /** A payout IPN: stored for the payout it names, after checking it is ours (a mismatch goes to review). */
  async function handleWithdrawal(w: GatewayWithdrawal): Promise<void> {
    const withdrawalId = String(w.id);
    const [row] = await db.select().from(nowpaymentsPayouts).where(eq(nowpaymentsPayouts.withdrawalId, withdrawalId));
    if (!row) {
      await review('payout', withdrawalId, null, 'unknown_payout', `No Coffer payout has gateway withdrawal ${withdrawalId}`, w);
      return;
    }
    if (w.unique_external_id != null && String(w.unique_external_id) !== row.payoutId) {
      await review(
        'payout',
        withdrawalId,
        row.payoutId,
        'other_payout',
        `Withdrawal ${withdrawalId} is payout ${row.payoutId}; the report names ${String(w.unique_external_id)}`,
        w,
      );
      return;
    }
    await record(row, w);
  }

  async function ipnRoutes(app: FastifyInstance): Promise<void> {
    app.post(IPN_PATH, { schema: { hide: true } }, async (req) => {
      const signature = req.headers['x-nowpayments-sig'];
      const body = req.body;
      if (
        !body ||
        typeof body !== 'object' ||
        !verifyIpnSignature(body, typeof signature === 'string' ? signature : undefined, settings.ipnSecret.reveal())
      ) {
        req.log.warn({ ip: req.ip }, 'nowpayments: IPN with a missing or bad signature ignored');
        throw errors.unauthorized('Invalid IPN signature');
      }
      if ('payment_id' in body && 'payment_status' in body) await handlePayment(body as GatewayPayment);
      else if ('id' in body && 'status' in body) await handleWithdrawal(body as GatewayWithdrawal);
      else req.log.warn('nowpayments: signed IPN of an unknown kind ignored');
      return { code: 10000, msg: 'ok' };
    });
  }

  return {
    name: 'nowpayments',
    sandbox: false,
    // One gateway account: a few requests at once, each payout its own batch (its intent row and
    // idempotency stay per payout; see docs/decisions/0022-payouts-and-uploads-at-the-limit.md).
    maxPayoutConcurrency: NOWPAYMENTS_MAX_PAYOUT_CONCURRENCY,
    handlePayment,

    async listCurrencies(): Promise<ProviderCurrency[]> {
      const all = await api.fullCurrencies();
      const byCode = new Map(all.map((c) => [c.code.toLowerCase(), c]));
      const out: ProviderCurrency[] = [];
      for (const code of settings.currencies) {
        const c = byCode.get(code);
        if (!c || c.enable === false) continue;
        const symbol = symbolOf(code);
        out.push({
          code,
          symbol,
          name: c.name,
          network: (c.network ?? code).toUpperCase(),
          logoUrl: `${CURRENCY_LOGO_PATH}${symbol.toLowerCase()}.svg`,
          walletRegex: c.wallet_regex ?? '',
          extraIdExists: c.extra_id_exists === true,
          extraIdRegex: c.extra_id_exists ? (c.extra_id_regex ?? null) : null,
          payoutMinUsd: settings.payoutMinUsd,
          payout: symbol === 'USDT' && settings.login !== null,
        });
      }
      return out;
    },

    priceUsd,

    async minDeposit(code) {
      return (await api.minAmount(code)).minAmount;
    },

    async createDeposit({ billId, code, currencyAmount, expiresAt }) {
      const p = await api.createPayment({
        price_amount: Number(currencyAmount),
        price_currency: code,
        pay_currency: code,
        order_id: billId,
        order_description: `Coffer top-up ${billId}`,
        ipn_callback_url: settings.ipnUrl,
        is_fixed_rate: false,
        is_fee_paid_by_user: false,
      });
      if (!p.pay_address) throw new Error('NOWPayments created a payment without pay_address');
      const now = new Date(clock.now());
      await db
        .insert(nowpaymentsPayments)
        .values({
          paymentId: String(p.payment_id),
          billId,
          payCurrency: code,
          payAddress: p.pay_address,
          status: String(p.payment_status ?? 'waiting').toLowerCase(),
          expiresAt: new Date(expiresAt),
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing();
      return { address: p.pay_address, extraId: p.payin_extra_id || null, providerRef: String(p.payment_id) };
    },

    async estimatePayoutFee({ code, currencyAmount }) {
      const fee = await api.payoutFee(code, currencyAmount);
      const feeUsd = new Big(fee)
        .times(await priceUsd(code))
        .round(2, Big.roundUp)
        .toFixed(2);
      return { fee: new Big(fee).round(8, Big.roundUp).toFixed(8), feeUsd };
    },

    sendPayout,

    async payoutStatus(payoutId) {
      const row = await findPayout(payoutId);
      if (!row) return { status: 'unknown' };
      if (row.batchId || row.status === 'rejected') return refresh(row);
      // No batch known: a create whose answer was lost, or a payout held for review.
      const found = row.attempts > 0 ? await lookup(row) : null;
      if (found) return adopt(row, found);
      return row.status === 'held' ? { status: 'pending', txid: null } : { status: 'unknown' };
    },

    async pollOpenPayments() {
      const open = await db
        .select()
        .from(nowpaymentsPayments)
        .where(
          and(
            notInArray(nowpaymentsPayments.status, FINAL_PAYMENT_STATUSES),
            gt(nowpaymentsPayments.expiresAt, new Date(clock.now() - POLL_WINDOW_MS)),
          ),
        );
      let credited = 0;
      for (const row of open) {
        try {
          if (await handlePayment(await api.payment(row.paymentId))) credited++;
        } catch (err) {
          log.error(
            { paymentId: row.paymentId, reason: err instanceof Error ? err.message : String(err) },
            'nowpayments: payment poll failed',
          );
        }
      }
      return credited;
    },

    attach(hooks) {
      credit = hooks.credit;
      return {
        workers: [{ name: 'nowpayments-poll', intervalMs: settings.pollMs, tick: () => this.pollOpenPayments() }],
        routes: ipnRoutes,
      };
    },
  };
}

/**
 * The `nowpayments` payment provider (DESIGN 2, 5, 6; docs/payments.md "Running Coffer on the
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
 *   See {@link mapPaymentStatus} for what each payment_status means to Coffer. A payment is credited
 *   once, under the reference `nowpayments:<payment_id>`, at `actually_paid`.
 * - Payouts: `POST /v1/payout` with a JWT from `/v1/auth`, the bill id as `unique_external_id`, and
 *   the row saved first so a retry never asks twice; verified with a TOTP code from
 *   `NOWPAYMENTS_2FA_SECRET` when set; the outcome from `GET /v1/payout/:id` (and payout IPNs).
 */
import { Big, DepositStatus } from '@coffer/contract';
import { and, eq, gt, notInArray } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Secret as OtpSecret, TOTP } from 'otpauth';
import type { Db } from '../../../db/client';
import { nowpaymentsPayments, nowpaymentsPayouts } from '../../../db/schema/index';
import type { Clock } from '../../../lib/clock';
import { AppError, errors } from '../../../lib/errors';
import { CURRENCY_LOGO_PATH } from '../sandbox';
import type { PaymentProvider, PayoutOutcome, ProviderCurrency, ProviderHooks } from '../types';
import { createNowPaymentsApi, decimal, GatewayRejection, verifyIpnSignature, type GatewayPayment, type GatewayWithdrawal, type NowPaymentsApi } from './api';
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
 * - finished (paid in full, or more) and partially_paid (short, final): credited at `actually_paid`,
 *   bill DepositStatusSuccess (DESIGN 5: the received value is credited, whatever was asked);
 * - failed, refunded, expired: nothing is credited; the bill expires on Coffer's own clock
 *   (DepositStatusExpired).
 * An unknown status counts as processing.
 */
export function mapPaymentStatus(status: string): PaymentStatusMeaning {
  switch (status.toLowerCase()) {
    case 'finished':
    case 'partially_paid':
      return { depositStatus: DepositStatus.Success, credit: true, final: true };
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
  if (status === 'failed' || status === 'rejected') return { status: 'failed', reason: w.error || `The gateway reports the payout ${status}` };
  return { status: 'pending', txid: w.hash ?? null };
}

const FINAL_PAYMENT_STATUSES = ['finished', 'partially_paid', 'failed', 'refunded', 'expired'];
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

  const symbolOf = (code: string): string => (code.startsWith('usdt') ? 'USDT' : code.startsWith('usdc') ? 'USDC' : code.toUpperCase());

  async function priceUsd(code: string): Promise<string> {
    const cached = prices.get(code);
    if (cached && clock.now() - cached.at < PRICE_CACHE_MS) return cached.price;
    const perThousand = await api.estimateFromUsd('1000', code);
    if (new Big(perThousand).lte(0)) throw new Error(`NOWPayments has no price for ${code}`);
    const price = new Big(1000).div(perThousand).round(8, Big.roundHalfUp).toFixed(8);
    prices.set(code, { at: clock.now(), price });
    return price;
  }

  async function handlePayment(p: GatewayPayment): Promise<boolean> {
    const paymentId = String(p.payment_id);
    const status = String(p.payment_status ?? '').toLowerCase();
    const now = new Date(clock.now());
    await db.update(nowpaymentsPayments).set({ status, updatedAt: now }).where(eq(nowpaymentsPayments.paymentId, paymentId));
    const meaning = mapPaymentStatus(status);
    if (!meaning.credit) return false;
    const billId = p.order_id ? String(p.order_id) : null;
    let amount = decimal(p.actually_paid);
    if (new Big(amount).lte(0) && status === 'finished') amount = decimal(p.pay_amount);
    if (!billId || new Big(amount).lte(0)) {
      log.warn({ paymentId, status }, 'nowpayments: a paid payment without an order id or amount; not credited');
      return false;
    }
    if (!credit) throw new Error('nowpayments: not attached to the deposits service');
    try {
      const result = (await credit({ billId, paymentRef: `nowpayments:${paymentId}`, currencyAmount: amount })) as { replayed?: boolean } | undefined;
      const fresh = result?.replayed !== true;
      if (fresh) log.info({ paymentId, billId, status, currencyAmount: amount }, 'nowpayments: deposit credited');
      return fresh;
    } catch (err) {
      if (err instanceof AppError && err.reason === 'NOT_FOUND') {
        log.warn({ paymentId, billId }, 'nowpayments: payment for an unknown bill; not credited');
        return false;
      }
      throw err;
    }
  }

  async function findPayout(payoutId: string) {
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
      log.warn({ payoutId: row.payoutId, batchId: row.batchId, reason: err.message }, 'nowpayments: payout verification refused; will try again');
    }
  }

  async function refresh(row: typeof nowpaymentsPayouts.$inferSelect): Promise<PayoutOutcome> {
    if (!row.batchId) return { status: 'unknown' };
    const final = mapPayoutStatus(row);
    if (final.status !== 'pending') return final;
    const list = await api.payout(row.batchId);
    const w = list.find((x) => String(x.id) === row.withdrawalId) ?? list[0];
    if (w) {
      await savePayout(row.payoutId, { status: w.status.toLowerCase(), hash: w.hash ?? null, error: w.error ?? null });
      row = { ...row, status: w.status.toLowerCase(), hash: w.hash ?? null, error: w.error ?? null };
    }
    await verify(row);
    return mapPayoutStatus(row);
  }

  async function handleWithdrawal(w: GatewayWithdrawal): Promise<void> {
    const [row] = await db.select().from(nowpaymentsPayouts).where(eq(nowpaymentsPayouts.withdrawalId, String(w.id)));
    if (!row) {
      log.warn({ withdrawalId: w.id }, 'nowpayments: IPN for an unknown payout');
      return;
    }
    await savePayout(row.payoutId, { status: w.status.toLowerCase(), hash: w.hash ?? null, error: w.error ?? null });
  }

  async function ipnRoutes(app: FastifyInstance): Promise<void> {
    app.post(IPN_PATH, { schema: { hide: true } }, async (req) => {
      const signature = req.headers['x-nowpayments-sig'];
      const body = req.body;
      if (!body || typeof body !== 'object' || !verifyIpnSignature(body, typeof signature === 'string' ? signature : undefined, settings.ipnSecret.reveal())) {
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
      const feeUsd = new Big(fee).times(await priceUsd(code)).round(2, Big.roundUp).toFixed(2);
      return { fee: new Big(fee).round(8, Big.roundUp).toFixed(8), feeUsd };
    },

    async sendPayout(request) {
      const existing = await findPayout(request.payoutId);
      if (existing?.batchId) return refresh(existing);
      if (!settings.login) return { status: 'failed', reason: 'Payouts are not configured' };
      if (!existing) {
        const now = new Date(clock.now());
        await db.insert(nowpaymentsPayouts).values({ payoutId: request.payoutId, status: 'requesting', createdAt: now, updatedAt: now }).onConflictDoNothing();
      }
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
        await savePayout(request.payoutId, { status: 'rejected', error: err.message });
        log.warn({ payoutId: request.payoutId, reason: err.message }, 'nowpayments: payout refused');
        return { status: 'failed', reason: err.message };
      }
      const w = created.withdrawals[0];
      if (!w) throw new Error('NOWPayments created a payout without withdrawals');
      await savePayout(request.payoutId, { batchId: String(created.id), withdrawalId: String(w.id), status: w.status.toLowerCase(), hash: w.hash ?? null });
      const row = (await findPayout(request.payoutId))!;
      await verify(row);
      log.info({ payoutId: request.payoutId, batchId: row.batchId }, 'nowpayments: payout requested');
      return mapPayoutStatus(row);
    },

    async payoutStatus(payoutId) {
      const row = await findPayout(payoutId);
      if (!row) return { status: 'unknown' };
      return refresh(row);
    },

    async pollOpenPayments() {
      const open = await db
        .select()
        .from(nowpaymentsPayments)
        .where(and(notInArray(nowpaymentsPayments.status, FINAL_PAYMENT_STATUSES), gt(nowpaymentsPayments.expiresAt, new Date(clock.now() - POLL_WINDOW_MS))));
      let credited = 0;
      for (const row of open) {
        try {
          if (await handlePayment(await api.payment(row.paymentId))) credited++;
        } catch (err) {
          log.error({ paymentId: row.paymentId, reason: err instanceof Error ? err.message : String(err) }, 'nowpayments: payment poll failed');
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

/**
 * NOWPayments' public REST API (v1), the parts Coffer uses, and its IPN signature rule.
 *
 * Requests carry `x-api-key`; payout calls also `Authorization: Bearer <JWT from POST /v1/auth>`.
 * The gateway sends amounts as JSON numbers: they are turned into exact decimal strings right away
 * (from the number's shortest decimal form), and Coffer computes only with decimal strings.
 *
 * IPN: the gateway POSTs the payment (or withdrawal) object to the callback URL with header
 * `x-nowpayments-sig` = hex HMAC-SHA512, keyed with the IPN secret, of the body's JSON with its
 * keys sorted (recursively, as the gateway's own sample code sorts them).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Big } from '@coffer/contract';

/** A gateway payment (`POST /v1/payment`, `GET /v1/payment/:id`, and the payment IPN body). */
export interface GatewayPayment {
  payment_id: string | number;
  payment_status: string;
  pay_address?: string;
  payin_extra_id?: string | null;
  price_amount?: number | string;
  price_currency?: string;
  pay_amount?: number | string;
  actually_paid?: number | string;
  pay_currency?: string;
  order_id?: string | null;
  outcome_amount?: number | string;
  outcome_currency?: string;
  parent_payment_id?: string | number | null;
  payin_hash?: string | null;
  created_at?: string;
  updated_at?: string;
}

/** One withdrawal of a payout batch (`POST /v1/payout`, `GET /v1/payout/:id`, payout IPN body). */
export interface GatewayWithdrawal {
  id: string | number;
  batch_withdrawal_id?: string | number;
  address?: string;
  currency?: string;
  amount?: number | string;
  extra_id?: string | null;
  status: string;
  hash?: string | null;
  error?: string | null;
  unique_external_id?: string | null;
}

/** A full-currencies entry (`GET /v1/full-currencies`). */
export interface GatewayCurrency {
  code: string;
  name: string;
  enable?: boolean;
  wallet_regex?: string | null;
  extra_id_exists?: boolean;
  extra_id_regex?: string | null;
  network?: string | null;
  logo_url?: string | null;
}

/** An answer the gateway refused (4xx): the request itself is wrong (bad address, no balance...). */
export class GatewayRejection extends Error {
  override name = 'GatewayRejection';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A JSON number or numeric string from the gateway as an exact decimal string ("0" when absent). */
export function decimal(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '0';
  return new Big(typeof value === 'number' ? String(value) : value).toFixed();
}

/** Keys sorted alphabetically at every level: the gateway's `sortObject` of its IPN sample code. */
export function sortKeysDeep(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.keys(value)
    .sort()
    .reduce<Record<string, unknown>>((out, key) => {
      const v = (value as Record<string, unknown>)[key];
      out[key] = v && typeof v === 'object' ? sortKeysDeep(v) : v;
      return out;
    }, {});
}

/** The `x-nowpayments-sig` of an IPN body. */
export function ipnSignature(body: unknown, secret: string): string {
  return createHmac('sha512', secret)
    .update(JSON.stringify(sortKeysDeep(body)))
    .digest('hex');
}

/** True when `signature` is the body's HMAC-SHA512 under `secret` (constant-time comparison). */
export function verifyIpnSignature(body: unknown, signature: string | undefined, secret: string): boolean {
  if (!signature || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  const expected = Buffer.from(ipnSignature(body, secret), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature.toLowerCase(), 'hex'));
}

export interface NowPaymentsApi {
  fullCurrencies(): Promise<GatewayCurrency[]>;
  /** Minimum payment in `code` (`/v1/min-amount` with currency_from = currency_to = code, fiat_equivalent=usd). */
  minAmount(code: string): Promise<{ minAmount: string; fiatEquivalent: string | null }>;
  /** Crypto received for `usd` dollars (`/v1/estimate`, currency_from=usd). */
  estimateFromUsd(usd: string, code: string): Promise<string>;
  createPayment(body: Record<string, unknown>): Promise<GatewayPayment>;
  payment(paymentId: string): Promise<GatewayPayment>;
  createPayout(body: Record<string, unknown>): Promise<{ id: string | number; withdrawals: GatewayWithdrawal[] }>;
  verifyPayout(batchId: string, code: string): Promise<void>;
  payout(batchId: string): Promise<GatewayWithdrawal[]>;
  /**
   * One page of the account's withdrawals, newest first (`GET /v1/payout` with `date_from`, `page`
   * from 0, `limit`, `order_by=createdAt`, `order=desc`); each carries its `batch_withdrawal_id` and
   * `unique_external_id`. Coffer finds a payout whose create answer was lost by scanning these.
   */
  listPayouts(query: { dateFrom: string; page: number; limit: number }): Promise<GatewayWithdrawal[]>;
  /** Network fee of a payout (`/v1/payout/fee`), in the currency. */
  payoutFee(code: string, amount: string): Promise<string>;
}

/**
 * A client of the gateway at `baseUrl` (e.g. https://api.nowpayments.io).
 * @param login the account login for payouts (a JWT from `/v1/auth`, renewed on expiry), or null
 * @throws GatewayRejection on a 4xx answer; Error on anything else (network, 5xx): retry later
 */
export function createNowPaymentsApi(opts: {
  baseUrl: string;
  apiKey: string;
  login: { email: string; password: string } | null;
  timeoutMs?: number;
}): NowPaymentsApi {
  let jwt: { token: string; at: number } | null = null;
  const JWT_TTL_MS = 4 * 60_000; // the gateway's tokens last 5 minutes

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, bearer?: string): Promise<T> {
    const res = await fetch(`${opts.baseUrl}${path}`, {
      method,
      headers: {
        'x-api-key': opts.apiKey,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 20_000),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (res.status >= 400 && res.status < 500) {
      const message = json && typeof json === 'object' && 'message' in json ? String((json as { message: unknown }).message) : '';
      throw new GatewayRejection(res.status, message || `HTTP ${res.status}`);
    }
    if (!res.ok) throw new Error(`NOWPayments ${method} ${path.split('?')[0]} answered HTTP ${res.status}`);
    return json as T;
  }

  async function token(): Promise<string> {
    if (!opts.login) throw new GatewayRejection(401, 'Payouts are not configured (NOWPAYMENTS_EMAIL/NOWPAYMENTS_PASSWORD)');
    if (jwt && Date.now() - jwt.at < JWT_TTL_MS) return jwt.token;
    const answer = await call<{ token: string }>('POST', '/v1/auth', { email: opts.login.email, password: opts.login.password });
    jwt = { token: answer.token, at: Date.now() };
    return answer.token;
  }

  /** A payout call, with one fresh login if the token was refused. */
  async function authed<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    try {
      return await call<T>(method, path, body, await token());
    } catch (err) {
      if (!(err instanceof GatewayRejection && err.status === 401)) throw err;
      jwt = null;
      return call<T>(method, path, body, await token());
    }
  }

  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

  return {
    async fullCurrencies() {
      const answer = await call<{ currencies: GatewayCurrency[] }>('GET', '/v1/full-currencies');
      return answer.currencies ?? [];
    },
    async minAmount(code) {
      const answer = await call<{ min_amount: number | string; fiat_equivalent?: number | string }>(
        'GET',
        `/v1/min-amount?${q({ currency_from: code, currency_to: code, fiat_equivalent: 'usd' })}`,
      );
      return {
        minAmount: decimal(answer.min_amount),
        fiatEquivalent: answer.fiat_equivalent === undefined ? null : decimal(answer.fiat_equivalent),
      };
    },
    async estimateFromUsd(usd, code) {
      const answer = await call<{ estimated_amount: number | string }>(
        'GET',
        `/v1/estimate?${q({ amount: usd, currency_from: 'usd', currency_to: code })}`,
      );
      return decimal(answer.estimated_amount);
    },
    createPayment: (body) => call<GatewayPayment>('POST', '/v1/payment', body),
    payment: (id) => call<GatewayPayment>('GET', `/v1/payment/${encodeURIComponent(id)}`),
    createPayout: (body) => authed('POST', '/v1/payout', body),
    async verifyPayout(batchId, code) {
      await authed('POST', `/v1/payout/${encodeURIComponent(batchId)}/verify`, { verification_code: code });
    },
    async payout(batchId) {
      const answer = await authed<GatewayWithdrawal[] | { withdrawals: GatewayWithdrawal[] }>(
        'GET',
        `/v1/payout/${encodeURIComponent(batchId)}`,
      );
      return Array.isArray(answer) ? answer : (answer.withdrawals ?? []);
    },
    async listPayouts({ dateFrom, page, limit }) {
      const answer = await authed<GatewayWithdrawal[] | { payouts?: GatewayWithdrawal[]; data?: GatewayWithdrawal[] }>(
        'GET',
        `/v1/payout?${q({ date_from: dateFrom, page: String(page), limit: String(limit), order_by: 'createdAt', order: 'desc' })}`,
      );
      if (Array.isArray(answer)) return answer;
      const list = answer.payouts ?? answer.data;
      if (!Array.isArray(list)) throw new Error('NOWPayments answered the payout list in an unknown shape');
      return list;
    },
    async payoutFee(code, amount) {
      const answer = await call<{ fee: number | string }>('GET', `/v1/payout/fee?${q({ currency: code, amount })}`);
      return decimal(answer.fee);
    },
  };
}

/**
 * A local HTTP fake of NOWPayments' API for tests, written from the gateway's public documentation:
 * the same paths, parameters, headers (`x-api-key`, `Authorization: Bearer` for payouts) and JSON
 * field names, with amounts as JSON numbers as the gateway sends them. State lives in memory; the
 * test moves payments and payouts along and builds the signed IPN bodies the gateway would post.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret as OtpSecret, TOTP } from 'otpauth';
import type { GatewayPayment, GatewayWithdrawal } from './api';

export interface FakeNowPayments {
  baseUrl: string;
  payments: Map<string, GatewayPayment>;
  payouts: Map<string, { id: string; withdrawals: (GatewayWithdrawal & { verified: boolean })[] }>;
  /** Requests received, as `METHOD /path`. */
  requests: string[];
  /** Sets fields of a payment (e.g. payment_status, actually_paid) and returns it (an IPN body). */
  update(paymentId: string, patch: Partial<GatewayPayment>): GatewayPayment;
  /** Sets a withdrawal's status/hash/error and returns it (a payout IPN body). */
  settleWithdrawal(withdrawalId: string, patch: Partial<GatewayWithdrawal>): GatewayWithdrawal;
  /** USDT the payout balance holds; a payout above it is refused with 400. */
  balance: number;
  close(): Promise<void>;
}

export const FAKE_API_KEY = 'FAKE-API-KEY-0001';
export const FAKE_EMAIL = 'payouts@coffer.test';
export const FAKE_PASSWORD = 'fake-password';
export const FAKE_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';

const CURRENCIES = [
  { code: 'USDTTRC20', name: 'Tether USD (Tron)', network: 'trx', wallet_regex: '^T[1-9A-HJ-NP-Za-km-z]{33}$', extra_id_exists: false, extra_id_regex: null },
  { code: 'USDTERC20', name: 'Tether USD (Ethereum)', network: 'eth', wallet_regex: '^(0x)[0-9A-Fa-f]{40}$', extra_id_exists: false, extra_id_regex: null },
  { code: 'BTC', name: 'Bitcoin', network: 'btc', wallet_regex: '^(bc1|[13])[a-km-zA-HJ-NP-Z1-9]{25,62}$', extra_id_exists: false, extra_id_regex: null },
  { code: 'XRP', name: 'Ripple', network: 'xrp', wallet_regex: '^r[1-9A-HJ-NP-Za-km-z]{24,34}$', extra_id_exists: true, extra_id_regex: '^[0-9]{1,10}$' },
  { code: 'DOGE', name: 'Dogecoin', network: 'doge', wallet_regex: '^D[5-9A-HJ-NP-U][1-9A-HJ-NP-Za-km-z]{32}$', extra_id_exists: false, extra_id_regex: null, enable: false },
].map((c) => ({ enable: true, logo_url: `/images/coins/${c.code.toLowerCase()}.svg`, priority: 1, ...c }));

const USD_PRICES: Record<string, number> = { usdttrc20: 1, usdterc20: 1, btc: 60_000, xrp: 0.5 };
const MIN_AMOUNTS: Record<string, number> = { usdttrc20: 1.5, usdterc20: 10, btc: 0.0001, xrp: 5 };

function base58(n: number): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const bytes = randomBytes(n);
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}

/** Starts the fake on 127.0.0.1 (a free port). */
export async function startFakeNowPayments(): Promise<FakeNowPayments> {
  const payments = new Map<string, GatewayPayment>();
  const payouts = new Map<string, { id: string; withdrawals: (GatewayWithdrawal & { verified: boolean })[] }>();
  const byExternalId = new Map<string, string>();
  const tokens = new Set<string>();
  const requests: string[] = [];
  let nextId = 5_000_000_000;
  const state = { balance: 1000 };

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  }

  const bearerOk = (req: IncomingMessage) => tokens.has(String(req.headers.authorization ?? '').replace(/^Bearer /, ''));

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const path = url.pathname;
      requests.push(`${req.method} ${path}`);
      if (req.headers['x-api-key'] !== FAKE_API_KEY && path !== '/v1/auth') return send(res, 401, { status: false, statusCode: 401, code: 'INVALID_API_KEY', message: 'Invalid api key' });
      const q = (k: string) => url.searchParams.get(k) ?? '';

      if (req.method === 'GET' && path === '/v1/status') return send(res, 200, { message: 'OK' });
      if (req.method === 'GET' && path === '/v1/full-currencies') return send(res, 200, { currencies: CURRENCIES });
      if (req.method === 'GET' && path === '/v1/min-amount') {
        const from = q('currency_from');
        const min = MIN_AMOUNTS[from];
        if (min === undefined) return send(res, 400, { message: `Currency ${from} is not supported` });
        return send(res, 200, {
          currency_from: from,
          currency_to: q('currency_to'),
          min_amount: min,
          ...(q('fiat_equivalent') ? { fiat_equivalent: min * USD_PRICES[from]! } : {}),
        });
      }
      if (req.method === 'GET' && path === '/v1/estimate') {
        const to = q('currency_to');
        const price = USD_PRICES[to];
        if (q('currency_from') !== 'usd' || price === undefined) return send(res, 400, { message: 'Unsupported pair' });
        return send(res, 200, { currency_from: 'usd', amount_from: Number(q('amount')), currency_to: to, estimated_amount: Number(q('amount')) / price });
      }
      if (req.method === 'POST' && path === '/v1/payment') {
        const body = await readJson(req);
        const currency = String(body.pay_currency);
        if (USD_PRICES[currency] === undefined) return send(res, 400, { message: 'Currency not supported' });
        const id = String(nextId++);
        const address = currency.startsWith('usdttrc') ? `T${base58(33)}` : currency === 'xrp' ? `r${base58(30)}` : currency === 'btc' ? `bc1q${base58(38).toLowerCase()}` : `0x${randomBytes(20).toString('hex')}`;
        const payment: GatewayPayment = {
          payment_id: id,
          payment_status: 'waiting',
          pay_address: address,
          payin_extra_id: currency === 'xrp' ? String(1_000_000 + (nextId % 1000)) : null,
          price_amount: body.price_amount as number,
          price_currency: String(body.price_currency),
          pay_amount: body.price_amount as number,
          actually_paid: 0,
          pay_currency: currency,
          order_id: String(body.order_id),
          outcome_amount: body.price_amount as number,
          outcome_currency: currency,
          payin_hash: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        };
        payments.set(id, payment);
        return send(res, 201, payment);
      }
      const paymentMatch = /^\/v1\/payment\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && paymentMatch) {
        const p = payments.get(paymentMatch[1]!);
        return p ? send(res, 200, p) : send(res, 404, { message: 'Payment not found' });
      }
      if (req.method === 'POST' && path === '/v1/auth') {
        const body = await readJson(req);
        if (body.email !== FAKE_EMAIL || body.password !== FAKE_PASSWORD) return send(res, 401, { message: 'Invalid credentials' });
        const token = randomBytes(16).toString('hex');
        tokens.add(token);
        return send(res, 200, { token });
      }
      if (req.method === 'GET' && path === '/v1/payout/fee') {
        return send(res, 200, { currency: q('currency'), fee: q('currency') === 'usdttrc20' ? 1.5 : 4 });
      }
      if (req.method === 'POST' && path === '/v1/payout') {
        if (!bearerOk(req)) return send(res, 401, { message: 'Authorization header is empty (Bearer JWTtoken is required)' });
        const body = await readJson(req);
        const list = body.withdrawals as Record<string, unknown>[];
        const first = list[0]!;
        const external = first.unique_external_id ? String(first.unique_external_id) : null;
        if (external && byExternalId.has(external)) return send(res, 200, payouts.get(byExternalId.get(external)!));
        const amount = Number(first.amount);
        if (amount > state.balance) return send(res, 400, { message: 'Insufficient balance' });
        state.balance -= amount;
        const batchId = String(nextId++);
        const payout = {
          id: batchId,
          withdrawals: list.map((w) => ({
            is_request_payouts: false,
            id: String(nextId++),
            address: String(w.address),
            currency: String(w.currency),
            amount: String(w.amount),
            batch_withdrawal_id: batchId,
            ipn_callback_url: String(w.ipn_callback_url ?? body.ipn_callback_url ?? ''),
            status: 'CREATING',
            extra_id: (w.extra_id as string | undefined) ?? null,
            hash: null,
            error: null,
            unique_external_id: external,
            verified: false,
          })),
        };
        payouts.set(batchId, payout);
        if (external) byExternalId.set(external, batchId);
        return send(res, 200, payout);
      }
      const verifyMatch = /^\/v1\/payout\/([^/]+)\/verify$/.exec(path);
      if (req.method === 'POST' && verifyMatch) {
        if (!bearerOk(req)) return send(res, 401, { message: 'Authorization header is empty (Bearer JWTtoken is required)' });
        const payout = payouts.get(verifyMatch[1]!);
        if (!payout) return send(res, 404, { message: 'Payout not found' });
        const body = await readJson(req);
        const ok = new TOTP({ secret: OtpSecret.fromBase32(FAKE_TOTP_SECRET) }).validate({ token: String(body.verification_code), window: 1 }) !== null;
        if (!ok) return send(res, 400, { message: 'Invalid verification code' });
        for (const w of payout.withdrawals) {
          w.verified = true;
          w.status = 'WAITING';
        }
        return send(res, 200, 'OK');
      }
      const payoutMatch = /^\/v1\/payout\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && payoutMatch) {
        if (!bearerOk(req)) return send(res, 401, { message: 'Authorization header is empty (Bearer JWTtoken is required)' });
        const payout = payouts.get(payoutMatch[1]!);
        return payout ? send(res, 200, payout.withdrawals) : send(res, 404, { message: 'Payout not found' });
      }
      return send(res, 404, { message: 'Not found' });
    })().catch((err: unknown) => send(res, 500, { message: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    payments,
    payouts,
    requests,
    get balance() {
      return state.balance;
    },
    set balance(v: number) {
      state.balance = v;
    },
    update(paymentId, patch) {
      const p = payments.get(paymentId);
      if (!p) throw new Error(`fake: no payment ${paymentId}`);
      Object.assign(p, patch, { updated_at: new Date().toISOString() });
      return { ...p };
    },
    settleWithdrawal(withdrawalId, patch) {
      for (const payout of payouts.values()) {
        const w = payout.withdrawals.find((x) => x.id === withdrawalId);
        if (w) {
          Object.assign(w, patch);
          const { verified: _verified, ...body } = w;
          return body;
        }
      }
      throw new Error(`fake: no withdrawal ${withdrawalId}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

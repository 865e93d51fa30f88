/**
 * A local fake of NOWPayments' API for tests, written from the gateway's public documentation:
 * the same paths, parameters, headers (`x-api-key`, `Authorization: Bearer` for payouts) and JSON
 * field names, with amounts as JSON numbers as the gateway sends them. State lives in memory; the
 * test moves payments and payouts along and builds the signed IPN bodies the gateway would post.
 *
 * Two ways in, over the same state ({@link FakeGateway}):
 * - {@link startFakeNowPayments}: an HTTP server on 127.0.0.1, with HTTP faults queued per route
 *   ({@link FakeNowPayments.fault}): fail before acting (502), act then drop the connection (the
 *   answer is lost), act only when the test releases the request (a late answer, after the caller
 *   gave up), or act twice on one request (a proxy that delivers it twice; the caller gets the
 *   second answer).
 * - {@link fakeApiClient}: a {@link NowPaymentsApi} that calls the state directly (no sockets), with
 *   the same faults chosen per call by the test: cheap enough for hundreds of random fault schedules.
 *
 * Duplicates: a payout request whose `unique_external_id` was already used is refused (HTTP 400,
 * nothing created, the balance untouched) — what Coffer assumes of the real gateway
 * (docs/payments.md, "What the gateway guarantees and what Coffer assumes").
 */
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret as OtpSecret, TOTP } from 'otpauth';
import {
  decimal,
  GatewayRejection,
  type GatewayCurrency,
  type GatewayPayment,
  type GatewayWithdrawal,
  type NowPaymentsApi,
} from '../../providers/payments/nowpayments/api';

/** A withdrawal as the fake keeps it (`verified` is the fake's own flag, never sent). */
export type FakeWithdrawal = GatewayWithdrawal & { verified: boolean; created_at: string };

/** The gateway's state and its operations, shared by the HTTP server and the direct client. */
export interface FakeGateway {
  payments: Map<string, GatewayPayment>;
  payouts: Map<string, { id: string; withdrawals: FakeWithdrawal[] }>;
  /** USDT the payout balance holds; a payout above it is refused with 400. */
  balance: number;
  /** USD per unit, by lower-case code (tests move BTC's price). */
  prices: Record<string, number>;
  /** Sets fields of a payment (e.g. payment_status, actually_paid) and returns it (an IPN body). */
  update(paymentId: string, patch: Partial<GatewayPayment>): GatewayPayment;
  /** Sets a withdrawal's status/hash/error and returns it (a payout IPN body). */
  settleWithdrawal(withdrawalId: string, patch: Partial<GatewayWithdrawal>): GatewayWithdrawal;
  /** Every withdrawal ever created with this `unique_external_id` (exactly-once checks). */
  withdrawalsFor(externalId: string): FakeWithdrawal[];
  /** The gateway's clock in ms (2FA codes are checked against it); tests point it at their own clock. */
  now: () => number;
}

/** What a faulty call does (see the module comment). */
export type FakeFault = 'ok' | 'fail' | 'lose-answer' | 'late' | 'twice';

export interface FakeNowPayments extends FakeGateway {
  baseUrl: string;
  /** Requests received, as `METHOD /path`. */
  requests: string[];
  /** Queues `fault` for the next `times` requests to `route` (e.g. `POST /v1/payout`). */
  fault(route: string, fault: Exclude<FakeFault, 'ok'>, times?: number): void;
  /** Acts on (and answers, if anyone still listens) every request held by a 'late' fault. @returns how many */
  releaseLate(): Promise<number>;
  close(): Promise<void>;
}

export const FAKE_API_KEY = 'FAKE-API-KEY-0001';
export const FAKE_EMAIL = 'payouts@coffer.test';
export const FAKE_PASSWORD = 'fake-password';
export const FAKE_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';

const CURRENCIES = [
  {
    code: 'USDTTRC20',
    name: 'Tether USD (Tron)',
    network: 'trx',
    wallet_regex: '^T[1-9A-HJ-NP-Za-km-z]{33}$',
    extra_id_exists: false,
    extra_id_regex: null,
  },
  {
    code: 'USDTERC20',
    name: 'Tether USD (Ethereum)',
    network: 'eth',
    wallet_regex: '^(0x)[0-9A-Fa-f]{40}$',
    extra_id_exists: false,
    extra_id_regex: null,
  },
  {
    code: 'BTC',
    name: 'Bitcoin',
    network: 'btc',
    wallet_regex: '^(bc1|[13])[a-km-zA-HJ-NP-Z1-9]{25,62}$',
    extra_id_exists: false,
    extra_id_regex: null,
  },
  {
    code: 'XRP',
    name: 'Ripple',
    network: 'xrp',
    wallet_regex: '^r[1-9A-HJ-NP-Za-km-z]{24,34}$',
    extra_id_exists: true,
    extra_id_regex: '^[0-9]{1,10}$',
  },
  {
    code: 'DOGE',
    name: 'Dogecoin',
    network: 'doge',
    wallet_regex: '^D[5-9A-HJ-NP-U][1-9A-HJ-NP-Za-km-z]{32}$',
    extra_id_exists: false,
    extra_id_regex: null,
    enable: false,
  },
].map((c) => ({ enable: true, logo_url: `/images/coins/${c.code.toLowerCase()}.svg`, priority: 1, ...c }));

const MIN_AMOUNTS: Record<string, number> = { usdttrc20: 1.5, usdterc20: 10, btc: 0.0001, xrp: 5 };

function base58(n: number): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const bytes = randomBytes(n);
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}

/** A refusal of the fake: HTTP status and the gateway's error body. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The gateway's state in memory, with the documented rules (no transport). */
export function createFakeGateway(): FakeGateway & {
  ops: {
    fullCurrencies(): GatewayCurrency[];
    minAmount(from: string, fiat: boolean): Record<string, unknown>;
    estimate(from: string, to: string, amount: number): Record<string, unknown>;
    createPayment(body: Record<string, unknown>): GatewayPayment;
    payment(id: string): GatewayPayment;
    createPayout(body: Record<string, unknown>): { id: string; withdrawals: GatewayWithdrawal[] };
    verify(batchId: string, code: string): void;
    payout(batchId: string): GatewayWithdrawal[];
    listPayouts(dateFrom: string, page: number, limit: number): GatewayWithdrawal[];
  };
} {
  const payments = new Map<string, GatewayPayment>();
  const payouts = new Map<string, { id: string; withdrawals: FakeWithdrawal[] }>();
  const byExternalId = new Map<string, string>();
  // A random base: ids never repeat across runs on a reused PostgreSQL test database.
  let nextId = 5_000_000_000 + randomInt(0, 2 ** 40) * 16;
  let seq = 0;
  /** Creation order of each withdrawal ("newest first" must hold within one millisecond too). */
  const order = new Map<string, number>();
  const state = { balance: 1000 };
  const prices: Record<string, number> = { usdttrc20: 1, usdterc20: 1, btc: 60_000, xrp: 0.5 };
  const publicOf = (w: FakeWithdrawal): GatewayWithdrawal => {
    const { verified: _verified, ...body } = w;
    return { ...body };
  };

  const gateway = {
    payments,
    payouts,
    prices,
    now: () => Date.now(),
    get balance() {
      return state.balance;
    },
    set balance(v: number) {
      state.balance = v;
    },
    update(paymentId: string, patch: Partial<GatewayPayment>) {
      const p = payments.get(paymentId);
      if (!p) throw new Error(`fake: no payment ${paymentId}`);
      Object.assign(p, patch, { updated_at: new Date().toISOString() });
      return { ...p };
    },
    settleWithdrawal(withdrawalId: string, patch: Partial<GatewayWithdrawal>) {
      for (const payout of payouts.values()) {
        const w = payout.withdrawals.find((x) => x.id === withdrawalId);
        if (w) {
          Object.assign(w, patch);
          return publicOf(w);
        }
      }
      throw new Error(`fake: no withdrawal ${withdrawalId}`);
    },
    withdrawalsFor(externalId: string) {
      return [...payouts.values()].flatMap((p) => p.withdrawals).filter((w) => w.unique_external_id === externalId);
    },
    ops: {
      fullCurrencies: () => CURRENCIES,
      minAmount(from: string, fiat: boolean) {
        const min = MIN_AMOUNTS[from];
        if (min === undefined) throw new Refusal(400, `Currency ${from} is not supported`);
        return {
          currency_from: from,
          currency_to: from,
          min_amount: min,
          ...(fiat ? { fiat_equivalent: min * prices[from]! } : {}),
        };
      },
      estimate(from: string, to: string, amount: number) {
        const price = prices[to];
        if (from !== 'usd' || price === undefined) throw new Refusal(400, 'Unsupported pair');
        return { currency_from: 'usd', amount_from: amount, currency_to: to, estimated_amount: amount / price };
      },
      createPayment(body: Record<string, unknown>) {
        const currency = String(body.pay_currency);
        if (prices[currency] === undefined) throw new Refusal(400, 'Currency not supported');
        const id = String(nextId++);
        const address = currency.startsWith('usdttrc')
          ? `T${base58(33)}`
          : currency === 'xrp'
            ? `r${base58(30)}`
            : currency === 'btc'
              ? `bc1q${base58(38).toLowerCase()}`
              : `0x${randomBytes(20).toString('hex')}`;
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
        return { ...payment };
      },
      payment(id: string) {
        const p = payments.get(id);
        if (!p) throw new Refusal(404, 'Payment not found');
        return { ...p };
      },
      createPayout(body: Record<string, unknown>) {
        const list = (body.withdrawals as Record<string, unknown>[] | undefined) ?? [];
        if (!list.length) throw new Refusal(400, 'withdrawals is required');
        for (const w of list) {
          const external = w.unique_external_id ? String(w.unique_external_id) : null;
          if (external && byExternalId.has(external)) throw new Refusal(400, `unique_external_id ${external} already exists`);
        }
        const total = list.reduce((sum, w) => sum + Number(w.amount), 0);
        if (total > state.balance) throw new Refusal(400, 'Insufficient balance');
        state.balance -= total;
        const batchId = String(nextId++);
        const payout = {
          id: batchId,
          withdrawals: list.map(
            (w): FakeWithdrawal =>
              ({
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
                unique_external_id: w.unique_external_id ? String(w.unique_external_id) : null,
                created_at: new Date(gateway.now()).toISOString(),
                verified: false,
              }) as FakeWithdrawal,
          ),
        };
        payouts.set(batchId, payout);
        for (const w of payout.withdrawals) order.set(String(w.id), seq++);
        for (const w of payout.withdrawals) if (w.unique_external_id) byExternalId.set(w.unique_external_id, batchId);
        return { id: batchId, withdrawals: payout.withdrawals.map(publicOf) };
      },
      verify(batchId: string, code: string) {
        const payout = payouts.get(batchId);
        if (!payout) throw new Refusal(404, 'Payout not found');
        const ok =
          new TOTP({ secret: OtpSecret.fromBase32(FAKE_TOTP_SECRET) }).validate({
            token: code,
            timestamp: gateway.now(),
            window: 1,
          }) !== null;
        if (!ok) throw new Refusal(400, 'Invalid verification code');
        for (const w of payout.withdrawals) {
          if (w.verified) continue;
          w.verified = true;
          if (w.status === 'CREATING') w.status = 'WAITING';
        }
      },
      payout(batchId: string) {
        const payout = payouts.get(batchId);
        if (!payout) throw new Refusal(404, 'Payout not found');
        return payout.withdrawals.map(publicOf);
      },
      listPayouts(dateFrom: string, page: number, limit: number) {
        const from = dateFrom ? Date.parse(dateFrom) : 0;
        const all = [...payouts.values()]
          .flatMap((p) => p.withdrawals)
          .filter((w) => Date.parse(w.created_at) >= from)
          .sort((a, b) => order.get(String(b.id))! - order.get(String(a.id))!);
        return all.slice(page * limit, page * limit + limit).map(publicOf);
      },
    },
  };
  return gateway;
}

/** Starts the HTTP fake on 127.0.0.1 (a free port). */
export async function startFakeNowPayments(): Promise<FakeNowPayments> {
  const gateway = createFakeGateway();
  const { ops } = gateway;
  const tokens = new Set<string>();
  const requests: string[] = [];
  const faults: { route: string; fault: Exclude<FakeFault, 'ok'> }[] = [];
  const held: (() => Promise<void>)[] = [];

  function send(res: ServerResponse, status: number, body: unknown) {
    if (res.destroyed || res.writableEnded) return;
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
  const unauthorized = { message: 'Authorization header is empty (Bearer JWTtoken is required)' };

  /** The gateway's answer to one request: [status, body]. Acts on the state. */
  async function act(method: string, url: URL, body: Record<string, unknown>, req: IncomingMessage): Promise<[number, unknown]> {
    const path = url.pathname;
    const q = (k: string) => url.searchParams.get(k) ?? '';
    try {
      if (method === 'GET' && path === '/v1/status') return [200, { message: 'OK' }];
      if (method === 'GET' && path === '/v1/full-currencies') return [200, { currencies: ops.fullCurrencies() }];
      if (method === 'GET' && path === '/v1/min-amount') return [200, ops.minAmount(q('currency_from'), !!q('fiat_equivalent'))];
      if (method === 'GET' && path === '/v1/estimate')
        return [200, ops.estimate(q('currency_from'), q('currency_to'), Number(q('amount')))];
      if (method === 'POST' && path === '/v1/payment') return [201, ops.createPayment(body)];
      const paymentMatch = /^\/v1\/payment\/([^/]+)$/.exec(path);
      if (method === 'GET' && paymentMatch) return [200, ops.payment(paymentMatch[1]!)];
      if (method === 'POST' && path === '/v1/auth') {
        if (body.email !== FAKE_EMAIL || body.password !== FAKE_PASSWORD) return [401, { message: 'Invalid credentials' }];
        const token = randomBytes(16).toString('hex');
        tokens.add(token);
        return [200, { token }];
      }
      if (method === 'GET' && path === '/v1/payout/fee')
        return [200, { currency: q('currency'), fee: q('currency') === 'usdttrc20' ? 1.5 : 4 }];
      if (path.startsWith('/v1/payout') && !bearerOk(req)) return [401, unauthorized];
      if (method === 'POST' && path === '/v1/payout') return [200, ops.createPayout(body)];
      if (method === 'GET' && path === '/v1/payout') {
        return [200, { payouts: ops.listPayouts(q('date_from'), Number(q('page') || 0), Number(q('limit') || 10)) }];
      }
      const verifyMatch = /^\/v1\/payout\/([^/]+)\/verify$/.exec(path);
      if (method === 'POST' && verifyMatch) {
        ops.verify(verifyMatch[1]!, String(body.verification_code));
        return [200, 'OK'];
      }
      const payoutMatch = /^\/v1\/payout\/([^/]+)$/.exec(path);
      if (method === 'GET' && payoutMatch) return [200, ops.payout(payoutMatch[1]!)];
      return [404, { message: 'Not found' }];
    } catch (err) {
      if (err instanceof Refusal)
        return [err.status, { status: false, statusCode: err.status, code: 'BAD_REQUEST', message: err.message }];
      throw err;
    }
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      const route = `${method} ${url.pathname}`;
      requests.push(route);
      if (req.headers['x-api-key'] !== FAKE_API_KEY && url.pathname !== '/v1/auth') {
        return send(res, 401, { status: false, statusCode: 401, code: 'INVALID_API_KEY', message: 'Invalid api key' });
      }
      const body = method === 'POST' ? await readJson(req) : {};
      const i = faults.findIndex((f) => f.route === route);
      const fault = i >= 0 ? faults.splice(i, 1)[0]!.fault : 'ok';
      switch (fault) {
        case 'fail':
          return send(res, 502, { message: 'Bad gateway' });
        case 'lose-answer':
          await act(method, url, body, req);
          res.socket?.destroy();
          return;
        case 'late':
          held.push(async () => {
            const [status, answer] = await act(method, url, body, req);
            send(res, status, answer);
          });
          return;
        case 'twice': {
          await act(method, url, body, req);
          const [status, answer] = await act(method, url, body, req);
          return send(res, status, answer);
        }
        default: {
          const [status, answer] = await act(method, url, body, req);
          return send(res, status, answer);
        }
      }
    })().catch((err: unknown) => send(res, 500, { message: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return Object.assign(gateway, {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    fault(route: string, fault: Exclude<FakeFault, 'ok'>, times = 1) {
      for (let n = 0; n < times; n++) faults.push({ route, fault });
    },
    async releaseLate() {
      const now = held.splice(0);
      for (const run of now) await run();
      return now.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** The error a caller sees when an answer never came (a timeout or a dropped connection). */
export class LostAnswer extends Error {
  override name = 'LostAnswer';
}

/**
 * A {@link NowPaymentsApi} over the gateway state without HTTP. `nextFault(operation)` picks what
 * happens to each call: 'fail' throws before acting; 'lose-answer' acts and throws; 'late' throws
 * and queues the action for {@link FakeApiClient.runLate}; 'twice' acts twice and answers the
 * second answer. Refusals throw {@link GatewayRejection}, as the real client does on a 4xx.
 */
export interface FakeApiClient extends NowPaymentsApi {
  /** Acts on every queued late request (their callers gave up long ago). @returns how many */
  runLate(): number;
  /** Late requests still queued. */
  readonly lateCount: number;
}

export function fakeApiClient(
  gateway: ReturnType<typeof createFakeGateway>,
  nextFault: (operation: string) => FakeFault,
): FakeApiClient {
  const { ops } = gateway;
  const late: (() => void)[] = [];

  function call<T>(operation: string, run: () => T): Promise<T> {
    const wrapped = () => {
      try {
        return run();
      } catch (err) {
        if (err instanceof Refusal) throw new GatewayRejection(err.status, err.message);
        throw err;
      }
    };
    const fault = nextFault(operation);
    try {
      switch (fault) {
        case 'fail':
          throw new Error(`NOWPayments ${operation} answered HTTP 502`);
        case 'lose-answer':
          try {
            wrapped();
          } catch {
            // the answer (success or refusal) is lost either way
          }
          throw new LostAnswer(`NOWPayments ${operation}: the answer was lost`);
        case 'late':
          late.push(() => {
            try {
              wrapped();
            } catch {
              // nobody listens any more
            }
          });
          throw new LostAnswer(`NOWPayments ${operation}: no answer in time`);
        case 'twice':
          try {
            wrapped();
          } catch {
            // the first delivery's answer goes nowhere
          }
          return Promise.resolve(wrapped());
        default:
          return Promise.resolve(wrapped());
      }
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  return {
    get lateCount() {
      return late.length;
    },
    runLate() {
      const now = late.splice(0);
      for (const run of now) run();
      return now.length;
    },
    fullCurrencies: () => call('fullCurrencies', () => ops.fullCurrencies()),
    minAmount: (code) =>
      call('minAmount', () => {
        const answer = ops.minAmount(code, true);
        return { minAmount: decimal(answer.min_amount as number), fiatEquivalent: decimal(answer.fiat_equivalent as number) };
      }),
    estimateFromUsd: (usd, code) =>
      call('estimate', () => decimal(ops.estimate('usd', code, Number(usd)).estimated_amount as number)),
    createPayment: (body) => call('createPayment', () => ops.createPayment(body)),
    payment: (id) => call('payment', () => ops.payment(id)),
    createPayout: (body) => call('createPayout', () => ops.createPayout(body)),
    verifyPayout: (batchId, code) => call('verifyPayout', () => ops.verify(batchId, code)),
    payout: (batchId) => call('payout', () => ops.payout(batchId)),
    listPayouts: ({ dateFrom, page, limit }) => call('listPayouts', () => ops.listPayouts(dateFrom, page, limit)),
    payoutFee: (code) => call('payoutFee', () => (code === 'usdttrc20' ? '1.5' : '4')),
  };
}

/**
 * The `sandbox` payment provider (product §11, the embedded default): a complete, playable money flow
 * with no outside service. See docs/payments.md.
 *
 * - Currencies: USDT on TRX, ETH, BSC, MATIC and TON (TON needs a memo), BTC and ETH, each with the
 *   real-world address pattern of its network and a logo served by the app itself.
 * - Prices: USDT = 1 USD; other coins at `SANDBOX_PRICES` (default BTC=60000, ETH=3000); tests
 *   move them with {@link SandboxProvider.setPrice}. A simulated payment carries the table's price
 *   at that moment (its price at arrival).
 * - Minimum deposits: 1 USDT, 0.0001 BTC, 0.002 ETH. Cash-out minimum: 10 USD.
 * - Deposit addresses are derived from the bill id (same bill, same address) and match the
 *   currency's pattern. Payments arrive only through {@link SandboxProvider.simulatePayment}
 *   (`POST /api/dev/sandbox/pay`).
 * - Payout fees per network in USD from `SANDBOX_PAYOUT_FEES` (default TRX=1, ETH=5, BSC=0.5,
 *   MATIC=0.2, TON=0.3; 1 USD for a network not listed).
 * - Payouts succeed, except to an address whose last four characters are `dead` (any case), e.g.
 *   `0x000000000000000000000000000000000000dEaD`: that payout fails, so refunds can be exercised.
 * - The payout book is a database table (`sandbox_payouts`) keyed by payout id, so a payout sent
 *   twice — by two workers, or again after a crash — is recorded once.
 */
import { createHash } from 'node:crypto';
import { Big } from '@coffer/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { depositBills, depositPayments, sandboxPayouts } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import type { PaymentProvider, PayoutOutcome, PayoutRequest, ProviderCurrency, ReceivedPayment, ReserveReading } from './types';

/** The logos live in apps/web/public/currencies and are served at this path by the server. */
export const CURRENCY_LOGO_PATH = '/static/currencies/';

const EVM_RE = '^(0x)[0-9A-Fa-f]{40}$';
const TRON_RE = '^T[1-9A-HJ-NP-Za-km-z]{33}$';
const TON_RE = '^(EQ|UQ)[0-9A-Za-z_-]{46}$';
const BTC_RE = '^(bc1[a-z0-9]{25,62}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})$';

type AddressKind = 'evm' | 'tron' | 'ton' | 'btc';

interface SandboxCurrency extends Omit<ProviderCurrency, 'logoUrl'> {
  logo: string;
  addressKind: AddressKind;
  minDeposit: string;
  stable: boolean;
}

const CURRENCIES: SandboxCurrency[] = [
  { code: 'usdttrc20', symbol: 'USDT', name: 'Tether USD (TRC-20)', network: 'TRX', logo: 'usdt', walletRegex: TRON_RE, addressKind: 'tron' },
  { code: 'usdterc20', symbol: 'USDT', name: 'Tether USD (ERC-20)', network: 'ETH', logo: 'usdt', walletRegex: EVM_RE, addressKind: 'evm' },
  { code: 'usdtbsc', symbol: 'USDT', name: 'Tether USD (BEP-20)', network: 'BSC', logo: 'usdt', walletRegex: EVM_RE, addressKind: 'evm' },
  { code: 'usdtmatic', symbol: 'USDT', name: 'Tether USD (Polygon)', network: 'MATIC', logo: 'usdt', walletRegex: EVM_RE, addressKind: 'evm' },
  {
    code: 'usdtton',
    symbol: 'USDT',
    name: 'Tether USD (TON)',
    network: 'TON',
    logo: 'usdt',
    walletRegex: TON_RE,
    addressKind: 'ton',
    extraIdExists: true,
    extraIdRegex: '^[0-9A-Za-z_-]{1,64}$',
  },
  { code: 'btc', symbol: 'BTC', name: 'Bitcoin', network: 'BTC', logo: 'btc', walletRegex: BTC_RE, addressKind: 'btc', minDeposit: '0.0001', stable: false, payout: false },
  { code: 'eth', symbol: 'ETH', name: 'Ethereum', network: 'ETH', logo: 'eth', walletRegex: EVM_RE, addressKind: 'evm', minDeposit: '0.002', stable: false, payout: false },
].map((c) => ({
  extraIdExists: false,
  extraIdRegex: null,
  minDeposit: '1',
  stable: true,
  payout: true,
  payoutMinUsd: '10.00',
  ...c,
})) as SandboxCurrency[];

/** Parses `A=1,B=2.5` into a map keyed by upper-case name. */
export function parsePairs(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of text.split(',')) {
    const [k, v] = pair.split('=');
    if (k && v) out.set(k.trim().toUpperCase(), v.trim());
  }
  return out;
}

/** True for a payout address the sandbox refuses (documented rule: ends in `dead`, any case). */
export const isFailingPayoutAddress = (address: string): boolean => address.trim().toLowerCase().endsWith('dead');

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function pick(bytes: Buffer, alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[bytes[i % bytes.length]! % alphabet.length];
  return s;
}

/** A deterministic, valid-looking address of `kind` for `seed` (matches the kind's pattern). */
export function sandboxAddress(kind: AddressKind, seed: string): string {
  const bytes = createHash('sha512').update(`coffer-sandbox:${seed}`).digest();
  switch (kind) {
    case 'evm':
      return `0x${bytes.subarray(0, 20).toString('hex')}`;
    case 'tron':
      return `T${pick(bytes, BASE58, 33)}`;
    case 'ton':
      return `UQ${pick(bytes, BASE64URL, 46)}`;
    case 'btc':
      return `bc1q${pick(bytes, BECH32, 38)}`;
  }
}

export interface SandboxOptions {
  db: Db;
  clock: Clock;
  /** `SANDBOX_PRICES`, e.g. `BTC=60000,ETH=3000`. */
  prices: string;
  /** `SANDBOX_PAYOUT_FEES`, e.g. `TRX=1,ETH=5`. */
  payoutFees: string;
}

export interface SandboxProvider extends PaymentProvider {
  readonly name: 'sandbox';
  readonly sandbox: true;
  /**
   * A payment of `currencyAmount` to the bill's address. The reference is derived from the bill and
   * the amount, so reporting the same simulated payment again credits nothing more.
   */
  simulatePayment(billId: string, currencyAmount: string): ReceivedPayment;
  /**
   * A simulated payment of `currencyAmount` of `code` to the bill, carrying the price table's USD
   * price of `code` now (its price at arrival, docs/decisions/0012-late-payment-pricing.md).
   */
  simulatePaymentOf(billId: string, code: string, currencyAmount: string): Promise<ReceivedPayment>;
  /**
   * Sets the USD price of a non-stable coin (`symbol`, e.g. 'BTC') from now on, as if the market
   * moved; bills already made keep their quote. For tests and demos.
   * @throws Error for a stablecoin or a coin the sandbox does not offer; a price not above 0
   */
  setPrice(symbol: string, usd: string): void;
}

export function createSandboxProvider(opts: SandboxOptions): SandboxProvider {
  const prices = parsePairs(opts.prices);
  const fees = parsePairs(opts.payoutFees);
  // A coin without a configured price is not offered.
  const offered = CURRENCIES.filter((c) => c.stable || prices.has(c.symbol));
  const byCode = new Map(offered.map((c) => [c.code, c]));

  function get(code: string): SandboxCurrency {
    const c = byCode.get(code);
    if (!c) throw new Error(`sandbox: unknown currency ${code}`);
    return c;
  }

  function outcomeOf(row: typeof sandboxPayouts.$inferSelect): PayoutOutcome {
    return row.status === 'success' ? { status: 'success', txid: row.txid ?? '' } : { status: 'failed', reason: row.reason ?? 'Payout failed' };
  }

  return {
    name: 'sandbox',
    sandbox: true,

    async listCurrencies() {
      return offered.map(({ logo, addressKind: _k, minDeposit: _m, stable: _s, ...c }) => ({ ...c, logoUrl: `${CURRENCY_LOGO_PATH}${logo}.svg` }));
    },

    async priceUsd(code) {
      const c = get(code);
      return c.stable ? '1' : prices.get(c.symbol)!;
    },

    async minDeposit(code) {
      return get(code).minDeposit;
    },

    async createDeposit({ billId, code }) {
      const c = get(code);
      return { address: sandboxAddress(c.addressKind, `${c.code}:${billId}`), extraId: null, providerRef: `sandbox-deposit:${billId}` };
    },

    async estimatePayoutFee({ code }) {
      const c = get(code);
      const feeUsd = new Big(fees.get(c.network) ?? '1').toFixed(2);
      const price = c.stable ? '1' : prices.get(c.symbol)!;
      return { fee: new Big(feeUsd).div(price).round(8, Big.roundUp).toFixed(8), feeUsd };
    },

    async sendPayout(req: PayoutRequest) {
      const failing = isFailingPayoutAddress(req.address);
      const evmLike = get(req.currency).addressKind === 'evm';
      const hash = createHash('sha256').update(`coffer-sandbox-payout:${req.payoutId}`).digest('hex');
      await opts.db
        .insert(sandboxPayouts)
        .values({
          payoutId: req.payoutId,
          currency: req.currency,
          network: req.network,
          address: req.address,
          memo: req.memo,
          currencyAmount: req.currencyAmount,
          status: failing ? 'failed' : 'success',
          txid: failing ? null : evmLike ? `0x${hash}` : hash,
          reason: failing ? 'Sandbox: payouts to an address ending in "dead" fail' : null,
          createdAt: new Date(opts.clock.now()),
        })
        .onConflictDoNothing({ target: sandboxPayouts.payoutId });
      const [row] = await opts.db.select().from(sandboxPayouts).where(eq(sandboxPayouts.payoutId, req.payoutId));
      if (!row) throw new Error(`sandbox: payout ${req.payoutId} vanished`);
      return outcomeOf(row);
    },

    async payoutStatus(payoutId) {
      const [row] = await opts.db.select().from(sandboxPayouts).where(eq(sandboxPayouts.payoutId, payoutId));
      return row ? outcomeOf(row) : { status: 'unknown' };
    },

    simulatePayment(billId, currencyAmount) {
      const normalized = new Big(currencyAmount).toFixed(8);
      return { billId, paymentRef: `sandbox:${billId}:${normalized}`, currencyAmount: normalized };
    },

    async simulatePaymentOf(billId, code, currencyAmount) {
      return { ...this.simulatePayment(billId, currencyAmount), usdPriceAtArrival: await this.priceUsd(code) };
    },

    /**
     * The sandbox's book: it keeps one wallet per currency, holding what simulated payments brought
     * in (`deposit_payments` of sandbox bills) minus the payouts it sent (`sandbox_payouts`,
     * success). The first configured address of a currency reads that balance; a further address of
     * the same currency reads 0, so the book is never counted twice.
     */
    async reserveBalances(addresses) {
      const seen = new Set<string>();
      const out: ReserveReading[] = [];
      for (const a of addresses) {
        const c = byCode.get(a.currency);
        if (!c || c.network !== a.network.toUpperCase()) {
          out.push({ error: `sandbox: no ${a.currency} on ${a.network}` });
          continue;
        }
        if (seen.has(c.code)) {
          out.push({ balance: '0' });
          continue;
        }
        seen.add(c.code);
        const [inRow] = await opts.db
          .select({ v: sql<string>`coalesce(sum(${depositPayments.currencyAmount}), 0)::text` })
          .from(depositPayments)
          .innerJoin(depositBills, eq(depositBills.id, depositPayments.billId))
          .where(and(eq(depositBills.provider, 'sandbox'), eq(depositBills.payCurrency, c.code)));
        const [outRow] = await opts.db
          .select({ v: sql<string>`coalesce(sum(${sandboxPayouts.currencyAmount}), 0)::text` })
          .from(sandboxPayouts)
          .where(and(eq(sandboxPayouts.currency, c.code), eq(sandboxPayouts.status, 'success')));
        out.push({ balance: new Big(inRow?.v ?? '0').minus(outRow?.v ?? '0').toFixed() });
      }
      return out;
    },

    setPrice(symbol, usd) {
      const key = symbol.toUpperCase();
      if (!offered.some((c) => !c.stable && c.symbol === key)) throw new Error(`sandbox: ${symbol} is not a non-stable coin the sandbox offers`);
      if (!new Big(usd).gt(0)) throw new Error('sandbox: a price must be above 0');
      prices.set(key, new Big(usd).toString());
    },
  };
}

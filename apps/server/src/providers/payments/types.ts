/**
 * The payment provider interface (product §11, §14, §15): the one seam between Coffer's top-up and
 * cash-out rules and a payment rail. `PAYMENTS=sandbox|evm|tron|ton|nowpayments` picks one at boot, or
 * several real rails (`evm,tron`) joined by the composite provider (./composite.ts), which routes each
 * call by currency code (see ./index.ts). Coffer's modules never talk to a rail in any other way.
 *
 * Units: every amount is a decimal string — crypto in whole units of the currency (e.g. "25.5" USDT,
 * "0.0001" BTC; at most 18 decimals), USD with at most 2 decimals. Never floats.
 *
 * Contract every implementation keeps:
 * - `createDeposit` returns an address that matches the currency's `walletRegex`;
 * - received payments carry a `paymentRef` that is unique per real payment and stable across
 *   repeats (Coffer credits each ref exactly once, so a provider may report a payment many times);
 * - `sendPayout` is idempotent by `payoutId` (Coffer passes the withdraw bill id): a second call with
 *   the same id never sends money again and returns the outcome of the first;
 * - methods throw on transient failures (network, node down); Coffer retries later.
 */
import type { FastifyInstance } from 'fastify';

/** A currency the provider offers (mapped to product §3 Currency by the payments module). */
export interface ProviderCurrency {
  /** NOWPayments-style code, lower case: `usdttrc20`, `usdterc20`, `usdtbsc`, `btc`, ... */
  code: string;
  /** Ticker: `USDT`, `BTC`, `ETH`. */
  symbol: string;
  name: string;
  /** Network code, upper case: `TRX`, `ETH`, `BSC`, `MATIC`, `BTC`, `TON`. */
  network: string;
  /** Same-origin logo URL (the app's own static assets). */
  logoUrl: string;
  /** RegExp source a payout address must match. */
  walletRegex: string;
  /** True when payouts need a memo. */
  extraIdExists: boolean;
  /** RegExp source of the memo, or null. */
  extraIdRegex: string | null;
  /** Cash-out minimum in USD (product §3 `fiatEquivalent`). */
  payoutMinUsd: string;
  /** True when cash-out is offered in this currency (Coffer pays out USDT only, product §9). */
  payout: boolean;
}

/** A payment the rail has seen arrive for a deposit bill. */
export interface ReceivedPayment {
  billId: string;
  /** Unique per real payment (e.g. `<tx hash>:<log index>`); repeats of one payment share it. */
  paymentRef: string;
  /** Crypto received, whole units. */
  currencyAmount: string;
  /**
   * USD per whole unit when the payment arrived, if the rail knows it (the sandbox: its price
   * table). Without it Coffer asks `priceUsd` when it credits a late or non-exact payment of a
   * non-stable coin (docs/decisions/0012-late-payment-pricing.md).
   */
  usdPriceAtArrival?: string;
  /**
   * True when `currencyAmount` is the running total of everything received under `paymentRef` (a
   * gateway's `actually_paid`, which grows as more arrives), not one transfer: Coffer then credits
   * only what exceeds what it already received under that reference, once per total, under
   * `<paymentRef>:<total>`; a total at or below what was received credits nothing (docs/payments.md
   * "Late, partial and over-payments").
   */
  cumulative?: boolean;
}

/** Where a payout stands. */
export type PayoutOutcome =
  /** Paid: `txid` as the chain's explorers show it; `confirmations` the depth the rail waited for, when it has one. */
  | { status: 'success'; txid: string; confirmations?: number }
  | { status: 'failed'; reason: string }
  /** Accepted (maybe broadcast) but not final yet: ask `payoutStatus` again later. */
  | { status: 'pending'; txid: string | null }
  /** The provider has never seen this payout id. */
  | { status: 'unknown' };

export interface PayoutRequest {
  /** Idempotency id: the withdraw bill id. */
  payoutId: string;
  currency: string;
  network: string;
  address: string;
  /** '' when the currency needs none. */
  memo: string;
  /** Crypto the address must receive (after the fee), whole units. */
  currencyAmount: string;
}

export interface PaymentProvider {
  /** The rail's name (`sandbox`, `evm`, `tron`, `ton`, `nowpayments`), or the composite's `PAYMENTS` list (`evm,tron`). */
  readonly name: string;
  /**
   * The rail names whose bills this provider serves (bills record the rail of their currency);
   * unset: `[name]`. The composite lists its rails.
   */
  readonly rails?: readonly string[];
  /** The rail that serves `code` (recorded on the bill); unset: `name`. */
  railOf?(code: string): string;
  /** True only for the sandbox: enables `/api/dev/sandbox/pay` and the web's 'Simulate payment'. */
  readonly sandbox: boolean;
  /**
   * The most payouts this rail may have in flight at once from one worker pass (`PAYOUT_CONCURRENCY`
   * is capped by it); unset: no limit of its own. `evm` says 1 (its nonces are allocated serially
   * per signer), `tron` 8 (no nonces; one node), `nowpayments` a few (one gateway account,
   * rate-limited); the composite the sum of its rails', each rail held to its own.
   */
  readonly maxPayoutConcurrency?: number;
  /** The enabled currencies. Coffer caches the answer for 5 minutes (product §9). */
  listCurrencies(): Promise<ProviderCurrency[]>;
  /** USD per whole unit of `code` (e.g. "1" for USDT, "60000" for BTC). */
  priceUsd(code: string): Promise<string>;
  /** Smallest deposit the rail accepts, in whole units of `code`. Never cached. */
  minDeposit(code: string): Promise<string>;
  /**
   * Prepares a deposit for a bill: a fresh address (and memo, if the rail needs one) to receive
   * `currencyAmount` of `code` until `expiresAt` (ms). Payments arriving later are still reported.
   */
  createDeposit(input: { billId: string; code: string; currencyAmount: string; expiresAt: number }): Promise<{
    address: string;
    extraId: string | null;
    providerRef: string | null;
  }>;
  /**
   * Payments received since the previous call (a watcher's or webhook inbox's news). Optional: a
   * rail that pushes payments (webhooks) may hand them to the deposits service directly instead.
   */
  pollPayments?(): Promise<ReceivedPayment[]>;
  /** Network fee of a payout of `currencyAmount` of `code`: in the currency and in USD (2 decimals). */
  estimatePayoutFee(input: { code: string; currencyAmount: string }): Promise<{ fee: string; feeUsd: string }>;
  /** Sends a payout; idempotent by `payoutId` (see the contract above). */
  sendPayout(request: PayoutRequest): Promise<PayoutOutcome>;
  /** The outcome of a payout sent earlier, or `unknown` if it never reached the provider. */
  payoutStatus(payoutId: string): Promise<PayoutOutcome>;
  /**
   * Optional: the balance held at each reserve address (proof of liabilities, product §22), read
   * from the rail (evm: the token's `balanceOf`; sandbox: its own book). One answer per address, in
   * input order; a failed read is an answer with `error`, not a throw.
   */
  reserveBalances?(addresses: readonly ReserveAddress[]): Promise<ReserveReading[]>;
  /**
   * Optional: starts the rail's own machinery once the deposits service exists — a chain watcher
   * (evm) or a webhook route (nowpayments) that credit payments through `hooks.credit`.
   */
  attach?(hooks: ProviderHooks): ProviderAttachment;
}

/** A configured reserve address (`RESERVE_ADDRESSES`, `NETWORK:currency:address`). */
export interface ReserveAddress {
  /** Network code, upper case, e.g. `ETH`. */
  network: string;
  /** The rail's currency code, e.g. `usdterc20`. */
  currency: string;
  address: string;
}

/** What a rail read at a reserve address: whole units of the currency, or why it could not. */
export type ReserveReading = { balance: string } | { error: string };

/** What Coffer hands a provider's {@link PaymentProvider.attach}. */
export interface ProviderHooks {
  /** The deposits service's credit function: credits each `paymentRef` exactly once. */
  credit(payment: ReceivedPayment): Promise<unknown>;
}

/** Background workers, routes and a close step a provider adds to the app. */
export interface ProviderAttachment {
  workers?: { name: string; intervalMs: number; tick(): Promise<unknown> }[];
  /** Registers the provider's own routes (e.g. a webhook) on the API scope. */
  routes?(app: FastifyInstance): void | Promise<void>;
  /** Releases what the provider holds (connections, timers). */
  close?(): Promise<void>;
}

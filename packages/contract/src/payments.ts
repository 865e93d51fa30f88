/**
 * Top-up (deposit) and cash-out (withdraw) calls: product §3 Currency / bills, product §5, §7, §8,
 * product §14-§15, and the public payments configuration the web app reads.
 *
 * Units (all amounts are decimal strings, never numbers):
 * - points (P-coin): 2 decimals; USD: 2 decimals; crypto: up to 8 decimals on the wire.
 * - `POINTS_PER_USD` points buy 1 USD (default 100); 1 USDT counts as 1 USD.
 * See docs/payments.md for every rule and a curl walk-through.
 */
import { z } from 'zod';
import { EmptyRequestSchema, IdSchema, PointsStringSchema } from './common';
import { DepositStatus, WithdrawStatus } from './enums';
import { PasswordDigestSchema } from './password';
import { requireFields } from './records';
import { TwoFactorCodeSchema } from './security';

/** product §8 "Call preconditions" and cash-out messages, verbatim. */
export const PaymentMessages = {
  currencyRequired: 'Currency is required',
  amountAndCurrencyRequired: 'Amount and currency are required',
  userIdRequired: 'user_id required',
  currencyAndAmountRequired: 'currency & amount required',
  billIdRequired: 'bill_id required',
  addressRequired: 'Address required',
  networkRequired: 'Network required',
  passwordRequired: 'Password required',
  invalidAddress: 'Invalid address format',
  memoRequired: 'Memo required',
  invalidMemo: 'Invalid memo format',
  insufficientBalance: 'Insufficient balance',
  /** product §8: 'Minimum amount is {n} USD'. */
  minimumUsd: (min: string) => `Minimum amount is ${min} USD`,
} as const;

/** A currency code of the active provider, e.g. `usdttrc20`, `btc` (NOWPayments-style, lower case). */
export const CurrencyCodeSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]{2,20}$/, 'Unsupported currency');

/** A crypto amount: a positive decimal string with at most 8 decimals (product §9: crypto 8). */
export const CryptoAmountSchema = z
  .string()
  .trim()
  .regex(/^\d{1,18}(\.\d{1,8})?$/, 'Crypto amounts are numbers with at most 8 decimals')
  .refine((v) => /[1-9]/.test(v), 'The amount must be above 0');

/**
 * product §5 "Crypto amount sent": the cash-out amount in points as the web sends it (amount in USD
 * times the rate, rounded down to 8 decimals). The server keeps 2 decimals (rounded down).
 */
export const WithdrawAmountSchema = z
  .string()
  .trim()
  .regex(/^\d{1,15}(\.\d{1,8})?$/, 'Amount must be a number with at most 8 decimals');

/** product §3 Currency (deposit and withdraw option). */
export const CurrencySchema = z.object({
  /** e.g. `usdttrc20` */
  code: z.string(),
  /** e.g. `USDT` */
  symbol: z.string(),
  /** e.g. `Tether USD (TRC-20)` */
  name: z.string(),
  /** Network code, upper case, e.g. `TRX`, `ETH`, `BSC`, `MATIC`, `BTC`, `TON`. */
  network: z.string(),
  /** Same-origin URL of the currency's logo (the app's own static assets). */
  logo_url: z.string(),
  /** Address pattern (a RegExp source) that a payout address must match. */
  wallet_regex: z.string(),
  /** True when payouts need a memo (destination tag / comment). */
  extra_id_exists: z.boolean(),
  /** Memo pattern (RegExp source) when extra_id_exists, else null. */
  extra_id_regex: z.string().nullable(),
  /** Cash-out minimum in USD (decimal string, 2 decimals). */
  fiatEquivalent: z.string(),
});
export type Currency = z.infer<typeof CurrencySchema>;

/** POST /uc/v1/account/currency/list — the active provider's currencies (cached 5 min). */
export const CurrencyListRequestSchema = EmptyRequestSchema;
export const CurrencyListDataSchema = z.object({ currencies: z.array(CurrencySchema) });
export type CurrencyListData = z.infer<typeof CurrencyListDataSchema>;

/** product §3 Minimum-amount result. */
export const MinAmountResultSchema = z.object({
  /** Minimum top-up in points (2 decimals). */
  min_amount: z.string(),
  /** The same minimum in the currency (8 decimals). */
  currency_min_amount: z.string(),
  /** The same minimum in USD (2 decimals). */
  fiat_equivalent: z.string(),
});
export type MinAmountResult = z.infer<typeof MinAmountResultSchema>;

/** POST /uc/v1/account/deposit/min-amount — never cached. */
export const DepositMinAmountRequestSchema = requireFields(
  ['currency_from'],
  PaymentMessages.currencyRequired,
  z.object({ currency_from: CurrencyCodeSchema }),
);
export type DepositMinAmountRequest = z.infer<typeof DepositMinAmountRequestSchema>;
export const DepositMinAmountDataSchema = z.object({ result: MinAmountResultSchema });

export const DEPOSIT_STATUSES = Object.values(DepositStatus) as [DepositStatus, ...DepositStatus[]];
export const WITHDRAW_STATUSES = Object.values(WithdrawStatus) as [WithdrawStatus, ...WithdrawStatus[]];

/** product §3 Deposit bill (plus `expires_at`, `paid_currency_amount`, `credited_amount`). */
export const DepositBillSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  /** Points asked for (2 decimals). */
  amount: z.string(),
  /** USD value of `amount` (2 decimals). */
  amount_usd: z.string(),
  /** Crypto to pay (8 decimals). */
  currency_amount: z.string(),
  /** Currency code, e.g. `usdttrc20`. */
  pay_currency: z.string(),
  network: z.string(),
  /** Deposit address for this bill. */
  address: z.string(),
  /**
   * The memo (transfer comment) the payment must carry, or null when the rail needs none (TON: one
   * deposit wallet for every bill, told apart by memo; a transfer without it cannot be matched).
   */
  extra_id: z.string().nullable().optional(),
  status: z.enum(DEPOSIT_STATUSES),
  /** Creation time, milliseconds since the epoch, as a digit string (product §3). */
  created: z.string(),
  /** Expiry time in milliseconds (created + 1800 s, product §9). */
  expires_at: z.number(),
  /** Crypto received so far (8 decimals). */
  paid_currency_amount: z.string(),
  /** Points credited so far (2 decimals): the received value, whatever was asked (product §14). */
  credited_amount: z.string(),
});
export type DepositBill = z.infer<typeof DepositBillSchema>;

/** POST /uc/v1/account/deposit — `amount` in points (string, 2 decimals), `pay_currency` a currency code. */
export const DepositRequestSchema = requireFields(
  ['amount', 'pay_currency'],
  PaymentMessages.amountAndCurrencyRequired,
  z.object({ amount: PointsStringSchema, pay_currency: CurrencyCodeSchema }),
);
export type DepositRequest = z.infer<typeof DepositRequestSchema>;
export const DepositDataSchema = z.object({ bill: DepositBillSchema });

/** `{user_id, bill_id}` of both bill/detail calls (product §5: needs user_id and bill_id). */
export const BillDetailRequestSchema = requireFields(
  ['user_id'],
  PaymentMessages.userIdRequired,
  requireFields(['bill_id'], PaymentMessages.billIdRequired, z.object({ user_id: IdSchema, bill_id: IdSchema })),
);
export type BillDetailRequest = z.infer<typeof BillDetailRequestSchema>;

/** POST /uc/v1/account/deposit/bill/detail */
export const DepositBillDetailRequestSchema = BillDetailRequestSchema;
export const DepositBillDetailDataSchema = z.object({ bill: DepositBillSchema });

/** product §3 Fee estimate result. */
export const FeeEstimateResultSchema = z.object({
  /** The cash-out amount in points (2 decimals). */
  amount: z.string(),
  /** The network fee in the payout currency (8 decimals). */
  fee: z.string(),
  /** The network fee in USD (2 decimals); in points it is fiat_equivalent x POINTS_PER_USD. */
  fiat_equivalent: z.string(),
});
export type FeeEstimateResult = z.infer<typeof FeeEstimateResultSchema>;

/** POST /uc/v1/account/withdraw/estimate/fee — `amount` in points (product §5 "crypto amount sent"). */
export const WithdrawEstimateFeeRequestSchema = requireFields(
  ['currency', 'amount'],
  PaymentMessages.currencyAndAmountRequired,
  z.object({ currency: CurrencyCodeSchema, amount: WithdrawAmountSchema }),
);
export type WithdrawEstimateFeeRequest = z.infer<typeof WithdrawEstimateFeeRequestSchema>;
export const WithdrawEstimateFeeDataSchema = z.object({ result: FeeEstimateResultSchema });

/** product §3 Withdraw bill (plus `user_id`, `expires_at`, `txid`, `failure_reason`). */
export const WithdrawBillSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  /** Points cashed out (2 decimals); the confirm step reads it (product §3). */
  amount: z.string(),
  /** USD value of `amount` (2 decimals). */
  amount_usd: z.string(),
  /** Network fee in USD (2 decimals); net USD = amount_usd - fee_fiat. */
  fee_fiat: z.string(),
  /** Crypto the address receives, after the fee (8 decimals). */
  currency_amount: z.string(),
  currency: z.string(),
  network: z.string(),
  address: z.string(),
  /** Memo, or '' when the currency needs none. */
  memo: z.string(),
  status: z.enum(WITHDRAW_STATUSES),
  /** Creation time, milliseconds since the epoch, as a digit string (product §3). */
  created_at: z.string(),
  /** Until then (ms) an unconfirmed bill can be confirmed (15 minutes, product §15). */
  expires_at: z.number(),
  /** The payout's transaction hash once sent, else null. */
  txid: z.string().nullable(),
  /** Why a payout failed (refunded bills), else null. */
  failure_reason: z.string().nullable(),
});
export type WithdrawBill = z.infer<typeof WithdrawBillSchema>;

/** POST /uc/v1/account/withdraw/create — validates and stores the bill; balances do not change yet. */
export const WithdrawCreateRequestSchema = requireFields(
  ['user_id'],
  PaymentMessages.userIdRequired,
  requireFields(
    ['currency', 'amount'],
    PaymentMessages.currencyAndAmountRequired,
    requireFields(
      ['address'],
      PaymentMessages.addressRequired,
      requireFields(
        ['network'],
        PaymentMessages.networkRequired,
        z.object({
          user_id: IdSchema,
          currency: CurrencyCodeSchema,
          amount: WithdrawAmountSchema,
          address: z.string().trim().max(128, PaymentMessages.invalidAddress),
          network: z.string().trim().toUpperCase().max(20, 'Unsupported network'),
          memo: z.string().trim().max(128, PaymentMessages.invalidMemo).default(''),
        }),
      ),
    ),
  ),
);
export type WithdrawCreateRequest = z.infer<typeof WithdrawCreateRequestSchema>;
export const WithdrawCreateDataSchema = z.object({ bill: WithdrawBillSchema });

/**
 * POST /uc/v1/account/withdraw/confirm — `password` is the login password's MD5 digest; `code` is
 * required when two-factor sign-in is on (else TWO_FACTOR_REQUIRED).
 */
export const WithdrawConfirmRequestSchema = requireFields(
  ['bill_id'],
  PaymentMessages.billIdRequired,
  requireFields(
    ['password'],
    PaymentMessages.passwordRequired,
    // `code`: the two-factor code (or a recovery code) when two-factor sign-in is on (product §26).
    z.object({ bill_id: IdSchema, password: PasswordDigestSchema, code: TwoFactorCodeSchema.optional() }),
  ),
);
export type WithdrawConfirmRequest = z.infer<typeof WithdrawConfirmRequestSchema>;
export const WithdrawConfirmDataSchema = z.object({ bill: WithdrawBillSchema });

/** POST /uc/v1/account/withdraw/bill/detail */
export const WithdrawBillDetailRequestSchema = BillDetailRequestSchema;
export const WithdrawBillDetailDataSchema = z.object({ bill: WithdrawBillSchema });

/** The payment rails `PAYMENTS` can select (product §18); real rails combine, e.g. `evm,tron`. */
export const PAYMENT_PROVIDERS = ['sandbox', 'evm', 'tron', 'ton', 'nowpayments'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
const RAIL = `(${PAYMENT_PROVIDERS.join('|')})`;

/** POST /api/uc/v1/config — public settings the web app reads at start (no session needed). */
export const PublicConfigRequestSchema = EmptyRequestSchema;
export const PublicConfigDataSchema = z.object({
  /** The active payment rail, or the active rails joined by commas (`evm,tron`); each currency names its network. */
  payments: z.string().regex(new RegExp(`^${RAIL}(,${RAIL})*$`)),
  /** True when PAYMENTS=sandbox: the web shows 'Simulate payment' and `/api/dev/sandbox/pay` exists. */
  sandbox: z.boolean(),
  /** Points per USD (decimal string, default '100'). */
  points_per_usd: z.string(),
  /** product §9 deposit order lifetime in seconds (1800). */
  deposit_lifetime_seconds: z.number(),
});
export type PublicConfig = z.infer<typeof PublicConfigDataSchema>;

/** POST /api/dev/sandbox/pay (sandbox only, product §17): pays a deposit bill, in full by default. */
export const SandboxPayRequestSchema = requireFields(
  ['bill_id'],
  PaymentMessages.billIdRequired,
  z.object({ bill_id: IdSchema, currency_amount: CryptoAmountSchema.optional() }),
);
export type SandboxPayRequest = z.infer<typeof SandboxPayRequestSchema>;
export const SandboxPayDataSchema = z.object({ bill: DepositBillSchema });

/**
 * POST /api/dev/sandbox/clear (PAYMENTS=sandbox only): the caller's pending sale proceeds clear now,
 * each with its own `clear:<order id>` posting, as the clearance job would after EARNINGS_HOLD_DAYS
 * (docs/product.md §30) — so a sandbox seller can try a cash-out without waiting a week. Sales with
 * an open "This wasn't me" report stay pending. `cleared`: how many sales cleared.
 */
export const SandboxClearRequestSchema = z.object({}).default({});
export const SandboxClearDataSchema = z.object({ cleared: z.number().int() });

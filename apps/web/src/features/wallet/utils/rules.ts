/**
 * The money rules of the top-up and cash-out modals (product §5), as pure functions on decimal
 * strings (contract money helpers, big.js; never floats). Every message is product §8's text verbatim.
 */
import {
  Big,
  CRYPTO_DECIMALS,
  DEFAULT_POINTS_PER_USD,
  PaymentMessages,
  groupThousands,
  roundDown,
  type MinAmountResult,
} from '@coffer/contract';

/** product §5 "Top-up amount" and "Withdraw create" messages that the contract does not carry. */
export const WalletMessages = {
  enterAmount: 'Please enter an amount.',
  invalidAmount: 'Please enter a valid amount.',
  /** product §5: 'Minimum amount is {min} {symbol}.' */
  topUpMinimum: (min: string, symbol: string) => `Minimum amount is ${min} ${symbol}.`,
  rateMissing: 'Exchange rate not available. Please try again.',
  /** product §5 "Withdraw create": 'Invalid amount or address. Minimum amount is {min}'. */
  invalidAmountOrAddress: (min: string) => `Invalid amount or address. Minimum amount is ${min}`,
} as const;

/**
 * Parses what a person typed into an amount field.
 * @returns the decimal string (e.g. '25', '0.5', '.5' -> '0.5'), or null when it is not a plain
 *   non-negative decimal number (letters, signs, exponents, several dots)
 */
export function parseDecimalInput(input: string): string | null {
  const text = input.trim();
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text)) return null;
  return new Big(text).toString();
}

/**
 * A decimal string without trailing zeros and with thousands separators, for messages and hints:
 * '1.00000000' -> '1', '10.50' -> '10.5', '2500' -> '2,500', '0.00000001' -> '0.00000001'.
 */
export function plainDecimal(value: string | null | undefined): string {
  try {
    return groupThousands(new Big(value ?? '0').toFixed());
  } catch {
    return String(value ?? '');
  }
}

/** True when `value` is a decimal string above 0. */
export function isPositive(value: string | null | undefined): boolean {
  try {
    return value !== null && value !== undefined && new Big(value).gt(0);
  } catch {
    return false;
  }
}

/**
 * product §5 "Top-up amount": the message for the crypto amount typed, or null when it is valid.
 * @param input the raw text of the field
 * @param minCrypto the minimum in the token (min-amount's currency_min_amount), when known
 * @param symbol the token's symbol, e.g. 'USDT'
 */
export function validateTopUpAmount(input: string, minCrypto: string | undefined, symbol: string): string | null {
  if (input.trim() === '') return WalletMessages.enterAmount;
  const amount = parseDecimalInput(input);
  if (amount === null || !isPositive(amount)) return WalletMessages.invalidAmount;
  if (minCrypto && isPositive(minCrypto) && new Big(amount).lt(minCrypto))
    return WalletMessages.topUpMinimum(plainDecimal(minCrypto), symbol);
  return null;
}

/**
 * product §5: points received = amount x (min points / min crypto), 2 decimals rounded down (the
 * number shown in 'You will get: N points' is the number sent to `deposit`).
 * @returns points as a 2-decimal string; '0.00' when the input or the minimum is unusable
 */
export function topUpPoints(
  amountCrypto: string | null,
  min: Pick<MinAmountResult, 'min_amount' | 'currency_min_amount'> | undefined,
): string {
  if (!amountCrypto || !min || !isPositive(min.currency_min_amount)) return '0.00';
  try {
    return roundDown(new Big(amountCrypto).times(min.min_amount).div(min.currency_min_amount), 2);
  } catch {
    return '0.00';
  }
}

/**
 * product §5 "Crypto amount sent": the rate of points per USD(T) is min points / fiat-equivalent
 * minimum; when the min-amount answer is there but either number is unusable the rate is the
 * default 100 (product §9).
 * @returns the rate as a decimal string, or null while no min-amount answer exists (then the
 *   cash-out shows 'Exchange rate not available. Please try again.' and reloads it)
 */
export function pointsPerUsd(min: Pick<MinAmountResult, 'min_amount' | 'fiat_equivalent'> | undefined | null): string | null {
  if (!min) return null;
  if (!isPositive(min.min_amount) || !isPositive(min.fiat_equivalent)) return String(DEFAULT_POINTS_PER_USD);
  return new Big(min.min_amount).div(min.fiat_equivalent).toString();
}

/** product §5 "Crypto amount sent" = USD amount x rate, rounded down to 8 decimals. */
export function cashOutAmountToSend(usd: string, rate: string): string {
  return roundDown(new Big(usd).times(rate), CRYPTO_DECIMALS);
}

export interface CashOutAmountCheck {
  /** The message to show under the field, or null. */
  error: string | null;
  /** The "amount" flag of product §5: a number, at least the minimum, within the balance. */
  ok: boolean;
  /** The amount as a decimal string when it parses. */
  amount: string | null;
}

/**
 * product §5 "Cash-out amount (USD)".
 * @param input the raw text of the field (USD)
 * @param opts rate (points per USD; null when not known yet), available points, minimum USD
 *   (the currency's fiatEquivalent)
 * @returns 'Insufficient balance' when amount x rate is above the available balance; 'Minimum
 *   amount is {min} USD' when above 0 but below the minimum; 'Please enter a valid amount.' for
 *   text that is not a number; no message for an empty field
 */
export function checkCashOutAmount(
  input: string,
  opts: { rate: string | null; available: string; minUsd: string },
): CashOutAmountCheck {
  if (input.trim() === '') return { error: null, ok: false, amount: null };
  const amount = parseDecimalInput(input);
  if (amount === null) return { error: WalletMessages.invalidAmount, ok: false, amount: null };
  if (!isPositive(amount)) return { error: null, ok: false, amount };
  if (opts.rate !== null) {
    let available: Big;
    try {
      available = new Big(opts.available || '0');
    } catch {
      available = new Big(0);
    }
    if (new Big(amount).times(opts.rate).gt(available)) return { error: PaymentMessages.insufficientBalance, ok: false, amount };
  }
  if (isPositive(opts.minUsd) && new Big(amount).lt(opts.minUsd))
    return { error: PaymentMessages.minimumUsd(plainDecimal(opts.minUsd)), ok: false, amount };
  return { error: null, ok: opts.rate !== null, amount };
}

/**
 * Compiles a currency's pattern. product §5: a broken pattern is treated as valid, so this returns
 * null for an empty or unparsable pattern and the caller accepts any value.
 */
export function compilePattern(pattern: string | null | undefined): RegExp | null {
  if (!pattern) return null;
  try {
    return new RegExp(pattern);
  } catch {
    return null;
  }
}

/** product §5 "Cash-out address", checked on blur: 'Address required' / 'Invalid address format' / null. */
export function validateAddress(address: string, walletRegex: string | null | undefined): string | null {
  const value = address.trim();
  if (!value) return PaymentMessages.addressRequired;
  const re = compilePattern(walletRegex);
  if (re && !re.test(value)) return PaymentMessages.invalidAddress;
  return null;
}

/** product §5 "Memo" (only when extra_id_exists), checked on blur: 'Memo required' / 'Invalid memo format' / null. */
export function validateMemo(memo: string, extraIdRegex: string | null | undefined): string | null {
  const value = memo.trim();
  if (!value) return PaymentMessages.memoRequired;
  const re = compilePattern(extraIdRegex);
  if (re && !re.test(value)) return PaymentMessages.invalidMemo;
  return null;
}

/** True when `amount` (USD) is above 0 and at least `minUsd` (product §5 submit rule). */
export function meetsMinimum(amount: string | null, minUsd: string): boolean {
  if (amount === null || !isPositive(amount)) return false;
  return !isPositive(minUsd) || !new Big(amount).lt(minUsd);
}

/**
 * product §5 "Withdraw create": address and amount present and the amount at least the minimum.
 * @returns null when the order may be created, else 'Invalid amount or address. Minimum amount is {min}'
 */
export function checkWithdrawCreate(address: string, amount: string | null, minUsd: string): string | null {
  const ok = address.trim() !== '' && meetsMinimum(amount, minUsd);
  return ok ? null : WalletMessages.invalidAmountOrAddress(plainDecimal(minUsd));
}

/**
 * Fee estimate shown in the cash-out modal (product §3 "Fee estimate result", derived values).
 * @param result the estimate: amount (points), fee (crypto), fiat_equivalent (fee in USD)
 * @param rate points per USD
 * @returns fee in USD (2 decimals), fee in points (2 decimals, rounded down) and net points
 *   (amount minus fee in points, never below 0)
 */
export function deriveFee(result: { amount: string; fee: string; fiat_equivalent: string }, rate: string) {
  const feeUsd = roundDown(result.fiat_equivalent, 2);
  const feePoints = roundDown(new Big(result.fiat_equivalent).times(rate), 2);
  const net = new Big(result.amount).minus(feePoints);
  return { feeUsd, feePoints, netPoints: roundDown(net.lt(0) ? 0 : net, 2) };
}

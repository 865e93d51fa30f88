/**
 * Money math on decimal strings (product §13). Never a float: values travel as decimal strings,
 * are stored as bigint minor units (points and USD: hundredths; crypto: the token's base units),
 * and are computed with big.js.
 */
import Big from 'big.js';

Big.RM = Big.roundDown;

/** Matches a non-negative decimal string such as "12", "12.5", "0.01". */
export const DECIMAL_RE = /^\d{1,18}(\.\d{1,18})?$/;

/** True when `value` is a non-negative decimal string (no sign, no exponent). */
export function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_RE.test(value);
}

/**
 * Parses a decimal amount into bigint units of `10^-decimals`.
 * @param value decimal string, e.g. "12.34"
 * @param decimals 2 for points and USD, the token's decimals for crypto
 * @throws RangeError when `value` is not a decimal string or has more fractional digits than `decimals`
 */
export function toUnits(value: string, decimals: number): bigint {
  if (!isDecimalString(value)) throw new RangeError(`Not a decimal amount: ${String(value)}`);
  const [whole = '0', frac = ''] = value.split('.');
  if (frac.length > decimals) throw new RangeError(`At most ${decimals} decimals allowed: ${value}`);
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
}

/**
 * Formats bigint units of `10^-decimals` as a decimal string with exactly `decimals` digits.
 * @example fromUnits(1234n, 2) === "12.34"; fromUnits(-5n, 2) === "-0.05"
 */
export function fromUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const frac = abs % base;
  const text = decimals > 0 ? `${whole}.${frac.toString().padStart(decimals, '0')}` : `${whole}`;
  return negative ? `-${text}` : text;
}

/** Points (P-coin, 2 decimals) as bigint hundredths. @throws RangeError on a bad string. */
export const pointsToMinor = (points: string): bigint => toUnits(points, 2);
/**
 * Whole points (a collection's price, an order's amount: integers by the contract) as bigint
 * hundredths of a point, the ledger's unit (docs/architecture.md: "bigint minor units"). @throws RangeError on a fraction, NaN or
 * an unsafe integer.
 */
export function wholePointsToMinor(points: number | bigint): bigint {
  if (typeof points === 'number' && !Number.isSafeInteger(points)) throw new RangeError(`not whole points: ${points}`);
  return BigInt(points) * 100n;
}
/** Bigint hundredths of a point as a "12.34" string. */
export const minorToPoints = (minor: bigint): string => fromUnits(minor, 2);

/**
 * Rounds a decimal down (towards zero) to `decimals` places and returns a fixed string.
 * product §5: "rounded down to 8 decimals" for crypto sent.
 */
export function roundDown(value: string | number | Big, decimals: number): string {
  return new Big(value).round(decimals, Big.roundDown).toFixed(decimals);
}

/** Rounds a decimal half-up to `decimals` places (display of USD and points). */
export function roundHalfUp(value: string | number | Big, decimals: number): string {
  return new Big(value).round(decimals, Big.roundHalfUp).toFixed(decimals);
}

/** Exact decimal multiplication of two decimal strings; the result is unrounded. */
export function mul(a: string, b: string): string {
  return new Big(a).times(b).toString();
}

/** Exact decimal division, `digits` significant fractional digits, rounded down. */
export function div(a: string, b: string, digits = 18): string {
  const saved = Big.DP;
  Big.DP = digits;
  try {
    return new Big(a).div(b).toString();
  } finally {
    Big.DP = saved;
  }
}

/** a - b as a decimal string. */
export function sub(a: string, b: string): string {
  return new Big(a).minus(b).toString();
}

/** a + b as a decimal string. */
export function add(a: string, b: string): string {
  return new Big(a).plus(b).toString();
}

/** Compares two decimal strings: -1, 0 or 1. */
export function cmp(a: string, b: string): -1 | 0 | 1 {
  return new Big(a).cmp(b) as -1 | 0 | 1;
}

/**
 * Points for a USD amount at `pointsPerUsd` (product §5: "amount times the rate"), 2 decimals rounded down.
 * @param usd decimal string in USD
 * @param pointsPerUsd decimal string, default 100 (product §9)
 */
export function usdToPoints(usd: string, pointsPerUsd: string): string {
  return roundDown(new Big(usd).times(pointsPerUsd), 2);
}

/** USD for a points amount at `pointsPerUsd`, 2 decimals rounded down. */
export function pointsToUsd(points: string, pointsPerUsd: string): string {
  return roundDown(new Big(points).div(pointsPerUsd), 2);
}

/**
 * Thousands separators in the whole part of a fixed-point string, the fraction kept as it is:
 * '-1234567.5' -> '-1,234,567.5', '0.00001' -> '0.00001'.
 */
export function groupThousands(fixed: string): string {
  const negative = fixed.startsWith('-');
  const [whole = '0', frac] = fixed.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

/** How an amount is written by {@link formatAmount}. */
export interface AmountFormat {
  /**
   * The unit word after the number, exactly as the screen's text has it: 'Points' ('N Points',
   * product §2), 'P-coin' (the wallet), 'points' ('You will get: N points'), 'USD'. None when omitted.
   */
  unit?: string;
  /**
   * 'fixed' (default): always 2 decimals, rounded half-up (product §9 "Decimals": P-coin 2, USD 2):
   * '1500' -> '1,500.00'. 'auto': a whole number without decimals, anything else with 2 (product §2
   * 'N Points', "2 decimals if not an integer"): '1500' -> '1,500', '12.5' -> '12.50'.
   */
  decimals?: 'fixed' | 'auto';
  /** What a missing or unreadable value shows as; by default zero in the same format ('0.00', '0 Points'). */
  fallback?: string;
}

/**
 * Coffer's one way of writing an amount of points (P-coin) or USD for people: thousands separators,
 * 2 decimals (or none for a whole number with `decimals: 'auto'`) and the unit word, from a decimal
 * string or a number without float maths: formatAmount('2500', { unit: 'P-coin' }) === '2,500.00 P-coin',
 * formatAmount(1500, { unit: 'Points', decimals: 'auto' }) === '1,500 Points'. A negative amount
 * keeps its '-' in front of the separators. Never throws.
 * @param value decimal string or number; null, undefined, '', NaN, infinities and non-numeric text
 *   are unreadable and show `format.fallback`
 */
export function formatAmount(value: unknown, format: AmountFormat = {}): string {
  const { unit, decimals = 'fixed' } = format;
  const withUnit = (n: string) => (unit ? `${n} ${unit}` : n);
  let big: Big | null = null;
  if (
    (typeof value === 'number' && Number.isFinite(value)) ||
    (typeof value === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)\s*$/.test(value))
  ) {
    try {
      big = new Big(typeof value === 'string' ? value.trim() : value);
    } catch {
      big = null;
    }
  }
  if (!big) return format.fallback ?? withUnit(decimals === 'auto' ? '0' : '0.00');
  const rounded = big.round(2, Big.roundHalfUp);
  const places = decimals === 'auto' && rounded.eq(rounded.round(0, Big.roundDown)) ? 0 : 2;
  const fixed = rounded.eq(0) ? new Big(0).toFixed(places) : rounded.toFixed(places);
  return withUnit(groupThousands(fixed));
}

export { Big };

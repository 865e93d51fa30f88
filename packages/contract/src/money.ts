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

export { Big };

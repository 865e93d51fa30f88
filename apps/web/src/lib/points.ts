/**
 * How points (P-coin) are shown, in one place:
 * - {@link formatPoints}: 2 decimals with thousands separators (product §9 "Decimals"), from decimal
 *   strings without float maths: '1234.5' -> '1,234.50'; the balance, the wallet's amounts;
 * - {@link formatPointsLabel}: 'N Points' of product §2 (prices, earned points): 12 -> '12 Points',
 *   1500 -> '1,500 Points' (the same separators as every other amount);
 * - {@link groupThousands}: the separators both use (and the wallet's USD amounts).
 */
import { roundHalfUp } from '@coffer/contract/constants';

/** Thousands separators in the whole part of a fixed-point string: '-1234567.5' -> '-1,234,567.5'. */
export function groupThousands(fixed: string): string {
  const negative = fixed.startsWith('-');
  const [whole = '0', frac] = fixed.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

/**
 * Points (P-coin) for display with 2 decimals (product §9 "Decimals"): '1234.5' -> '1,234.50'.
 * Works on decimal strings (no float maths); a bad value shows as '0.00'.
 */
export function formatPoints(value: string | number | null | undefined): string {
  try {
    const fixed = roundHalfUp(value === null || value === undefined || value === '' ? '0' : value, 2);
    const [whole = '0', frac = '00'] = fixed.replace('-', '').split('.');
    return groupThousands(`${fixed.startsWith('-') ? '-' : ''}${whole}.${frac}`);
  } catch {
    return '0.00';
  }
}

/** The number behind a points value, or null when it is not a finite, non-negative number. */
function pointsNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * 'N Points' (product §2 My Collections card, 'Price' and 'Earned Points'): 12 -> '12 Points',
 * 12.5 -> '12.50 Points', '7' -> '7 Points', 1500 -> '1,500 Points'; NaN, negative, non-numeric,
 * null or undefined -> '0 Points'.
 */
export function formatPointsLabel(value: unknown): string {
  const n = pointsNumber(value);
  if (n === null) return '0 Points';
  return `${groupThousands(Number.isInteger(n) ? String(n) : n.toFixed(2))} Points`;
}

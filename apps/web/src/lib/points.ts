/**
 * How amounts are shown: every amount on every screen goes through the contract's one formatter,
 * {@link formatAmount} (thousands separators, 2 decimals, the screen's unit word), directly or
 * through the two settings the screens use most:
 * - {@link formatPoints}: the number alone with 2 decimals (product §9 "Decimals"): '1234.5' ->
 *   '1,234.50'; the balance and the wallet's amounts, whose unit sits beside them ('P-coin');
 * - {@link formatPointsLabel}: 'N Points' of product §2 (prices, earned points): 1500 -> '1,500 Points',
 *   12.5 -> '12.50 Points'.
 * {@link groupThousands} is the separator rule they share (also used on plain decimals in messages).
 */
import { formatAmount, groupThousands } from '@coffer/contract/constants';

export { formatAmount, groupThousands };

/**
 * Points (P-coin) for display with 2 decimals (product §9 "Decimals"): '1234.5' -> '1,234.50'.
 * Works on decimal strings (no float maths); a bad value shows as '0.00'.
 */
export function formatPoints(value: string | number | null | undefined): string {
  return formatAmount(value);
}

/**
 * 'N Points' (product §2 My Collections card, 'Price' and 'Earned Points'): 1500 -> '1,500 Points',
 * 12.5 -> '12.50 Points', '7' -> '7 Points'; a bad value (NaN, negative, non-numeric, null or
 * undefined) -> '0 Points'. A total that may fall below zero (a net after refunds) is written with
 * formatAmount(value, { unit: 'Points', decimals: 'auto' }) instead, which keeps the sign.
 */
export function formatPointsLabel(value: unknown): string {
  const negative = typeof value === 'number' ? value < 0 : typeof value === 'string' && value.trim().startsWith('-');
  return formatAmount(negative ? null : value, { unit: 'Points', decimals: 'auto' });
}

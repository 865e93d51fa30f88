/**
 * Display rules of SPEC 2 (My Collections card): 'Price' and 'Earned Points' read 'N Points',
 * with 2 decimals when the value is not an integer and '0 Points' on a bad value.
 */

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
 * 'N Points' (SPEC 2): 12 -> '12 Points', 12.5 -> '12.50 Points', '7' -> '7 Points';
 * NaN, negative, non-numeric, null or undefined -> '0 Points'.
 */
export function formatPointsLabel(value: unknown): string {
  const n = pointsNumber(value);
  if (n === null) return '0 Points';
  return `${Number.isInteger(n) ? String(n) : n.toFixed(2)} Points`;
}

/** The sold count of a card: a whole number, 0 by default (SPEC 2). */
export function soldCount(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

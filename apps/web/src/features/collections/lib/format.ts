/** Display rules of product §2 for collection cards that are not points (see src/lib/points.ts). */

/** The sold count of a card: a whole number, 0 by default (product §2). */
export function soldCount(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

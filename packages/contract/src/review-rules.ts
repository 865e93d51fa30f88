/**
 * Review and sales-dashboard rules shared by the server and the web, zod-free (the storefront's
 * cards show the average; ADR 0016 keeps zod out of the first screen). Product §29.
 */

/** Ratings are whole stars from REVIEW_RATING_MIN to REVIEW_RATING_MAX. */
export const REVIEW_RATING_MIN = 1;
export const REVIEW_RATING_MAX = 5;
/** Longest review text and seller reply, characters. */
export const REVIEW_TEXT_MAX = 2_000;
/** Default page size of `review/list`. */
export const REVIEWS_PAGE_SIZE = 10;
/** The windows of `my/sales/dashboard`, in UTC days (today included). */
export const SALES_DASHBOARD_DAYS = [7, 30, 90] as const;
export type SalesDashboardDays = (typeof SALES_DASHBOARD_DAYS)[number];

/**
 * The average rating for display, one decimal, rounded half up, from the stored integers
 * (`rating_sum`, `rating_count`): e.g. (13, 3) -> "4.3". Integer arithmetic only.
 * @returns null when there is no counted review
 */
export function ratingAverage(sum: number, count: number): string | null {
  if (!Number.isInteger(sum) || !Number.isInteger(count) || count <= 0 || sum < 0) return null;
  const tenths = Math.floor((sum * 20 + count) / (2 * count));
  return `${Math.floor(tenths / 10)}.${tenths % 10}`;
}

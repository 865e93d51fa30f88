/**
 * Reviews and the seller's sales dashboard (product §29,
 * docs/decisions/0031-reviews-and-sales-dashboard.md): bodies and `data` of `review/upsert`,
 * `review/list`, `review/reply`, `review/delete` and `my/sales/dashboard`.
 *
 * Units: ratings are whole stars 1-5; times are milliseconds since the epoch; points are decimal
 * strings with 2 decimals computed from integer minor units (never floats); days are UTC dates
 * `YYYY-MM-DD`.
 */
import { z } from 'zod';
import { IdSchema, isMultiLine, multiLineMessage, pageOf, paginatorSchema } from './common';
import { REVIEW_RATING_MAX, REVIEW_RATING_MIN, REVIEW_TEXT_MAX, REVIEWS_PAGE_SIZE, SALES_DASHBOARD_DAYS } from './review-rules';

/** A review as every review call answers it. */
export const ReviewSchema = z.object({
  id: z.string(),
  collection_id: z.string(),
  /** Whole stars, 1-5. */
  rating: z.number().int(),
  /** '' when the buyer wrote none. */
  text: z.string(),
  created_at: z.number(),
  /** Last edit (equals created_at until edited). */
  updated_at: z.number(),
  author: z.object({ id: z.string(), nickname: z.string(), avatar: z.string() }),
  /** The seller's one reply, or null. */
  reply: z.object({ text: z.string(), created_at: z.number() }).nullable(),
  /** The author's order was refunded: left out of the average and the public list (shown to its author only). */
  refunded: z.boolean(),
});
export type Review = z.infer<typeof ReviewSchema>;

export const ReviewRatingSchema = z
  .number({ error: 'rating must be a whole number from 1 to 5' })
  .int('rating must be a whole number from 1 to 5')
  .min(REVIEW_RATING_MIN, 'rating must be a whole number from 1 to 5')
  .max(REVIEW_RATING_MAX, 'rating must be a whole number from 1 to 5');

const reviewText = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .max(REVIEW_TEXT_MAX, `${what} must be at most ${REVIEW_TEXT_MAX} characters`)
    .refine(isMultiLine, multiLineMessage(what));

/**
 * POST /sl/v1/review/upsert — the caller's review of a collection they bought (paid, not refunded):
 * written on the first call, replaced (rating and text) on later ones. Not for the owner.
 */
export const ReviewUpsertRequestSchema = z.object({
  collection_id: IdSchema,
  rating: ReviewRatingSchema,
  text: reviewText('The review').optional(),
});
export type ReviewUpsertRequest = z.infer<typeof ReviewUpsertRequestSchema>;
export const ReviewUpsertDataSchema = z.object({ review: ReviewSchema });

/**
 * POST /sl/v1/review/list — public: a collection's reviews, newest first, a page (product §3
 * Pagination). `mine` is the signed-in caller's own review (also when refunded), `can_review` whether
 * the caller may write or edit one (a paid, not refunded buyer who is not the owner).
 */
export const ReviewListRequestSchema = z.object({
  collection_id: IdSchema,
  paginator: paginatorSchema(REVIEWS_PAGE_SIZE),
});
export const ReviewListDataSchema = pageOf('reviews', ReviewSchema).extend({
  mine: ReviewSchema.nullable(),
  can_review: z.boolean(),
});
export type ReviewPage = z.infer<typeof ReviewListDataSchema>;

/** POST /sl/v1/review/reply — the seller of the review's collection answers it, once. */
export const ReviewReplyRequestSchema = z.object({
  review_id: IdSchema,
  text: reviewText('The reply').min(1, 'Please write a reply'),
});
export const ReviewReplyDataSchema = z.object({ review: ReviewSchema });

/** POST /sl/v1/review/delete — the author removes their review (repeating is harmless). */
export const ReviewDeleteRequestSchema = z.object({ review_id: IdSchema });
export const ReviewDeleteDataSchema = z.object({});

/** POST /sl/v1/my/sales/dashboard — the seller's sales over the last `days` UTC days (today included). */
export const SalesDashboardRequestSchema = z.object({
  days: z
    .union(SALES_DASHBOARD_DAYS.map((d) => z.literal(d)) as unknown as [z.ZodLiteral<7>, z.ZodLiteral<30>, z.ZodLiteral<90>], {
      error: 'days must be 7, 30 or 90',
    })
    .default(30),
});

/** One UTC day: sales paid that day and refunds made that day (an order refunded later counts as a sale on its day). */
export const SalesDaySchema = z.object({
  /** UTC date, `YYYY-MM-DD`. */
  day: z.string(),
  sales: z.number().int(),
  /** Points credited to the seller that day (price minus the platform fee), 2 decimals. */
  earned: z.string(),
  refunds: z.number().int(),
  /** Points taken back from the seller by that day's refunds, 2 decimals. */
  refunded: z.string(),
});
export type SalesDay = z.infer<typeof SalesDaySchema>;

export const SalesDashboardDataSchema = z.object({
  days: z.number().int(),
  /** Start of the first day (00:00 UTC) and end of the last (exclusive), ms. */
  from: z.number(),
  to: z.number(),
  /** Every day of the window, oldest first, days without sales included (zeros). */
  series: z.array(SalesDaySchema),
  totals: z.object({
    sales: z.number().int(),
    earned: z.string(),
    refunds: z.number().int(),
    refunded: z.string(),
    /** earned - refunded, 2 decimals (may be negative). */
    net: z.string(),
  }),
  /**
   * Proceeds in their holding period (product.md §30 "Clearance"): `pending` now (all sales paid,
   * not refunded, not cleared; points, 2 decimals), `cleared` in the window (by when they cleared),
   * and `next_clears_at` (ms; null when nothing is pending).
   */
  clearance: z
    .object({ pending: z.string(), cleared: z.string(), next_clears_at: z.number().nullable() })
    .optional(),
  /** At most 5 collections, by points earned in the window (then sales, then id). */
  top_collections: z.array(
    z.object({ collection_id: z.string(), title: z.string(), sales: z.number().int(), earned: z.string() }),
  ),
  /**
   * Every collection of the seller with a paid or refunded order, all time: files handed out to its
   * buyers (per-order download counts, product §25) and its paid buyers; most downloaded first.
   */
  downloads: z.array(
    z.object({ collection_id: z.string(), title: z.string(), downloads: z.number().int(), buyers: z.number().int() }),
  ),
});
export type SalesDashboard = z.infer<typeof SalesDashboardDataSchema>;

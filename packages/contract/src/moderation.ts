/**
 * Reports and takedowns (product §27): the `collection/report` call and the takedown notice the
 * owner of a hidden collection sees.
 *
 * - `reason` is one of {@link REPORT_REASONS}; `details` is free text, at most
 *   {@link REPORT_DETAILS_MAX} characters (trimmed; may be empty).
 * - One open report per reporter and collection: a repeat answers the open report again with
 *   `already_reported: true` (nothing new is stored).
 *
 * Units: times are milliseconds since the epoch.
 */
import { z } from 'zod';
import { IdSchema, isMultiLine, multiLineMessage } from './common';
import { REPORT_DETAILS_MAX, REPORT_REASONS } from './constants';

/** POST /sl/v1/collection/report — a signed-in user reports a collection they can see (not their own). */
export const CollectionReportRequestSchema = z.object({
  collection_id: IdSchema,
  reason: z.enum(REPORT_REASONS),
  details: z
    .string()
    .trim()
    .max(REPORT_DETAILS_MAX, `details must be at most ${REPORT_DETAILS_MAX} characters`)
    .refine(isMultiLine, multiLineMessage('details'))
    .default(''),
});
export type CollectionReportRequest = z.infer<typeof CollectionReportRequestSchema>;

export const CollectionReportDataSchema = z.object({
  /** The report's id (`already_reported`: the open report sent earlier). */
  report_id: z.string(),
  /** 'open' until an operator resolves or dismisses it. */
  status: z.literal('open'),
  /** True when this answers an open report the caller had already sent for the collection. */
  already_reported: z.boolean(),
  /** Milliseconds. */
  created_at: z.number(),
});
export type CollectionReportData = z.infer<typeof CollectionReportDataSchema>;

/**
 * The takedown of a collection as its owner sees it (`moderation` on the owner's views): hidden from
 * the market, search and everyone but its buyers; `files_removed` also refuses downloads to
 * everyone (the stored bytes are kept).
 */
export const CollectionModerationSchema = z.object({
  hidden: z.literal(true),
  /** The operator's reason, as given to `admin hide --reason`. */
  reason: z.string(),
  files_removed: z.boolean(),
  /** Milliseconds. */
  hidden_at: z.number(),
});
export type CollectionModeration = z.infer<typeof CollectionModerationSchema>;

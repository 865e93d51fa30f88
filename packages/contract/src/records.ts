/**
 * Transaction records (product §3 "Transaction record", product §7 record/list, product §13).
 */
import { z } from 'zod';
import { IdSchema, pageOf, paginatorSchema } from './common';
import { RECORDS_PAGE_SIZE } from './constants';
import { DIRECTIONS, RECORD_CATES, RECORD_STATUSES, RECORD_TYPES, RecordCate } from './enums';

/**
 * Wraps a request schema with a product §5 "call precondition": when any of `fields` is missing, null
 * or blank, the body fails with exactly `message` (product §8, e.g. 'user_id required') as a body-level
 * issue, so the envelope's `msg` is the message verbatim; otherwise `schema` parses as usual.
 */
export function requireFields<S extends z.ZodType>(fields: readonly string[], message: string, schema: S) {
  return z.preprocess((input, ctx) => {
    if (input && typeof input === 'object' && !Array.isArray(input)) {
      const body = input as Record<string, unknown>;
      const missing = fields.some((f) => {
        const v = body[f];
        return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
      });
      if (missing) ctx.issues.push({ code: 'custom', message, input });
    }
    return input;
  }, schema);
}

export const RecordSchema = z.object({
  id: z.string(),
  biz_id: z.string(),
  type: z.enum(RECORD_TYPES),
  direction: z.enum(DIRECTIONS),
  /** Points, 2 decimals, unsigned; the direction gives the sign. */
  amount: z.string(),
  status: z.enum(RECORD_STATUSES),
  /** Milliseconds since the epoch. */
  created_at: z.number(),
  /**
   * The collection a Purchase, Sale or Refund record was for (its order's collection, title as it
   * reads now); absent on top-ups and cash-outs.
   */
  collection: z.object({ id: z.string(), title: z.string() }).nullable().optional(),
});
export type TransactionRecord = z.infer<typeof RecordSchema>;

/** POST /uc/v1/account/record/list */
export const RecordListRequestSchema = requireFields(
  ['user_id'],
  'user_id required',
  z.object({
    user_id: IdSchema,
    filter: z
      .object({
        cate: z.enum(RECORD_CATES).default(RecordCate.All),
        status_list: z.array(z.enum(RECORD_STATUSES)).max(4).default([]),
      })
      .default({ cate: RecordCate.All, status_list: [] }),
    paginator: paginatorSchema(RECORDS_PAGE_SIZE),
  }),
);
export type RecordListRequest = z.infer<typeof RecordListRequestSchema>;
/** A page of records: `records`, `count` (product §7) and the paging fields (product §3 Pagination). */
export const RecordListDataSchema = pageOf('records', RecordSchema);
export type RecordListData = z.infer<typeof RecordListDataSchema>;

/**
 * Transaction records (SPEC 3 "Transaction record", SPEC 7 record/list, DESIGN 4).
 */
import { z } from 'zod';
import { IdSchema, paginatorSchema } from './common';
import { RECORDS_PAGE_SIZE } from './constants';
import { DIRECTIONS, RECORD_CATES, RECORD_STATUSES, RECORD_TYPES, RecordCate } from './enums';

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
});
export type TransactionRecord = z.infer<typeof RecordSchema>;

/** POST /uc/v1/account/record/list */
export const RecordListRequestSchema = z.object({
  user_id: IdSchema.optional().refine((v) => v !== undefined, 'user_id required'),
  filter: z
    .object({
      cate: z.enum(RECORD_CATES).default(RecordCate.All),
      status_list: z.array(z.enum(RECORD_STATUSES)).max(4).default([]),
    })
    .default({ cate: RecordCate.All, status_list: [] }),
  paginator: paginatorSchema(RECORDS_PAGE_SIZE),
});
export type RecordListRequest = z.infer<typeof RecordListRequestSchema>;
export const RecordListDataSchema = z.object({ records: z.array(RecordSchema), count: z.number() });
export type RecordListData = z.infer<typeof RecordListDataSchema>;

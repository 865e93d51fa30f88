/** Shared building blocks of request and response schemas (SPEC 3, DESIGN 8). */
import { z } from 'zod';
import { MAX_PAGE_SIZE } from './constants';

/** An entity id as sent on the wire (a UUID string). Ids are validated before they reach SQL. */
export const IdSchema = z
  .string({ error: 'An id is required' })
  .trim()
  .regex(/^[0-9a-fA-F-]{36}$/, 'Invalid id');

/** A paginator `{page (from 0), size}`; `defaultSize` applies when size is missing. */
export function paginatorSchema(defaultSize: number) {
  return z
    .object({
      page: z.coerce.number().int('page must be an integer').min(0, 'page must be 0 or more').max(1_000_000).default(0),
      size: z.coerce
        .number()
        .int('size must be an integer')
        .min(1, 'size must be at least 1')
        .max(MAX_PAGE_SIZE, `size must be at most ${MAX_PAGE_SIZE}`)
        .default(defaultSize),
    })
    .default({ page: 0, size: defaultSize });
}

/** Points (P-coin) as a decimal string with at most 2 decimals, e.g. "12.50". */
export const PointsStringSchema = z
  .string()
  .regex(/^\d{1,15}(\.\d{1,2})?$/, 'Amount must be a number with at most 2 decimals');

/** A millisecond timestamp (SPEC 3: "millisecond timestamp string"), sent as a number. */
export const TimestampMsSchema = z.number().int();

/** The asset pair of SPEC 3 (available and frozen points as decimal strings). */
export const AssetSchema = z.object({
  available: z.string(),
  freeze: z.string(),
});
export type Asset = z.infer<typeof AssetSchema>;

/** An empty request body (`{}`); unknown fields are stripped. */
export const EmptyRequestSchema = z.object({}).default({});

/** An empty `data` object. */
export const EmptyDataSchema = z.object({});

/** Shared building blocks of request and response schemas (product §3, §17). */
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

/**
 * The paging fields of every paged answer (product §3 Pagination: "page (0-based), size, totalCount,
 * totalPages. A paginated response exposes a hasNextPage flag."). `count` equals `totalCount` and
 * stays for clients that read it (product §7: "data with records and count").
 */
export const PageFieldsSchema = z.object({
  /** The page answered, from 0 (as asked, even past the last page). */
  page: z.number().int().min(0),
  /** Items per page, as asked. */
  size: z.number().int().min(1),
  /** Items matching the query across every page. */
  totalCount: z.number().int().min(0),
  /** ceil(totalCount / size); 0 when there are no items. */
  totalPages: z.number().int().min(0),
  /** True when a page after this one holds items (page + 1 < totalPages). */
  hasNextPage: z.boolean(),
  /** Same as `totalCount` (kept for older clients). */
  count: z.number().int().min(0),
});
export type PageFields = z.infer<typeof PageFieldsSchema>;

/**
 * A page answer: `{<itemsKey>: item[], ...PageFieldsSchema}`, e.g. `pageOf('collections', CollectionSchema)`.
 * Every paged call of the API answers with one of these (product §3 Pagination).
 */
export function pageOf<K extends string, T extends z.ZodType>(itemsKey: K, item: T) {
  const items = { [itemsKey]: z.array(item) } as { [P in K]: z.ZodArray<T> };
  return PageFieldsSchema.extend(items);
}

/**
 * The paging fields of page `paginator.page` (from 0) of `paginator.size` items when `totalCount`
 * items match (product §3 Pagination). Pure; the server's answers and the web's cache updates use it.
 * @param totalCount items across every page (negative or fractional values are clamped to whole >= 0)
 */
export function pageFields(paginator: { page: number; size: number }, totalCount: number): PageFields {
  const total = Math.max(0, Math.floor(totalCount));
  const size = Math.max(1, Math.floor(paginator.size));
  const page = Math.max(0, Math.floor(paginator.page));
  const totalPages = Math.ceil(total / size);
  return { page, size, totalCount: total, totalPages, hasNextPage: page + 1 < totalPages, count: total };
}

/**
 * The text rules of every field a user types (docs/abuse.md "Text"): a one-line field (titles,
 * nicknames, file names, codes, search) holds no C0 control character at all (so no CR or LF: it
 * cannot start a new mail header or line), no DEL and no bidi override or isolate (U+202A-U+202E,
 * U+2066-U+2069, which can make `evil\u202Etxt.exe` read as `evilexe.txt`); a multi-line field
 * (descriptions, reasons, reviews) may hold newlines and tabs but no other C0 control and no DEL.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const ONE_LINE_FORBIDDEN = /[\u0000-\u001F\u007F\u202A-\u202E\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000B-\u001F\u007F]/;
/** True when `v` may stand in a one-line field ({@link ONE_LINE_FORBIDDEN}). */
export const isOneLine = (v: string): boolean => !ONE_LINE_FORBIDDEN.test(v);
/** True when `v` may stand in a multi-line field ({@link MULTI_LINE_FORBIDDEN}). */
export const isMultiLine = (v: string): boolean => !MULTI_LINE_FORBIDDEN.test(v);
/** The refusal of a one-line field, naming it. */
export const oneLineMessage = (field: string) => `${field} must be one line of plain text (no control or text-direction characters)`;
/** The refusal of a multi-line field, naming it. */
export const multiLineMessage = (field: string) => `${field} must be plain text (no control characters)`;

/** Points (P-coin) as a decimal string with at most 2 decimals, e.g. "12.50". */
export const PointsStringSchema = z.string().regex(/^\d{1,15}(\.\d{1,2})?$/, 'Amount must be a number with at most 2 decimals');

/** A millisecond timestamp (product §3: "millisecond timestamp string"), sent as a number. */
export const TimestampMsSchema = z.number().int();

/**
 * The asset pair of product §3 (available and frozen points as decimal strings), with the seller's
 * proceeds still in their holding period (product.md "Clearance"): `pending` points (2 decimals) that
 * can be neither spent nor cashed out yet, and `pending_clears_at`, when the next pending amount
 * clears (milliseconds; null when nothing is pending).
 */
export const AssetSchema = z.object({
  available: z.string(),
  freeze: z.string(),
  pending: z.string().optional(),
  pending_clears_at: z.number().nullable().optional(),
});
export type Asset = z.infer<typeof AssetSchema>;

/** An empty request body (`{}`); unknown fields are stripped. */
export const EmptyRequestSchema = z.object({}).default({});

/** An empty `data` object. */
export const EmptyDataSchema = z.object({});

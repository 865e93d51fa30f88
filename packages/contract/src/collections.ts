/**
 * Collections, uploads, purchases and downloads: product §3 Collection/Resource, product §7 collection and
 * file table (prefix `/sl/v1`), product §16-§17 (bodies and `data` of every call).
 *
 * Units: collection prices (`amount`) are whole points (product §3: "price in points, integer");
 * `earned` is points (an integer unless a platform fee leaves hundredths); sizes are bytes;
 * times are milliseconds since the epoch.
 */
import { z } from 'zod';
import { ImageUploadRequestSchema, PublicUserSchema } from './account';
import { IdSchema, isMultiLine, isOneLine, multiLineMessage, oneLineMessage, pageOf, paginatorSchema } from './common';
import { COLLECTION_DESC_MAX, COLLECTION_TITLE_MAX, COLLECTIONS_PAGE_SIZE, REFUND_REASON_MAX } from './constants';
import { formatAmount } from './money';
import { COLLECTION_STATUSES, MARKET_SORTS, MarketSort, OrderStatus } from './enums';
import { CollectionModerationSchema } from './moderation';
import { PasswordDigestSchema } from './password';
import { TwoFactorCodeSchema } from './security';
import { MAX_UPLOAD_PARTS } from './upload-rules';

/** Single-PUT uploads (`upload/resource/url`) are for files up to this size; larger ones use multipart. */
export const SINGLE_PUT_MAX_BYTES = 100 * 1024 * 1024;
/** Lifetime of presigned upload URLs (parts, single PUT, images). */
export const UPLOAD_URL_TTL_SECONDS = 3_600;
/** Lifetime of a presigned download URL (product §16: short-lived). */
export const DOWNLOAD_URL_TTL_SECONDS = 300;

/** Highest collection price in points. */
export const COLLECTION_MAX_AMOUNT = 100_000_000;

// ---------------------------------------------------------------------------------------------
// Entities

/** product §3 Collection, as every collection call answers it. */
export const CollectionSchema = z.object({
  id: z.string(),
  title: z.string(),
  desc: z.string(),
  /** Image URL; absent when the collection has no banner. */
  banner: z.string().optional(),
  /** Price in whole points. */
  amount: z.number().int(),
  sold_count: z.number().int(),
  /** Points earned by the seller (after the platform fee). */
  earned: z.number(),
  status: z.enum(COLLECTION_STATUSES),
  /** Milliseconds. */
  created_at: z.number(),
  owner_id: z.string(),
  /** Number of resources (files) attached. */
  resource_count: z.number().int(),
  /**
   * Reviews (product §29): the sum of the counted ratings (1-5 each) and their number; the average is
   * `ratingAverage(rating_sum, rating_count)` (one decimal), never sent as a float.
   */
  rating_sum: z.number().int(),
  rating_count: z.number().int(),
  /** The seller's public profile (lists and details that show it). */
  seller: PublicUserSchema.optional(),
  /** Present, for its owner only, while Coffer has taken the collection down (product §27). */
  moderation: CollectionModerationSchema.optional(),
});
export type Collection = z.infer<typeof CollectionSchema>;

/** A resource (file) of a collection. No download URL here: see `resource/download/url`. */
export const ResourceSchema = z.object({
  id: z.string(),
  /** Null until `collection/resource/add` attaches it. */
  collection_id: z.string().nullable(),
  name: z.string(),
  /** Bytes. */
  size: z.number().int(),
  /** Lower-case hex MD5 of the whole file. */
  md5: z.string(),
  content_type: z.string(),
  created_at: z.number(),
  /** Version of the file: 1, then + 1 on each replace (product §24). */
  version: z.number().int(),
  /** Milliseconds when the current version replaced the previous one; null while at version 1. */
  updated_at: z.number().nullable(),
  /** A free preview: anyone, even signed out, may download it (`resource/preview/url`). */
  preview: z.boolean(),
  /** Short-lived URL of a WebP thumbnail (images only; shown for previews, and to the owner and buyers). */
  thumbnail_url: z.string().optional(),
  /** Present and true on a file removed after the caller bought the collection (kept for them). */
  removed: z.boolean().optional(),
});
export type Resource = z.infer<typeof ResourceSchema>;

/** A purchase order (product §17). */
export const OrderSchema = z.object({
  id: z.string(),
  collection_id: z.string(),
  /** Price paid, whole points. */
  amount: z.number().int(),
  status: z.enum([OrderStatus.Pending, OrderStatus.Paid, OrderStatus.Refunded]),
  created_at: z.number(),
  /** Milliseconds; null while pending. */
  paid_at: z.number().nullable(),
  /** Milliseconds; set once refunded (product §25). */
  refunded_at: z.number().nullable().optional(),
  /** The buyer's refund request waiting for the seller (product §25), when there is one. */
  refund_request: z.object({ reason: z.string(), requested_at: z.number() }).nullable().optional(),
  /** The collection bought (lists show its title and banner). */
  collection: CollectionSchema.optional(),
  /** The collection's price when the order was priced, whole points (product §28); `amount` = list_price - discount. */
  list_price: z.number().int().optional(),
  /** Points taken off by a discount code (0 without one). */
  discount: z.number().int().optional(),
  /** The order's licence key (product §28): paid orders of collections with keys on; null otherwise. */
  licence_key: z.string().nullable().optional(),
  /** True once the licence key was revoked (the order was refunded). */
  licence_revoked: z.boolean().optional(),
  /**
   * Milliseconds: when a pending order's quote lapses (created_at + ORDER_QUOTE_TTL_SECONDS; the
   * next `collection/buy` re-quotes it at the price shown then, product.md "The price the buyer saw").
   * Null once paid or refunded.
   */
  expires_at: z.number().nullable().optional(),
  /**
   * Milliseconds: when the seller's proceeds of a paid order clear (become available; product.md
   * "Clearance"). Null when no hold applies (free, EARNINGS_HOLD_DAYS=0, or paid before holds).
   */
  clears_at: z.number().nullable().optional(),
  /** Milliseconds: when the proceeds cleared; null while pending or without a hold. */
  cleared_at: z.number().nullable().optional(),
  /** Milliseconds: when the buyer reported the purchase as not made by them ("This wasn't me"); else null. */
  reported_at: z.number().nullable().optional(),
});
export type Order = z.infer<typeof OrderSchema>;

/** A page of collections with the paging fields (product §3 Pagination). */
export const CollectionPageSchema = pageOf('collections', CollectionSchema);
export type CollectionPage = z.infer<typeof CollectionPageSchema>;

// ---------------------------------------------------------------------------------------------
// Field schemas

export const CollectionTitleSchema = z
  .string({ error: 'Title is required' })
  .trim()
  .min(1, 'Title is required')
  .max(COLLECTION_TITLE_MAX, `Title must be at most ${COLLECTION_TITLE_MAX} characters`)
  .refine(isOneLine, oneLineMessage('Title'));

export const CollectionDescSchema = z
  .string()
  .trim()
  .max(COLLECTION_DESC_MAX, `Description must be at most ${COLLECTION_DESC_MAX} characters`)
  .refine(isMultiLine, multiLineMessage('Description'));

/** Price in whole points; a number or a digit string. */
export const CollectionAmountSchema = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: 'Price must be a whole number of points' })
    .int('Price must be a whole number of points')
    .min(0, 'Price cannot be negative')
    .max(COLLECTION_MAX_AMOUNT, `Price must be at most ${formatAmount(COLLECTION_MAX_AMOUNT, { unit: 'points', decimals: 'auto' })}`),
);

/** A file name as the uploader's disk had it (no path). */
export const FileNameSchema = z
  .string({ error: 'file_name is required' })
  .trim()
  .min(1, 'file_name is required')
  .max(255, 'file_name must be at most 255 characters')
  .refine(
    (v) => !/[\\/]/.test(v) && ![...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
    'file_name cannot contain slashes or control characters',
  )
  .refine(isOneLine, 'file_name cannot contain control or text-direction characters')
  // `.`/`..` are path steps, and `C:evil.txt` a drive-relative path on Windows (docs/abuse.md "Text").
  .refine((v) => !/^\.+$/.test(v) && !/^[A-Za-z]:/.test(v), 'file_name must be a file name, not a path');

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes standard base64 (with padding) to lower-case hex. */
function base64ToHex(b64: string): string {
  let bits = 0;
  let acc = 0;
  let hex = '';
  for (const ch of b64.replace(/=+$/, '')) {
    acc = (acc << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      hex += ((acc >> bits) & 0xff).toString(16).padStart(2, '0');
    }
  }
  return hex;
}

/** MD5 of the whole file: 32 hex digits, or the 24-character base64 form (product §5: "hex or base64"); normalised to lower-case hex. */
export const Md5Schema = z
  .string({ error: 'md5 is required' })
  .trim()
  .transform((v, ctx) => {
    if (/^[0-9a-fA-F]{32}$/.test(v)) return v.toLowerCase();
    if (/^[A-Za-z0-9+/]{22}==$/.test(v)) return base64ToHex(v);
    ctx.addIssue({ code: 'custom', message: 'md5 must be 32 hex digits (or base64)' });
    return z.NEVER;
  });

/** File size in bytes (the per-file limit MAX_UPLOAD_BYTES is the server's configuration). */
export const FileSizeSchema = z
  .number({ error: 'size is required' })
  .int('size must be a whole number of bytes')
  .min(1, 'Empty files cannot be uploaded')
  .max(Number.MAX_SAFE_INTEGER);

export const ContentTypeSchema = z
  .string()
  .trim()
  .max(255, 'content_type is too long')
  .regex(/^$|^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/, 'content_type must be a MIME type such as application/zip')
  .transform((v) => v || 'application/octet-stream')
  .default('application/octet-stream');

// ---------------------------------------------------------------------------------------------
// Calls (prefix /sl/v1, also /api/sl/v1)

/** POST /sl/v1/create/banner/url — presigned PUT for a banner image (png/jpeg/webp/gif, <= 5 MB). */
export const BannerUrlRequestSchema = ImageUploadRequestSchema;
export const BannerUrlDataSchema = z.object({
  /** Presigned PUT URL; send the image with the same Content-Type. */
  url: z.string(),
  /** The value to pass as `banner` to collection/create (it is also the image's URL once checked). */
  banner: z.string(),
  expires_at: z.number(),
});

/** POST /sl/v1/collection/create */
export const CollectionCreateRequestSchema = z.object({
  title: CollectionTitleSchema,
  desc: CollectionDescSchema.default(''),
  amount: CollectionAmountSchema,
  /** The `banner` value create/banner/url answered, after the image was PUT. */
  banner: z.string().trim().max(512, 'banner is too long').optional(),
  /**
   * True for the upload page's 'Save as draft': the collection starts as `Draft` (unpublished, editable,
   * publishable like `Created`) so its badge says what the seller chose. Default false: `Created`.
   */
  draft: z.boolean().optional(),
});
export type CollectionCreateRequest = z.infer<typeof CollectionCreateRequestSchema>;
export const CollectionCreateDataSchema = CollectionSchema;

/** A body naming one collection (publish, delete, detail, buy). */
export const CollectionIdRequestSchema = z.object({ collection_id: IdSchema });

/** POST /sl/v1/collection/publish — Created/Draft -> Published (owner, >= 1 resource, title). */
export const CollectionPublishRequestSchema = CollectionIdRequestSchema;
export const CollectionPublishDataSchema = CollectionSchema;

/** POST /sl/v1/collection/delete — soft delete by the owner; buyers keep their downloads. */
export const CollectionDeleteRequestSchema = CollectionIdRequestSchema;
export const CollectionDeleteDataSchema = z.object({});

/**
 * POST /sl/v1/collection/update — the owner changes any of title, desc, amount (whole points) and
 * banner, with the create rules (product §24). A new price applies to orders created afterwards only.
 */
export const CollectionUpdateRequestSchema = z.object({
  collection_id: IdSchema,
  title: CollectionTitleSchema.optional(),
  desc: CollectionDescSchema.optional(),
  amount: CollectionAmountSchema.optional(),
  /** A new `banner` value from create/banner/url. */
  banner: z.string().trim().max(512, 'banner is too long').optional(),
});
export type CollectionUpdateRequest = z.infer<typeof CollectionUpdateRequestSchema>;
export const CollectionUpdateDataSchema = CollectionSchema;

/** POST /sl/v1/collection/unpublish — Published -> Draft (owner); hidden from the storefront, buyers keep access. */
export const CollectionUnpublishRequestSchema = CollectionIdRequestSchema;
export const CollectionUnpublishDataSchema = CollectionSchema;

/** A body naming one file of one collection. */
export const CollectionResourceRequestSchema = z.object({ collection_id: IdSchema, resource_id: IdSchema });

/** POST /sl/v1/collection/resource/remove — hides a file from new buyers; buyers who bought keep it. */
export const CollectionResourceRemoveRequestSchema = CollectionResourceRequestSchema;
export const CollectionResourceRemoveDataSchema = z.object({});

/**
 * POST /sl/v1/collection/resource/replace — a completed upload (`new_resource_id`, not attached anywhere)
 * becomes version n + 1 of the file `resource_id`; the file keeps its id, the old bytes are kept.
 */
export const CollectionResourceReplaceRequestSchema = z.object({
  collection_id: IdSchema,
  resource_id: IdSchema,
  new_resource_id: IdSchema,
});
export const CollectionResourceReplaceDataSchema = ResourceSchema;

/** POST /sl/v1/collection/resource/preview — marks a file as a free preview (or not). */
export const CollectionResourcePreviewRequestSchema = z.object({
  collection_id: IdSchema,
  resource_id: IdSchema,
  preview: z.boolean({ error: 'preview must be true or false' }),
});
export const CollectionResourcePreviewDataSchema = ResourceSchema;

/** POST /sl/v1/resource/preview/url — anyone: a short-lived download URL of a preview file of a visible collection. */
export const ResourcePreviewUrlRequestSchema = CollectionResourceRequestSchema;
export const ResourcePreviewUrlDataSchema = z.object({ url: z.string(), expires_at: z.number() });

/** Kinds of a library change (product §24). */
export const LIBRARY_CHANGE_KINDS = ['added', 'updated', 'removed'] as const;
export type LibraryChangeKind = (typeof LIBRARY_CHANGE_KINDS)[number];

/** One file added, updated (new version) or removed in a collection the caller bought. */
export const LibraryChangeSchema = z.object({
  collection_id: z.string(),
  resource_id: z.string(),
  version: z.number().int(),
  kind: z.enum(LIBRARY_CHANGE_KINDS),
  /** The file name at the time of the change. */
  name: z.string(),
  /** Milliseconds. */
  at: z.number(),
});
export type LibraryChange = z.infer<typeof LibraryChangeSchema>;

/** Most changes one `my/library/changes` answer carries. */
export const LIBRARY_CHANGES_PAGE = 100;

/** POST /sl/v1/my/library/changes — changes after `cursor` (from the start when absent), oldest first. */
export const MyLibraryChangesRequestSchema = z.object({
  /** An opaque `cursor` from an earlier answer. */
  cursor: z.string().trim().min(1, 'cursor is empty').max(200, 'cursor is too long').optional(),
});
export const MyLibraryChangesDataSchema = z.object({
  changes: z.array(LibraryChangeSchema),
  /** Read again from here to get what follows (the same cursor when nothing is new). */
  cursor: z.string(),
  /** True when more changes wait after this page. */
  has_more: z.boolean(),
});
export type MyLibraryChangesData = z.infer<typeof MyLibraryChangesDataSchema>;

/** POST /sl/v1/upload/resource/url — single PUT for files up to SINGLE_PUT_MAX_BYTES. */
export const UploadResourceUrlRequestSchema = z.object({
  file_name: FileNameSchema,
  size: FileSizeSchema,
  md5: Md5Schema,
  content_type: ContentTypeSchema,
});
export type UploadResourceUrlRequest = z.infer<typeof UploadResourceUrlRequestSchema>;
export const UploadResourceUrlDataSchema = z.object({ upload_id: z.string(), url: z.string(), expires_at: z.number() });

/** POST /sl/v1/multipart/upload — starts a multipart upload. */
export const MultipartUploadRequestSchema = UploadResourceUrlRequestSchema;
export type MultipartUploadRequest = z.infer<typeof MultipartUploadRequestSchema>;
export const MultipartUploadDataSchema = z.object({
  upload_id: z.string(),
  /** Bytes of every part but the last (>= 5 MiB). */
  part_size: z.number().int(),
  part_count: z.number().int(),
});

/** POST /sl/v1/upload/part/url — presigned PUT of one part (numbered from 1). */
export const UploadPartUrlRequestSchema = z.object({
  upload_id: IdSchema,
  part_number: z
    .number({ error: 'part_number is required' })
    .int('part_number must be an integer')
    .min(1, 'part_number starts at 1')
    .max(MAX_UPLOAD_PARTS, `part_number must be at most ${MAX_UPLOAD_PARTS}`),
});
export const UploadPartUrlDataSchema = z.object({
  url: z.string(),
  part_number: z.number().int(),
  /** Bytes this part must have. */
  size: z.number().int(),
  expires_at: z.number(),
});

/** An uploaded part as storage reports it (S3 ListParts). */
export const UploadedPartSchema = z.object({ part_number: z.number().int(), etag: z.string(), size: z.number().int() });

/** POST /sl/v1/upload/parts — list-parts, so a client can resume after a dropped connection. */
export const UploadPartsRequestSchema = z.object({ upload_id: IdSchema });
export const UploadPartsDataSchema = z.object({
  parts: z.array(UploadedPartSchema),
  part_size: z.number().int(),
  part_count: z.number().int(),
});

/** POST /sl/v1/complete/upload — `parts` are the ETags the part PUTs answered (empty for a single PUT). */
export const CompleteUploadRequestSchema = z.object({
  upload_id: IdSchema,
  parts: z
    .array(
      z.object({
        part_number: z.number().int().min(1).max(MAX_UPLOAD_PARTS),
        etag: z.string().trim().max(128),
      }),
    )
    .max(MAX_UPLOAD_PARTS)
    .default([]),
});
export type CompleteUploadRequest = z.infer<typeof CompleteUploadRequestSchema>;
export const CompleteUploadDataSchema = ResourceSchema;

/** POST /sl/v1/collection/resource/add — attaches a completed upload's resource (owner only). */
export const CollectionResourceAddRequestSchema = CollectionResourceRequestSchema;
export const CollectionResourceAddDataSchema = ResourceSchema;

/** POST /sl/v1/my/collections — the caller's collections, newest first. */
export const MyCollectionsRequestSchema = z.object({ paginator: paginatorSchema(COLLECTIONS_PAGE_SIZE) });
export const MyCollectionsDataSchema = CollectionPageSchema;

/** POST /sl/v1/collection/detail — public for Published; any status for the owner; kept for buyers. */
export const CollectionDetailRequestSchema = CollectionIdRequestSchema;
export const CollectionDetailDataSchema = z.object({
  collection: CollectionSchema,
  resources: z.array(ResourceSchema),
  seller: PublicUserSchema,
  /** True when the signed-in caller has a paid order for it. */
  purchased: z.boolean(),
  /**
   * True when the signed-in caller's order for it was refunded: they cannot buy it again
   * (docs/product.md §25.1); the page shows that instead of Buy.
   */
  refunded: z.boolean().optional(),
});

/** POST /sl/v1/resource/detail (new) */
export const ResourceDetailRequestSchema = z.object({ resource_id: IdSchema });
export const ResourceDetailDataSchema = z.object({
  resource: ResourceSchema,
  collection: CollectionSchema,
  purchased: z.boolean(),
});

/** POST /sl/v1/market/collections (new) — published collections for the home page. */
export const MarketCollectionsRequestSchema = z.object({
  paginator: paginatorSchema(COLLECTIONS_PAGE_SIZE),
  q: z.string().trim().max(100, 'Search text is too long').refine(isOneLine, oneLineMessage('Search text')).optional(),
  sort: z
    .enum(MARKET_SORTS, { error: 'sort must be newest, popular, price_asc, price_desc or rating' })
    .default(MarketSort.Newest),
});
export type MarketCollectionsRequest = z.infer<typeof MarketCollectionsRequestSchema>;
export const MarketCollectionsDataSchema = CollectionPageSchema;

/** POST /sl/v1/user/collections (new) — a user's published collections. */
export const UserCollectionsRequestSchema = z.object({ user_id: IdSchema, paginator: paginatorSchema(COLLECTIONS_PAGE_SIZE) });
export const UserCollectionsDataSchema = CollectionPageSchema;

/**
 * POST /sl/v1/creator/detail (new) — a seller's public page, signed in or not: the user as
 * `creator`, their rating over every counted review of their collections (`rating_sum` of the
 * 1-5 stars and `rating_count`, refunded reviews left out as on each collection; the average is
 * `ratingAverage(rating_sum, rating_count)`), and a page of their published collections that Coffer
 * has not taken down, newest first. NOT_FOUND (404) for a user who does not exist, deleted their
 * account or is suspended.
 */
export const CreatorDetailRequestSchema = z.object({ user_id: IdSchema, paginator: paginatorSchema(COLLECTIONS_PAGE_SIZE) });
export const CreatorDetailDataSchema = CollectionPageSchema.extend({
  creator: PublicUserSchema,
  /** Sum of the counted ratings (whole stars) over all the creator's collections, unpublished ones included. */
  rating_sum: z.number().int(),
  /** Number of the counted ratings. */
  rating_count: z.number().int(),
});
export type CreatorDetail = z.infer<typeof CreatorDetailDataSchema>;

/**
 * POST /sl/v1/collection/buy — the buyer's order for the collection (the same one on every repeat).
 * `code`: a discount code of the collection's seller (product §28), case-insensitive; a pending order
 * is repriced by each buy (with the code, or at the list price without one).
 */
export const CollectionBuyRequestSchema = CollectionIdRequestSchema.extend({
  code: z
    .string()
    .trim()
    .max(32, 'A code has at most 32 characters')
    .regex(/^[A-Za-z0-9_-]*$/, 'A code may use letters, digits, - and _ only')
    .transform((s) => (s ? s.toUpperCase() : undefined))
    .optional(),
});
export const CollectionBuyDataSchema = OrderSchema;

/**
 * POST /api/uc/v1/account/order/pay — settles a pending order; a paid order is returned unchanged.
 * - `amount`: the whole points the buyer confirmed; a different order amount answers PRICE_CHANGED
 *   and charges nothing (product.md "The price the buyer saw");
 * - `password` (MD5 digest) or `code` (authenticator or recovery code, with two-factor on): the
 *   step-up for spending (product.md "Step-up"); without either, a session that stepped up in the
 *   last STEP_UP_MINUTES pays, any other answers STEP_UP_REQUIRED with `data.method`.
 */
export const OrderPayRequestSchema = z.object({
  order_id: IdSchema,
  password: PasswordDigestSchema.optional(),
  code: TwoFactorCodeSchema.optional(),
  amount: z.number({ error: 'Amount must be a whole number of points' }).int('Amount must be a whole number of points').min(0).max(1_000_000_000).optional(),
});
export const OrderPayDataSchema = OrderSchema;

/** POST /sl/v1/my/orders — default page 0, size 10 (product §7). */
export const MyOrdersRequestSchema = z.object({ paginator: paginatorSchema(COLLECTIONS_PAGE_SIZE) });
/** A page of orders with the paging fields (product §3 Pagination). */
export const OrderPageSchema = pageOf('orders', OrderSchema);
export type OrderPage = z.infer<typeof OrderPageSchema>;
export const MyOrdersDataSchema = OrderPageSchema;

/** POST /sl/v1/my/purchased/collections */
export const MyPurchasedCollectionsRequestSchema = z.object({ paginator: paginatorSchema(COLLECTIONS_PAGE_SIZE) });
export const MyPurchasedCollectionsDataSchema = CollectionPageSchema;

/** POST /sl/v1/resource/download/url — owner or buyer only; short-lived signed URL. */
export const ResourceDownloadUrlRequestSchema = z.object({ collection_id: IdSchema, resource_id: IdSchema });
export const ResourceDownloadUrlDataSchema = z.object({ url: z.string(), expires_at: z.number() });

/** A refund reason (product §25): free text, trimmed, at most REFUND_REASON_MAX characters. */
export const RefundReasonSchema = z
  .string({ error: 'reason is required' })
  .trim()
  .min(1, 'Please give a reason')
  .max(REFUND_REASON_MAX, `The reason must be at most ${REFUND_REASON_MAX} characters`)
  .refine(isMultiLine, multiLineMessage('The reason'));

/**
 * POST /api/uc/v1/account/order/refund — the seller of the order's collection refunds a paid order in
 * full (product §25). Answers the refunded order; an order already refunded is answered unchanged.
 */
export const OrderRefundRequestSchema = z.object({ order_id: IdSchema, reason: RefundReasonSchema.optional() });
export const OrderRefundDataSchema = OrderSchema;

/**
 * POST /api/uc/v1/account/order/refund/request — the buyer asks for a refund (product §25): refunded at
 * once within REFUND_WINDOW_DAYS of payment when nothing was downloaded under the order, else stored
 * for the seller (the order keeps its status and carries `refund_request`).
 */
export const OrderRefundRequestRequestSchema = z.object({ order_id: IdSchema, reason: RefundReasonSchema });
export const OrderRefundRequestDataSchema = OrderSchema;

/** Longest text a buyer may add to a "This wasn't me" report. */
export const ORDER_REPORT_DETAILS_MAX = 1000;
/**
 * POST /api/uc/v1/account/order/report — the buyer reports a paid order as not made by them while
 * its proceeds are pending (product.md "This wasn't me"): clearing stops until an operator reverses
 * the sale or dismisses the report (`npm run admin -- disputes`).
 */
export const OrderReportRequestSchema = z.object({
  order_id: IdSchema,
  details: z
    .string()
    .trim()
    .max(ORDER_REPORT_DETAILS_MAX, `Details must be at most ${ORDER_REPORT_DETAILS_MAX} characters`)
    .refine(isMultiLine, multiLineMessage('Details'))
    .default(''),
});
export const OrderReportDataSchema = OrderSchema;

/** An order of one of the seller's collections, with its buyer's nickname (product §25). */
export const SaleOrderSchema = OrderSchema.extend({
  buyer: z.object({ id: z.string(), nickname: z.string() }),
});
export type SaleOrder = z.infer<typeof SaleOrderSchema>;

/** POST /sl/v1/my/sales — orders of the caller's collections (paid and refunded), newest first. */
export const MySalesRequestSchema = z.object({
  paginator: paginatorSchema(COLLECTIONS_PAGE_SIZE),
  /** Only paid orders with a refund request waiting. */
  pending_requests: z.boolean().default(false),
});
export const MySalesDataSchema = pageOf('orders', SaleOrderSchema);
export type SalesPage = z.infer<typeof MySalesDataSchema>;

/**
 * POST /sl/v1/collection/download/all — owner or buyer (paid, not refunded) only: a short-lived signed
 * URL of a GET that streams a ZIP of every file of the collection with `manifest.json` (name, size in
 * bytes, MD5 of each file). Counts as a download of every file (product §25).
 */
export const CollectionDownloadAllRequestSchema = CollectionIdRequestSchema;
export const CollectionDownloadAllDataSchema = z.object({
  url: z.string(),
  /** Milliseconds since the epoch. */
  expires_at: z.number(),
  /** The archive's file name, e.g. `Brushes.zip`. */
  file_name: z.string(),
});

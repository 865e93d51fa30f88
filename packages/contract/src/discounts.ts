/**
 * Discount codes and licence keys (product §28, docs/decisions/0030-discount-codes-and-licence-keys.md).
 *
 * Units: prices, discounts and fixed code values are whole points; times are milliseconds since the
 * epoch. A percent code takes floor(list price × percent / 100) off (the discount is rounded down, so
 * the buyer never gets more off than the code says); a fixed code takes min(value, list price) off; a
 * price never goes below 0 (a 0-point order is allowed, like a free collection).
 */
import { z } from 'zod';
import { IdSchema, isOneLine, oneLineMessage, pageOf, paginatorSchema } from './common';
import { COLLECTIONS_PAGE_SIZE } from './constants';

/** Longest discount code, characters. */
export const DISCOUNT_CODE_MAX = 32;
/** Highest activation limit of a licence key. */
export const LICENCE_MAX_ACTIVATIONS = 1_000;
/** Longest licence instance name (a machine id, a host name...), characters. */
export const LICENCE_INSTANCE_MAX = 200;

export const DiscountKind = { Percent: 'percent', Fixed: 'fixed' } as const;
export type DiscountKind = (typeof DiscountKind)[keyof typeof DiscountKind];

/**
 * What a code takes off `listPrice` (whole points), and what is left to pay.
 * Percent: floor(listPrice × value / 100); fixed: min(value, listPrice). Never below 0.
 */
export function applyDiscount(listPrice: number, kind: DiscountKind, value: number): { discount: number; amount: number } {
  const raw = kind === DiscountKind.Percent ? Math.floor((listPrice * value) / 100) : value;
  const discount = Math.max(0, Math.min(listPrice, raw));
  return { discount, amount: listPrice - discount };
}

/** A code as typed: trimmed, letters, digits, '-' and '_'; compared upper-case. */
export const DiscountCodeStringSchema = z
  .string({ error: 'Please enter a code' })
  .trim()
  .min(1, 'Please enter a code')
  .max(DISCOUNT_CODE_MAX, `A code has at most ${DISCOUNT_CODE_MAX} characters`)
  .regex(/^[A-Za-z0-9_-]+$/, 'A code may use letters, digits, - and _ only')
  .transform((s) => s.toUpperCase());

/** A discount code as its seller sees it. */
export const DiscountCodeSchema = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum([DiscountKind.Percent, DiscountKind.Fixed]),
  /** Percent (1-100) or whole points off. */
  value: z.number().int(),
  /** Null: every collection of the seller. */
  collection_id: z.string().nullable(),
  /** Milliseconds; null: never expires. */
  expires_at: z.number().nullable(),
  /** Null: no limit. */
  max_uses: z.number().int().nullable(),
  /** Paid orders that used it. */
  uses: z.number().int(),
  once_per_buyer: z.boolean(),
  /** False once disabled, expired or used up. */
  active: z.boolean(),
  disabled_at: z.number().nullable(),
  created_at: z.number(),
});
export type DiscountCode = z.infer<typeof DiscountCodeSchema>;

const optionalInt = (msg: string, min: number, max: number) =>
  z.preprocess(
    (v) => (v === '' ? null : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error: msg }).int(msg).min(min, msg).max(max, msg).nullable().optional(),
  );

/** POST /sl/v1/discount/create — a seller's new code. */
export const DiscountCreateRequestSchema = z
  .object({
    code: DiscountCodeStringSchema,
    kind: z.enum([DiscountKind.Percent, DiscountKind.Fixed], { error: 'kind must be percent or fixed' }),
    value: z.preprocess(
      (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
      z
        .number({ error: 'Please enter a whole number' })
        .int('Please enter a whole number')
        .min(1, 'The discount must be at least 1'),
    ),
    /** Omitted or null: every collection of the caller. */
    collection_id: IdSchema.nullable().optional(),
    /** Milliseconds; omitted or null: never expires. */
    expires_at: z.number({ error: 'expires_at must be a time in milliseconds' }).int().min(0).nullable().optional(),
    max_uses: optionalInt('Total uses must be a whole number from 1 to 1000000', 1, 1_000_000),
    once_per_buyer: z.boolean().default(false),
  })
  .refine((b) => b.kind !== DiscountKind.Percent || b.value <= 100, {
    message: 'A percent discount is at most 100',
    path: ['value'],
  });
export type DiscountCreateRequest = z.infer<typeof DiscountCreateRequestSchema>;
export const DiscountCreateDataSchema = DiscountCodeSchema;

/** POST /sl/v1/discount/list — the caller's codes, newest first. */
export const DiscountListRequestSchema = z.object({ paginator: paginatorSchema(COLLECTIONS_PAGE_SIZE) });
export const DiscountListDataSchema = pageOf('codes', DiscountCodeSchema);

/** POST /sl/v1/discount/disable — the code is refused from now on (idempotent). */
export const DiscountDisableRequestSchema = z.object({ discount_id: IdSchema });
export const DiscountDisableDataSchema = DiscountCodeSchema;

/** POST /sl/v1/discount/preview — what a code takes off a collection (the buy dialog, `?code=` links). */
export const DiscountPreviewRequestSchema = z.object({ collection_id: IdSchema, code: DiscountCodeStringSchema });
export const DiscountPreviewDataSchema = z.object({
  code: z.string(),
  /** Whole points. */
  list_price: z.number().int(),
  discount: z.number().int(),
  /** What the buyer pays: list_price - discount. */
  amount: z.number().int(),
});

/** A collection's licence keys settings. */
export const LicenceSettingsSchema = z.object({
  collection_id: z.string(),
  enabled: z.boolean(),
  /** Distinct instances one key may activate; null: no limit. */
  max_activations: z.number().int().nullable(),
});
export type LicenceSettings = z.infer<typeof LicenceSettingsSchema>;

/** POST /sl/v1/licence/settings/get — the owner reads a collection's licence settings. */
export const LicenceSettingsGetRequestSchema = z.object({ collection_id: IdSchema });
export const LicenceSettingsGetDataSchema = LicenceSettingsSchema;

/** POST /sl/v1/licence/settings — the owner turns keys on or off and sets the activation limit. */
export const LicenceSettingsSetRequestSchema = z.object({
  collection_id: IdSchema,
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  max_activations: optionalInt(
    `The activation limit must be a whole number from 1 to ${LICENCE_MAX_ACTIVATIONS}`,
    1,
    LICENCE_MAX_ACTIVATIONS,
  ),
});
export const LicenceSettingsSetDataSchema = LicenceSettingsSchema;

export const LICENCE_INVALID_REASONS = ['not_found', 'revoked', 'activation_limit'] as const;

/** POST /sl/v1/licence/validate — public, rate limited per IP: is this key valid (and activate `instance`). */
export const LicenceValidateRequestSchema = z.object({
  key: z
    .string({ error: 'key is required' })
    .trim()
    .min(1, 'key is required')
    .max(64, 'key is too long')
    .transform((s) => s.toUpperCase()),
  /** A distinct machine or installation; activating the same instance again counts once. */
  instance: z
    .string()
    .trim()
    .min(1, 'instance is empty')
    .max(LICENCE_INSTANCE_MAX, 'instance is too long')
    .refine(isOneLine, oneLineMessage('instance'))
    .optional(),
});
export const LicenceValidateDataSchema = z.object({
  valid: z.boolean(),
  reason: z.enum(LICENCE_INVALID_REASONS).optional(),
  /** Null when the key does not exist. */
  collection_id: z.string().nullable(),
  /** Distinct instances activated. */
  activations: z.number().int(),
  max_activations: z.number().int().nullable(),
});
export type LicenceValidateData = z.infer<typeof LicenceValidateDataSchema>;

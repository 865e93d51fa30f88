/**
 * Proof of liabilities (docs/product.md §22, docs/decisions/0024-proof-of-liabilities.md): the
 * latest publication of the Merkle sum tree over every user's balance, the reserves read from the
 * chain at that moment, and a signed-in user's inclusion proof. The tree code itself is
 * `merkle-sum.ts` (zod-free, verified in the browser).
 */
import { z } from 'zod';
import { EmptyRequestSchema } from './common';

/** 64 lower-case hex characters (a SHA-256 hash or a 32-byte salt). */
const Hex32Schema = z.string().regex(/^[0-9a-f]{64}$/);
/** Points, 2 decimals, as a string. */
const PointsSchema = z.string();

/** One configured reserve address and what `reserves:publish` read there. */
export const ReserveBalanceSchema = z.object({
  /** Network code, upper case, e.g. `ETH`, `BSC`. */
  network: z.string(),
  /** Currency code of the rail, e.g. `usdterc20`. */
  currency: z.string(),
  address: z.string(),
  /** Whole units of the currency read at `read_at`; null when the read failed. */
  balance: z.string().nullable(),
  /** USD value (2 decimals) at the rail's price; null when the read failed. */
  balance_usd: z.string().nullable(),
  /** Milliseconds since the epoch. */
  read_at: z.number(),
  /** Why the read failed, when it did. */
  error: z.string().nullable(),
});
export type ReserveBalance = z.infer<typeof ReserveBalanceSchema>;

/** A publication: the root and total of the tree, and the reserves next to it. */
export const PublicationSchema = z.object({
  id: z.string(),
  root_hash: Hex32Schema,
  /** Total liabilities: the sum of every user's available + frozen points at one instant. */
  total: PointsSchema,
  user_count: z.number().int(),
  /** Milliseconds since the epoch. */
  published_at: z.number(),
  reserves: z.array(ReserveBalanceSchema),
  /** Sum of the reserves' USD values (2 decimals). */
  reserves_usd: z.string(),
  /** The same in points at the publication's points-per-USD rate. */
  reserves_points: PointsSchema,
});
export type Publication = z.infer<typeof PublicationSchema>;

/** POST /api/uc/v1/reserves/latest (public). */
export const ReservesLatestRequestSchema = EmptyRequestSchema;
/** The latest publication, or null when nothing has been published yet. */
export const ReservesLatestDataSchema = z.object({ publication: PublicationSchema.nullable() });
export type ReservesLatestData = z.infer<typeof ReservesLatestDataSchema>;

/** POST /api/uc/v1/reserves/proof (signed in): the caller's proof in the latest publication. */
export const ReservesProofRequestSchema = EmptyRequestSchema;
/** One share of the caller's balance: a leaf of the tree (position, salt, amount) and its sibling path. */
export const ReserveShareSchema = z.object({
  index: z.number().int().min(0),
  salt: Hex32Schema,
  balance: PointsSchema,
  /** Sibling hash and sum per level, leaf level first. */
  path: z.array(z.object({ hash: Hex32Schema, sum: PointsSchema })),
});
export const ReservesProofDataSchema = z.object({
  publication_id: z.string(),
  root_hash: Hex32Schema,
  total: PointsSchema,
  user_id: z.string(),
  /** The caller's balance at publication: the sum of `shares` (docs/decisions/0048-private-liability-proofs.md). */
  balance: PointsSchema,
  /** The caller's balance split into random shares at shuffled leaves; each must lead to the root. */
  shares: z.array(ReserveShareSchema).min(1),
});
export type ReservesProofData = z.infer<typeof ReservesProofDataSchema>;

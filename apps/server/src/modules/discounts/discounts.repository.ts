/** Persistence of discount codes (product §28). Only the discounts service calls this. */
import { and, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { discountBuyerUses, discountCodes } from '../../db/schema/index';

export type DiscountCodeRow = typeof discountCodes.$inferSelect;

/** Inserts the code; @returns null when the seller already has that code (unique per seller). */
export async function insert(db: DbOrTx, row: typeof discountCodes.$inferInsert): Promise<DiscountCodeRow | null> {
  const [inserted] = await db
    .insert(discountCodes)
    .values(row)
    .onConflictDoNothing({ target: [discountCodes.sellerId, discountCodes.code] })
    .returning();
  return inserted ?? null;
}

export async function findById(db: DbOrTx, id: string): Promise<DiscountCodeRow | null> {
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.id, id));
  return row ?? null;
}

export async function findByCode(db: DbOrTx, sellerId: string, code: string): Promise<DiscountCodeRow | null> {
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(and(eq(discountCodes.sellerId, sellerId), eq(discountCodes.code, code)));
  return row ?? null;
}

export async function pageOfSeller(db: DbOrTx, sellerId: string, offset: number, limit: number) {
  const where = eq(discountCodes.sellerId, sellerId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(discountCodes)
      .where(where)
      .orderBy(desc(discountCodes.createdAt), desc(discountCodes.id))
      .offset(offset)
      .limit(limit),
    db.select({ n: count() }).from(discountCodes).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function disable(db: DbOrTx, id: string, at: Date): Promise<DiscountCodeRow | null> {
  const [row] = await db
    .update(discountCodes)
    .set({ disabledAt: sql`coalesce(${discountCodes.disabledAt}, ${at.toISOString()}::timestamptz)` })
    .where(eq(discountCodes.id, id))
    .returning();
  return row ?? null;
}

export async function hasBuyerUse(db: DbOrTx, codeId: string, buyerId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(discountBuyerUses)
    .where(and(eq(discountBuyerUses.codeId, codeId), eq(discountBuyerUses.buyerId, buyerId)))
    .limit(1);
  return !!row;
}

/**
 * Counts one use of the code, only while it is usable at `now` (not disabled, not expired, below
 * max_uses): the guard of the UPDATE is the limit, so concurrent payments never exceed it.
 * @returns the code's once-per-buyer flag when the use was counted, null when it was not
 */
export async function claimUse(db: DbOrTx, codeId: string, now: Date): Promise<{ oncePerBuyer: boolean } | null> {
  const rows = await db
    .update(discountCodes)
    .set({ uses: sql`${discountCodes.uses} + 1` })
    .where(
      and(
        eq(discountCodes.id, codeId),
        isNull(discountCodes.disabledAt),
        or(isNull(discountCodes.expiresAt), gt(discountCodes.expiresAt, now)),
        or(isNull(discountCodes.maxUses), lt(discountCodes.uses, discountCodes.maxUses)),
      ),
    )
    .returning({ oncePerBuyer: discountCodes.oncePerBuyer });
  return rows[0] ?? null;
}

/** Gives back a use counted by {@link claimUse} in the same transaction (the purchase did not go through). */
export async function releaseUse(db: DbOrTx, codeId: string): Promise<void> {
  await db
    .update(discountCodes)
    .set({ uses: sql`${discountCodes.uses} - 1` })
    .where(and(eq(discountCodes.id, codeId), gt(discountCodes.uses, 0)));
}

/** Records the buyer's one use of a once-per-buyer code; @returns false when they used it before. */
export async function claimBuyerUse(db: DbOrTx, codeId: string, buyerId: string, orderId: string): Promise<boolean> {
  const rows = await db.insert(discountBuyerUses).values({ codeId, buyerId, orderId }).onConflictDoNothing().returning();
  return rows.length > 0;
}

export async function releaseBuyerUse(db: DbOrTx, codeId: string, buyerId: string): Promise<void> {
  await db.delete(discountBuyerUses).where(and(eq(discountBuyerUses.codeId, codeId), eq(discountBuyerUses.buyerId, buyerId)));
}

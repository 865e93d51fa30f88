/** Persistence of reviews (product §29). Only the reviews service calls this. */
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { reviews, users } from '../../db/schema/index';

export type ReviewRow = typeof reviews.$inferSelect;
export interface ReviewWithAuthor {
  r: ReviewRow;
  author: { id: string; nickname: string; avatar: string };
}

const authorColumns = { id: users.id, nickname: users.nickname, avatar: users.avatar };

/** Inserts the review unless the buyer has one for the collection. @returns the new row, or null */
export async function insertIfAbsent(db: DbOrTx, row: typeof reviews.$inferInsert): Promise<ReviewRow | null> {
  const [out] = await db.insert(reviews).values(row).onConflictDoNothing().returning();
  return out ?? null;
}

/** The buyer's review of the collection, locked for the rest of the transaction, or null. */
export async function lockOfBuyer(db: DbOrTx, buyerId: string, collectionId: string): Promise<ReviewRow | null> {
  const [row] = await db
    .select()
    .from(reviews)
    .where(and(eq(reviews.buyerId, buyerId), eq(reviews.collectionId, collectionId)))
    .for('update');
  return row ?? null;
}

export async function lockById(db: DbOrTx, id: string): Promise<ReviewRow | null> {
  const [row] = await db.select().from(reviews).where(eq(reviews.id, id)).for('update');
  return row ?? null;
}

export async function patch(db: DbOrTx, id: string, patch: Partial<ReviewRow>): Promise<ReviewRow> {
  const [row] = await db.update(reviews).set(patch).where(eq(reviews.id, id)).returning();
  return row!;
}

export async function remove(db: DbOrTx, id: string): Promise<void> {
  await db.delete(reviews).where(eq(reviews.id, id));
}

/**
 * Marks the buyer's review of the collection refunded (when it is not already). @returns the row as it
 * was before (its rating leaves the average), or null when there was nothing to mark
 */
export async function markRefunded(db: DbOrTx, buyerId: string, collectionId: string, at: Date): Promise<ReviewRow | null> {
  const [row] = await db
    .update(reviews)
    .set({ refundedAt: at })
    .where(and(eq(reviews.buyerId, buyerId), eq(reviews.collectionId, collectionId), isNull(reviews.refundedAt)))
    .returning();
  return row ?? null;
}

export async function findWithAuthor(db: DbOrTx, id: string): Promise<ReviewWithAuthor | null> {
  const [row] = await db
    .select({ r: reviews, author: authorColumns })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.buyerId))
    .where(eq(reviews.id, id));
  return row ?? null;
}

export async function findOfBuyer(db: DbOrTx, buyerId: string, collectionId: string): Promise<ReviewWithAuthor | null> {
  const [row] = await db
    .select({ r: reviews, author: authorColumns })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.buyerId))
    .where(and(eq(reviews.buyerId, buyerId), eq(reviews.collectionId, collectionId)));
  return row ?? null;
}

/** The collection's counted (not refunded) reviews, newest first (ties: id), with the total. */
export async function pageOfCollection(db: DbOrTx, collectionId: string, offset: number, limit: number) {
  const where = and(eq(reviews.collectionId, collectionId), isNull(reviews.refundedAt));
  const [rows, [total]] = await Promise.all([
    db
      .select({ r: reviews, author: authorColumns })
      .from(reviews)
      .innerJoin(users, eq(users.id, reviews.buyerId))
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .offset(offset)
      .limit(limit),
    db.select({ n: count() }).from(reviews).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

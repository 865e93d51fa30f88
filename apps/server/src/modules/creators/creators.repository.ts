/** Persistence of the public creator page. Only the creators service calls this. */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { collections, users } from '../../db/schema/index';

/** The public columns of a creator. */
export interface CreatorRow {
  id: string;
  username: string;
  nickname: string;
  /** The stored avatar value ('' without one); the service turns it into a URL. */
  avatar: string;
  createdAt: Date;
}

/**
 * The user `userId` when the public may see their page: the account exists, is not deleted and is
 * not suspended (product §27). @returns the public columns, or null
 */
export async function findListableCreator(db: DbOrTx, userId: string): Promise<CreatorRow | null> {
  const [row] = await db
    .select({ id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar, createdAt: users.createdAt })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt), isNull(users.suspendedAt)));
  return row ?? null;
}

/**
 * The rating totals over every collection `ownerId` owns, whatever its status: the sums of the
 * collections' `rating_sum` (whole stars) and `rating_count` (counted reviews; refunded ones are
 * already left out of both on each row, product §29).
 */
export async function ratingTotalsOf(db: DbOrTx, ownerId: string): Promise<{ sum: number; count: number }> {
  const [row] = await db
    .select({
      sum: sql<string>`coalesce(sum(${collections.ratingSum}), 0)::text`,
      count: sql<string>`coalesce(sum(${collections.ratingCount}), 0)::text`,
    })
    .from(collections)
    .where(eq(collections.ownerId, ownerId));
  return { sum: Number(row?.sum ?? 0), count: Number(row?.count ?? 0) };
}

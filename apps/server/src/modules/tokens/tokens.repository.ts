/**
 * The access_tokens table (ADR 0058). Only the tokens service calls this. `findLive` joins the
 * owner's row of `users` (eslint.config.js FOREIGN_TABLE_READS says why it stays a join).
 */
import { and, count, desc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accessTokens, users } from '../../db/schema/index';

export type AccessTokenRow = typeof accessTokens.$inferSelect;

export async function insertToken(db: DbOrTx, row: typeof accessTokens.$inferInsert): Promise<AccessTokenRow> {
  const [out] = await db.insert(accessTokens).values(row).returning();
  return out!;
}

/** Live (neither revoked nor expired at `now`) tokens of a user. */
export async function countLive(db: DbOrTx, userId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(accessTokens)
    .where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt), gt(accessTokens.expiresAt, now)));
  return Number(row?.n ?? 0);
}

/** The user's live tokens, newest first. */
export async function listLive(db: DbOrTx, userId: string, now: Date): Promise<AccessTokenRow[]> {
  return db
    .select()
    .from(accessTokens)
    .where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt), gt(accessTokens.expiresAt, now)))
    .orderBy(desc(accessTokens.createdAt), desc(accessTokens.id));
}

/** Revokes one of the user's live tokens; @returns false when there is none by that id (or it is another user's). */
export async function revoke(db: DbOrTx, userId: string, tokenId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(accessTokens)
    .set({ revokedAt: now })
    .where(and(eq(accessTokens.id, tokenId), eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)))
    .returning({ id: accessTokens.id });
  return rows.length > 0;
}

/**
 * The live token of a hash whose user is neither suspended nor deleted, or null. One indexed read
 * (access_tokens_token_hash_uq) joined to the user's row.
 */
export async function findLive(
  db: DbOrTx,
  tokenHash: string,
  now: Date,
): Promise<Pick<AccessTokenRow, 'id' | 'userId' | 'scopes' | 'expiresAt' | 'lastUsedAt'> | null> {
  const [row] = await db
    .select({
      id: accessTokens.id,
      userId: accessTokens.userId,
      scopes: accessTokens.scopes,
      expiresAt: accessTokens.expiresAt,
      lastUsedAt: accessTokens.lastUsedAt,
    })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(
      and(
        eq(accessTokens.tokenHash, tokenHash),
        isNull(accessTokens.revokedAt),
        gt(accessTokens.expiresAt, now),
        isNull(users.suspendedAt),
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Sets `last_used_at = now` unless another instance did since `before` (at most one write a minute). */
export async function touch(db: DbOrTx, tokenId: string, now: Date, before: Date): Promise<void> {
  await db
    .update(accessTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(accessTokens.id, tokenId), or(isNull(accessTokens.lastUsedAt), lt(accessTokens.lastUsedAt, before))));
}

/**
 * The `idempotency_keys` table (src/db/schema/idempotency.ts). Only the idempotency service calls this.
 * Every write is one statement, so two instances racing for a key see one winner.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';

export type KeyRow = typeof idempotencyKeys.$inferSelect;

/** Inserts the claim unless the (user, key) row exists. @returns true when this call inserted it */
export async function insertClaim(
  db: DbOrTx,
  row: { userId: string; key: string; operation: string; fingerprint: string; now: Date; expiresAt: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(idempotencyKeys)
    .values({
      userId: row.userId,
      key: row.key,
      operation: row.operation,
      fingerprint: row.fingerprint,
      lockedAt: row.now,
      createdAt: row.now,
      expiresAt: row.expiresAt,
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return inserted.length === 1;
}

/** The (user, key) row, or undefined. */
export async function find(db: DbOrTx, userId: string, key: string): Promise<KeyRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  return row;
}

/**
 * Claims a row seen as `seen` again (an expired row for a new request, or a claim whose request
 * stopped answering): succeeds only when the row is still exactly what was read (compare-and-set on
 * `expires_at` and `locked_at`). @returns true when this call took it
 */
export async function reclaim(
  db: DbOrTx,
  seen: KeyRow,
  next: { operation: string; fingerprint: string; now: Date; expiresAt: Date; fresh: boolean },
): Promise<boolean> {
  const sameLock = seen.lockedAt === null ? isNull(idempotencyKeys.lockedAt) : eq(idempotencyKeys.lockedAt, seen.lockedAt);
  const taken = await db
    .update(idempotencyKeys)
    .set({
      operation: next.operation,
      fingerprint: next.fingerprint,
      lockedAt: next.now,
      ...(next.fresh ? { status: null, response: null, createdAt: next.now, expiresAt: next.expiresAt } : {}),
    })
    .where(
      and(
        eq(idempotencyKeys.userId, seen.userId),
        eq(idempotencyKeys.key, seen.key),
        eq(idempotencyKeys.expiresAt, seen.expiresAt),
        sameLock,
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return taken.length === 1;
}

/** Stores the answer of the claim made at `lockedAt` (nothing when the claim was taken over since). */
export async function complete(db: DbOrTx, userId: string, key: string, lockedAt: Date, status: number, response: string): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status, response, lockedAt: null })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.lockedAt, lockedAt)));
}

/** Deletes the claim made at `lockedAt` while it holds no answer (nothing when taken over since). */
export async function release(db: DbOrTx, userId: string, key: string, lockedAt: Date): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.lockedAt, lockedAt),
        isNull(idempotencyKeys.status),
      ),
    );
}

/** Deletes up to `limit` rows expired at `now` (by the expires_at index). @returns how many */
export async function purgeExpired(db: DbOrTx, now: Date, limit: number): Promise<number> {
  const res = (await db.execute(sql`delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where expires_at <= ${now.toISOString()}::timestamptz limit ${limit})`)) as unknown as {
    rowCount?: number | null;
    affectedRows?: number;
  };
  return Number(res.rowCount ?? res.affectedRows ?? 0);
}


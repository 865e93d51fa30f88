/** Users, sessions and reset codes in the database. Only the account module's services call this. */
import { and, desc, eq, gte, isNull, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { run, statement } from '../../db/raw';
import { resetCodes, sessions, users } from '../../db/schema/index';

export type UserRow = typeof users.$inferSelect;
export type ResetCodeRow = typeof resetCodes.$inferSelect;

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

/**
 * Locks the user's row (`FOR NO KEY UPDATE`) until `tx` ends.
 * @returns false when there is no such user (deleted users included: the row stays)
 */
export async function lockUser(tx: Tx, id: string): Promise<boolean> {
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('no key update');
  return Boolean(row);
}

/** The email of the user for a notice, or null when the account is deleted (or never existed). */
export async function liveEmail(db: DbOrTx, id: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email, deletedAt: users.deletedAt }).from(users).where(eq(users.id, id));
  return row && !row.deletedAt ? row.email : null;
}

const userByIdStatements = new WeakMap<Db, ReturnType<typeof prepareUserById>>();
const prepareUserById = (db: Db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('account_user_by_id');

/**
 * {@link findUserById} outside a transaction (get/me) as a prepared statement: the SQL is built once
 * per database handle and, on PostgreSQL, parsed and planned once per pooled connection.
 */
export async function findUserByIdPrepared(db: Db, id: string): Promise<UserRow | null> {
  let statement = userByIdStatements.get(db);
  if (!statement) userByIdStatements.set(db, (statement = prepareUserById(db)));
  const [row] = await statement.execute({ id });
  return row ?? null;
}

/** A live (not deleted) user by username (case-insensitive) or email. */
export async function findLiveUserByAccount(db: DbOrTx, account: string): Promise<UserRow | null> {
  const lower = account.toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(and(isNull(users.deletedAt), or(eq(sql`lower(${users.username})`, lower), eq(users.email, lower))))
    .limit(1);
  return row ?? null;
}

/** The public columns of a user (a creator page's `creator`). */
export interface PublicUserRow {
  id: string;
  username: string;
  nickname: string;
  /** The stored avatar value ('' without one); the service turns it into a URL. */
  avatar: string;
  createdAt: Date;
}

/**
 * The user `userId` when the public may see their creator page: the account exists, is not deleted
 * and is not suspended (product §27). @returns the public columns, or null
 */
export async function findListableUser(db: DbOrTx, userId: string): Promise<PublicUserRow | null> {
  const [row] = await db
    .select({ id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar, createdAt: users.createdAt })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt), isNull(users.suspendedAt)));
  return row ?? null;
}

export async function findLiveUserByEmail(db: DbOrTx, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(isNull(users.deletedAt), eq(users.email, email.toLowerCase())))
    .limit(1);
  return row ?? null;
}

export async function insertUser(db: DbOrTx, row: typeof users.$inferInsert): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  if (!created) throw new Error('insert user returned nothing');
  return created;
}

export async function updateUser(db: DbOrTx, id: string, patch: Partial<typeof users.$inferInsert>): Promise<UserRow | null> {
  const [row] = await db.update(users).set(patch).where(eq(users.id, id)).returning();
  return row ?? null;
}

/**
 * Whether a session of `userId` was opened from `address` at or after `since` (a known address of
 * login-guard.ts). Read through `sessions_user_idx`; asked only of slowed accounts.
 */
export async function hasSessionFrom(db: DbOrTx, userId: string, address: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.address, address), gte(sessions.createdAt, since)))
    .limit(1);
  return Boolean(row);
}

export async function insertSession(db: DbOrTx, row: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(row);
}

/** The live session (not revoked, not expired at `now`) of a token hash, or null. */
export async function findLiveSession(
  db: DbOrTx,
  tokenHash: string,
  now: Date,
): Promise<{ sessionId: string; userId: string; expiresAt: Date; lastSeenAt: Date | null; steppedUpAt: Date | null } | null> {
  const { rows } = await run<{
    session_id: string;
    user_id: string;
    expires_at: Date;
    last_seen_at: Date | null;
    stepped_up_at: Date | null;
  }>(db, findLiveSessionSql, [tokenHash, now]);
  const row = rows[0];
  return row
    ? {
        sessionId: row.session_id,
        userId: row.user_id,
        expiresAt: row.expires_at,
        lastSeenAt: row.last_seen_at,
        steppedUpAt: row.stepped_up_at,
      }
    : null;
}

/** Records a step-up (product.md "Step-up") on a live session. */
export async function markSteppedUp(db: DbOrTx, sessionId: string, at: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ steppedUpAt: at })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Every signed-in request whose session is not cached reads this (a prepared statement). */
const findLiveSessionSql = statement(
  'sessions_find_live',
  `select id as session_id, user_id, expires_at, last_seen_at, stepped_up_at from sessions
   where token_hash = $1 and revoked_at is null and expires_at > $2::timestamptz`,
);

export async function revokeSession(db: DbOrTx, sessionId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Revokes every live session of the user. @returns how many were revoked */
export async function revokeAllSessions(db: DbOrTx, userId: string, now: Date): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length;
}

/** Marks every unused reset code of the user as used (a new code replaces them). */
export async function retireResetCodes(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(resetCodes)
    .set({ usedAt: now })
    .where(and(eq(resetCodes.userId, userId), isNull(resetCodes.usedAt)));
}

export async function insertResetCode(db: DbOrTx, row: typeof resetCodes.$inferInsert): Promise<void> {
  await db.insert(resetCodes).values(row);
}

/** The user's newest unused reset code, locked for the rest of the transaction (tries are counted under the lock). */
export async function lockLatestResetCode(tx: Tx, userId: string): Promise<ResetCodeRow | null> {
  const [row] = await tx
    .select()
    .from(resetCodes)
    .where(and(eq(resetCodes.userId, userId), isNull(resetCodes.usedAt)))
    .orderBy(desc(resetCodes.createdAt), desc(resetCodes.id))
    .limit(1)
    .for('update');
  return row ?? null;
}

export async function updateResetCode(db: DbOrTx, id: string, patch: { tries?: number; usedAt?: Date }): Promise<void> {
  await db.update(resetCodes).set(patch).where(eq(resetCodes.id, id));
}

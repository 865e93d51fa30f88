/** Two-factor state, recovery codes, login challenges, known devices and session listing (product §26). Only the account module's services call this. */
import { and, count, desc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { knownDevices, loginChallenges, recoveryCodes, sessions, twoFactor } from '../../db/schema/index';

export type TwoFactorRow = typeof twoFactor.$inferSelect;
export type ChallengeRow = typeof loginChallenges.$inferSelect;

export async function findTwoFactor(db: DbOrTx, userId: string): Promise<TwoFactorRow | null> {
  const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, userId));
  return row ?? null;
}

/** Stores a new, not yet enabled secret (replaces an earlier unfinished setup). */
export async function savePendingSecret(db: DbOrTx, userId: string, secretSealed: string, now: Date): Promise<void> {
  await db
    .insert(twoFactor)
    .values({ userId, secretSealed, createdAt: now })
    .onConflictDoUpdate({ target: twoFactor.userId, set: { secretSealed, enabledAt: null, lastStep: null, createdAt: now } });
}

/** Turns two-factor on, remembering `step` as used; false when it was on already. */
export async function enableTwoFactor(db: DbOrTx, userId: string, step: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(twoFactor)
    .set({ enabledAt: now, lastStep: step })
    .where(and(eq(twoFactor.userId, userId), isNull(twoFactor.enabledAt)))
    .returning({ userId: twoFactor.userId });
  return rows.length > 0;
}

/** Records `step` as used when it is later than the last one; false for a replayed (or older) step. */
export async function advanceStep(db: DbOrTx, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(twoFactor)
    .set({ lastStep: step })
    .where(and(eq(twoFactor.userId, userId), or(isNull(twoFactor.lastStep), lt(twoFactor.lastStep, step))))
    .returning({ userId: twoFactor.userId });
  return rows.length > 0;
}

/** Removes the user's two-factor state and recovery codes. */
export async function deleteTwoFactor(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.delete(twoFactor).where(eq(twoFactor.userId, userId));
}

export async function replaceRecoveryCodes(db: DbOrTx, userId: string, rows: { id: string; codeHash: string }[]): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (rows.length) await db.insert(recoveryCodes).values(rows.map((r) => ({ ...r, userId })));
}

/** Marks the unused recovery code of `codeHash` used; false when there is none (wrong or used). */
export async function useRecoveryCode(db: DbOrTx, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function countRecoveryCodesLeft(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

export async function insertChallenge(db: DbOrTx, row: typeof loginChallenges.$inferInsert): Promise<void> {
  await db.insert(loginChallenges).values(row);
}

/** The unused, unexpired challenge of a token hash, or null. */
export async function findLiveChallenge(db: DbOrTx, tokenHash: string, now: Date): Promise<ChallengeRow | null> {
  const [row] = await db
    .select()
    .from(loginChallenges)
    .where(and(eq(loginChallenges.tokenHash, tokenHash), isNull(loginChallenges.usedAt), gt(loginChallenges.expiresAt, now)));
  return row ?? null;
}

/** Spends a challenge; false when another call spent it first or it expired meanwhile. */
export async function consumeChallenge(db: DbOrTx, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(loginChallenges)
    .set({ usedAt: now })
    .where(and(eq(loginChallenges.id, id), isNull(loginChallenges.usedAt), gt(loginChallenges.expiresAt, now)))
    .returning({ id: loginChallenges.id });
  return rows.length > 0;
}

/** Drops challenges that expired more than a day before `now` (housekeeping on each new challenge). */
export async function pruneChallenges(db: DbOrTx, userId: string, before: Date): Promise<void> {
  await db.delete(loginChallenges).where(and(eq(loginChallenges.userId, userId), lt(loginChallenges.expiresAt, before)));
}

/** Remembers a device of the user; true when it was not known before. */
export async function rememberDevice(db: DbOrTx, userId: string, deviceKey: string, now: Date): Promise<boolean> {
  const rows = await db
    .insert(knownDevices)
    .values({ userId, deviceKey, createdAt: now })
    .onConflictDoNothing()
    .returning({ userId: knownDevices.userId });
  return rows.length > 0;
}

/** The user's live sessions, most recently seen first. */
export async function listLiveSessions(db: DbOrTx, userId: string, now: Date) {
  return db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      address: sessions.address,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sql`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt})`), desc(sessions.id))
    .limit(100);
}

/** Sets last seen to `now` unless it was set after `staleBefore` (one write a minute at most). */
export async function touchSession(db: DbOrTx, sessionId: string, now: Date, staleBefore: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.id, sessionId), or(isNull(sessions.lastSeenAt), lt(sessions.lastSeenAt, staleBefore))));
}

/** Revokes one live session of the user; false when the user has no such live session. */
export async function revokeOwnSession(db: DbOrTx, userId: string, sessionId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Revokes every live session of the user but `keepId`; the ids revoked. */
export async function revokeOtherSessions(db: DbOrTx, userId: string, keepId: string, now: Date): Promise<string[]> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

/**
 * Persistence of reports, the audit log and the suspension columns of users (product §27). Only the
 * moderation service calls this (and services.ts, for the suspension check it lends withdrawals).
 */
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accessTokens, auditLog, collections, reports, sessions, users } from '../../db/schema/index';

export type ReportRow = typeof reports.$inferSelect;
export type AuditRow = typeof auditLog.$inferSelect;

/** Inserts a report unless the reporter has an open one for the collection. @returns the new row, or null */
export async function insertReport(db: DbOrTx, row: typeof reports.$inferInsert): Promise<ReportRow | null> {
  const [out] = await db.insert(reports).values(row).onConflictDoNothing().returning();
  return out ?? null;
}

/** The reporter's open report of the collection, or null. */
export async function findOpenReport(db: DbOrTx, reporterId: string, collectionId: string): Promise<ReportRow | null> {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.reporterId, reporterId), eq(reports.collectionId, collectionId), eq(reports.status, 'open')));
  return row ?? null;
}

/** A report locked until the transaction ends, or null. */
export async function lockReport(db: DbOrTx, id: string): Promise<ReportRow | null> {
  const [row] = await db.select().from(reports).where(eq(reports.id, id)).for('update');
  return row ?? null;
}

/** Closes an open report (`resolved` or `dismissed`). @returns the row, or null when it was not open */
export async function closeReport(
  db: DbOrTx,
  id: string,
  status: 'resolved' | 'dismissed',
  by: string,
  at: Date,
): Promise<ReportRow | null> {
  const [row] = await db
    .update(reports)
    .set({ status, closedBy: by, closedAt: at })
    .where(and(eq(reports.id, id), eq(reports.status, 'open')))
    .returning();
  return row ?? null;
}

/** Reports with their collection's title and hidden flag and the reporter's username, newest first. */
export async function listReports(db: DbOrTx, opts: { all: boolean; limit: number }) {
  return db
    .select({
      report: reports,
      title: collections.title,
      hidden: sql<boolean>`${collections.hiddenAt} is not null`,
      reporter: users.username,
    })
    .from(reports)
    .innerJoin(collections, eq(collections.id, reports.collectionId))
    .innerJoin(users, eq(users.id, reports.reporterId))
    .where(opts.all ? undefined : eq(reports.status, 'open'))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(opts.limit);
}

export async function insertAudit(db: DbOrTx, row: typeof auditLog.$inferInsert): Promise<AuditRow> {
  const [out] = await db.insert(auditLog).values(row).returning();
  return out!;
}

/** The newest audit rows first. */
export async function listAudit(db: DbOrTx, limit: number): Promise<AuditRow[]> {
  return db.select().from(auditLog).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit);
}

export interface SuspensionColumns {
  id: string;
  username: string;
  suspendedAt: Date | null;
  suspendedReason: string | null;
}
const suspensionColumns = {
  id: users.id,
  username: users.username,
  suspendedAt: users.suspendedAt,
  suspendedReason: users.suspendedReason,
};

/** A live user by id, username (any case) or email, locked in `db` when it is a transaction. */
export async function lockUser(db: DbOrTx, account: string): Promise<SuspensionColumns | null> {
  const lower = account.toLowerCase();
  const [row] = await db
    .select(suspensionColumns)
    .from(users)
    .where(
      and(isNull(users.deletedAt), or(eq(users.id, account), eq(sql`lower(${users.username})`, lower), eq(users.email, lower))),
    )
    .limit(1)
    .for('no key update');
  return row ?? null;
}

/** A user's suspension columns by id, or null. */
export async function findSuspension(db: DbOrTx, userId: string): Promise<SuspensionColumns | null> {
  const [row] = await db.select(suspensionColumns).from(users).where(eq(users.id, userId));
  return row ?? null;
}

/** Sets (or clears, `null`) a user's suspension. */
export async function setSuspension(db: DbOrTx, userId: string, s: { at: Date; reason: string } | null): Promise<void> {
  await db
    .update(users)
    .set(s ? { suspendedAt: s.at, suspendedReason: s.reason } : { suspendedAt: null, suspendedReason: null })
    .where(eq(users.id, userId));
}

/** Revokes every live session of the user (a suspension signs them out everywhere). @returns how many */
/** Revokes every live personal access token of a user (a suspension, ADR 0058). @returns how many */
export async function revokeAccessTokens(db: DbOrTx, userId: string, at: Date): Promise<number> {
  const rows = await db
    .update(accessTokens)
    .set({ revokedAt: at })
    .where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)))
    .returning({ id: accessTokens.id });
  return rows.length;
}

export async function revokeSessions(db: DbOrTx, userId: string, at: Date): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length;
}

/** Proof-of-liabilities persistence: publications, leaves and tree nodes. Only the reserves service calls this. */
import { and, asc, desc, eq, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { reserveLeaves, reserveNodes, reservePublications } from '../../db/schema/index';

/** Rows per insert statement (5-8 parameters a row, far below PostgreSQL's 65,535). */
const CHUNK = 1_000;

export type PublicationRow = typeof reservePublications.$inferSelect;

export async function insertPublication(db: DbOrTx, row: typeof reservePublications.$inferInsert): Promise<void> {
  await db.insert(reservePublications).values(row);
}

/** Inserts the leaves in chunks. */
export async function insertLeaves(db: DbOrTx, rows: (typeof reserveLeaves.$inferInsert)[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await db.insert(reserveLeaves).values(rows.slice(i, i + CHUNK));
}

/** Inserts the nodes in chunks. */
export async function insertNodes(db: DbOrTx, rows: (typeof reserveNodes.$inferInsert)[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await db.insert(reserveNodes).values(rows.slice(i, i + CHUNK));
}

/** The newest publication (by time, then by id: UUIDv7 ids grow with time), or null. */
export async function latestPublication(db: DbOrTx): Promise<PublicationRow | null> {
  const [row] = await db
    .select()
    .from(reservePublications)
    .orderBy(desc(reservePublications.createdAt), desc(reservePublications.id))
    .limit(1);
  return row ?? null;
}

/** The user's leaves (the shares of their balance) in a publication, by position; none when the user is not in it. */
export async function findLeaves(db: DbOrTx, publicationId: string, userId: string) {
  return db
    .select()
    .from(reserveLeaves)
    .where(and(eq(reserveLeaves.publicationId, publicationId), eq(reserveLeaves.userId, userId)))
    .orderBy(asc(reserveLeaves.leafIndex));
}

/** The nodes at the given positions of a publication's tree (one read; any order). */
export async function nodesAt(db: DbOrTx, publicationId: string, positions: { level: number; index: number }[]) {
  if (!positions.length) return [];
  return db
    .select({ level: reserveNodes.level, index: reserveNodes.nodeIndex, hash: reserveNodes.hash, sum: reserveNodes.sum })
    .from(reserveNodes)
    .where(
      and(
        eq(reserveNodes.publicationId, publicationId),
        or(...positions.map((p) => and(eq(reserveNodes.level, p.level), eq(reserveNodes.nodeIndex, p.index)))),
      ),
    );
}

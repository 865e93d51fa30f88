/** Transaction records in the database. Only the records service calls this. */
import type { Direction, RecordStatus, RecordType } from '@coffer/contract';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { run, statement } from '../../db/raw';
import { records } from '../../db/schema/index';

export type RecordRow = typeof records.$inferSelect;

export interface RecordQuery {
  userId: string;
  /** Only this direction; all when undefined. */
  direction?: Direction;
  /** Only these statuses; all when empty. */
  statuses: RecordStatus[];
  /** Rows to skip and to return. */
  offset: number;
  limit: number;
}

function where(q: RecordQuery): SQL | undefined {
  const parts: SQL[] = [eq(records.userId, q.userId)];
  if (q.direction) parts.push(eq(records.direction, q.direction));
  if (q.statuses.length) parts.push(inArray(records.status, q.statuses));
  return and(...parts);
}

/** One page of the user's records, newest first (ties broken by id, which is time-ordered), and the total count. */
export async function listRecords(db: DbOrTx, q: RecordQuery): Promise<{ rows: RecordRow[]; count: number }> {
  const rows = await db
    .select()
    .from(records)
    .where(where(q))
    .orderBy(desc(records.createdAt), desc(records.id))
    .limit(q.limit)
    .offset(q.offset);
  const [total] = await db.select({ n: count() }).from(records).where(where(q));
  return { rows, count: Number(total?.n ?? 0) };
}

/** Inserts the record unless one exists for (user, type, biz id) (the unique key): repeating is a no-op. */
export async function insertRecordIfAbsent(db: DbOrTx, row: typeof records.$inferInsert): Promise<void> {
  await db.insert(records).values(row).onConflictDoNothing();
}

/** {@link insertRecordIfAbsent} for many rows in one statement (a purchase batch); an empty list is a no-op. */
export async function insertRecordsIfAbsent(db: DbOrTx, rows: (typeof records.$inferInsert)[]): Promise<void> {
  if (!rows.length) return;
  const json = JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      user_id: r.userId,
      biz_id: r.bizId,
      type: r.type,
      direction: r.direction,
      amount: r.amount.toString(),
      status: r.status,
      created_at: r.createdAt?.toISOString() ?? null,
      updated_at: r.updatedAt?.toISOString() ?? null,
    })),
  );
  await run(db, insertRecordsSql, [json]);
}

/** One statement for any number of records; a missing time is now(), as the columns' default. */
const insertRecordsSql = statement(
  'records_insert_if_absent',
  `insert into records (id, user_id, biz_id, type, direction, amount, status, created_at, updated_at)
   select d.id, d.user_id, d.biz_id, d.type, d.direction, d.amount, d.status, coalesce(d.created_at, now()), coalesce(d.updated_at, now())
   from jsonb_to_recordset($1::jsonb)
     as d(id text, user_id text, biz_id text, type text, direction text, amount bigint, status text, created_at timestamptz, updated_at timestamptz)
   on conflict do nothing`,
);

/** Updates the record (user, type, biz id) with `set` (status, updatedAt, optionally amount); none there is a no-op. */
export async function updateRecord(
  db: DbOrTx,
  key: { userId: string; type: RecordType; bizId: string },
  set: { status: RecordStatus; updatedAt: Date; amount?: bigint },
): Promise<void> {
  await db
    .update(records)
    .set(set)
    .where(and(eq(records.userId, key.userId), eq(records.type, key.type), eq(records.bizId, key.bizId)));
}

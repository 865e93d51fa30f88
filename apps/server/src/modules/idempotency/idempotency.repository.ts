/**
 * The `idempotency_keys` table (src/db/schema/idempotency.ts). Only the idempotency service calls this.
 * Every write is one statement, so two instances racing for a key see one winner. The two writes of
 * every keyed request, the claim and the answer, take a batch of requests per statement
 * ({@link insertClaims}, {@link completeMany}: named prepared statements over one JSON parameter, as
 * the purchase batches are, docs/decisions/0037-batch-statement-plans.md).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { run, statement } from '../../db/raw';
import { idempotencyKeys } from '../../db/schema';

export type KeyRow = typeof idempotencyKeys.$inferSelect;

/** One claim of a batch: whose key, and what it is used for. */
export interface ClaimAsk {
  userId: string;
  key: string;
  operation: string;
  fingerprint: string;
}

/**
 * Inserts the claims of a batch (distinct (user, key) pairs) in one statement, each unless its row
 * exists, all with `locked_at = created_at = now`.
 * @returns the `userId\nkey` of every row this statement inserted
 */
export async function insertClaims(db: DbOrTx, claims: readonly ClaimAsk[], now: Date, expiresAt: Date): Promise<Set<string>> {
  const rows = JSON.stringify(claims.map((c) => ({ user_id: c.userId, key: c.key, operation: c.operation, fingerprint: c.fingerprint })));
  const { rows: inserted } = await run<{ user_id: string; key: string }>(db, insertClaimsSql, [rows, now, expiresAt]);
  return new Set(inserted.map((r) => `${r.user_id}\n${r.key}`));
}

const insertClaimsSql = statement(
  'idempotency_insert_claims',
  `insert into idempotency_keys (user_id, key, operation, fingerprint, locked_at, created_at, expires_at)
   select d.user_id, d.key, d.operation, d.fingerprint, $2::timestamptz, $2::timestamptz, $3::timestamptz
   from jsonb_to_recordset($1::jsonb) as d(user_id text, key text, operation text, fingerprint text)
   on conflict do nothing
   returning user_id, key`,
);

/** One stored answer of a batch: the claim it belongs to, and the answer as sent. */
export interface CompleteAsk {
  userId: string;
  key: string;
  lockedAt: Date;
  status: number;
  response: string;
}

/**
 * Stores the answers of a batch in one statement; a claim taken over since (its `locked_at` changed)
 * gets nothing. The list filter reaches the rows by the primary key's first column
 * (docs/decisions/0037-batch-statement-plans.md).
 */
export async function completeMany(db: DbOrTx, answers: readonly CompleteAsk[]): Promise<void> {
  const rows = JSON.stringify(
    answers.map((a) => ({ user_id: a.userId, key: a.key, locked_at: a.lockedAt.toISOString(), status: a.status, response: a.response })),
  );
  await run(db, completeManySql, [rows]);
}

const completeManySql = statement(
  'idempotency_complete_many',
  `update idempotency_keys k set status = d.status, response = d.response, locked_at = null
   from jsonb_to_recordset($1::jsonb) as d(user_id text, key text, locked_at timestamptz, status integer, response text)
   where k.user_id = d.user_id and k.key = d.key and k.locked_at = d.locked_at
     and k.user_id = any(array(select jsonb_array_elements($1::jsonb) ->> 'user_id'))`,
);

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


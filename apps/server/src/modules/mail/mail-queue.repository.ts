/**
 * The mail queue in the database (docs/decisions/0032-mail-queue.md). Rows are written in the
 * caller's transaction; attempts claim rows with a lease (`next_attempt_at` moved past the attempt's
 * timeout) so one attempt at a time holds a mail, and a crashed attempt is taken again when its
 * lease runs out.
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { run, statement } from '../../db/raw';
import { mailQueue } from '../../db/schema/index';

export type MailQueueRow = typeof mailQueue.$inferSelect;
export type NewMailRow = typeof mailQueue.$inferInsert;

/** Rows per INSERT statement when a change mails many buyers. */
const INSERT_BATCH = 500;

const insertManySql = statement(
  'mail_insert_many',
  `insert into mail_queue (id, key, "to", subject, body, status, attempts, next_attempt_at, created_at, updated_at)
   select d.id, d.key, d."to", d.subject, d.body, d.status, d.attempts, d.next_attempt_at, d.created_at, d.updated_at
   from jsonb_to_recordset($1::jsonb) as d(id text, key text, "to" text, subject text, body text, status text,
     attempts integer, next_attempt_at timestamptz, created_at timestamptz, updated_at timestamptz)
   on conflict (key) do nothing
   returning id`,
);

/**
 * Inserts `rows` in the caller's transaction (one statement per 500 rows); a row whose `key` exists already is skipped.
 * @returns the ids of the rows inserted
 */
export async function insertMany(db: DbOrTx, rows: NewMailRow[]): Promise<string[]> {
  const ids: string[] = [];
  for (let at = 0; at < rows.length; at += INSERT_BATCH) {
    const json = JSON.stringify(
      rows.slice(at, at + INSERT_BATCH).map((r) => ({
        id: r.id,
        key: r.key,
        to: r.to,
        subject: r.subject,
        body: r.body,
        status: r.status,
        attempts: r.attempts ?? 0,
        next_attempt_at: r.nextAttemptAt ?? null,
        created_at: r.createdAt,
        updated_at: r.updatedAt,
      })),
    );
    const { rows: inserted } = await run<{ id: string }>(db, insertManySql, [json]);
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

/** What an attempt needs of a claimed mail. */
export type ClaimedMail = Pick<MailQueueRow, 'id' | 'key' | 'to' | 'subject' | 'body' | 'attempts'>;

const claimIdsSql = statement(
  'mail_claim_ids',
  `update mail_queue set attempts = attempts + 1, next_attempt_at = $3, updated_at = $2
   where id = any(array(select jsonb_array_elements_text($1::jsonb))) and status = 'pending'
     and next_attempt_at <= $2
   returning id, key, "to", subject, body, attempts`,
);

/**
 * Claims the pending rows of `ids` that no attempt holds (due: a row is inserted holding its first
 * attempt's lease) in one statement: attempts + 1, lease until `leaseUntil`. @returns the claimed rows
 */
export async function claimIds(db: DbOrTx, ids: string[], now: Date, leaseUntil: Date): Promise<ClaimedMail[]> {
  if (!ids.length) return [];
  return (await run<ClaimedMail>(db, claimIdsSql, [JSON.stringify(ids), now, leaseUntil])).rows;
}

const stillHeldSql = statement(
  'mail_still_held',
  `select id from mail_queue
   where id = any(array(select jsonb_array_elements_text($1::jsonb))) and status = 'pending' and attempts = 1`,
);

/**
 * Which of `ids` exist (their transaction committed) and are still pending at attempt 1, the
 * attempt their insert claimed: read, not locked (the lease keeps other attempts away).
 */
export async function stillHeld(db: DbOrTx, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  return new Set((await run<{ id: string }>(db, stillHeldSql, [JSON.stringify(ids)])).rows.map((r) => r.id));
}

/**
 * Claims up to `limit` due pending rows, oldest due first, skipping rows another instance is
 * claiming (`FOR UPDATE SKIP LOCKED`). Call inside a transaction. @returns the claimed rows
 */
export async function claimDue(db: DbOrTx, now: Date, leaseUntil: Date, limit: number): Promise<MailQueueRow[]> {
  const due = await db
    .select({ id: mailQueue.id })
    .from(mailQueue)
    .where(and(eq(mailQueue.status, 'pending'), lte(mailQueue.nextAttemptAt, now)))
    .orderBy(asc(mailQueue.nextAttemptAt), asc(mailQueue.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  if (!due.length) return [];
  return db
    .update(mailQueue)
    .set({ attempts: sql`${mailQueue.attempts} + 1`, nextAttemptAt: leaseUntil, updatedAt: now })
    .where(
      inArray(
        mailQueue.id,
        due.map((d) => d.id),
      ),
    )
    .returning();
}

/**
 * Records an attempt's outcome, only while the row is pending and still held by that attempt
 * (`attempts` unchanged since the claim): a late answer of an attempt whose lease ran out changes nothing.
 */
export async function finishAttempt(
  db: DbOrTx,
  id: string,
  attempt: number,
  set: Pick<MailQueueRow, 'status' | 'nextAttemptAt' | 'lastError'> &
    Partial<Pick<MailQueueRow, 'messageId' | 'sentAt'>> & { updatedAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(mailQueue)
    .set(set)
    .where(and(eq(mailQueue.id, id), eq(mailQueue.status, 'pending'), eq(mailQueue.attempts, attempt)))
    .returning({ id: mailQueue.id });
  return rows.length === 1;
}

const finishSentSql = statement(
  'mail_finish_sent',
  `update mail_queue m set status = 'sent', next_attempt_at = null, last_error = null, message_id = d.message_id,
     sent_at = $2, updated_at = $2
   from jsonb_to_recordset($1::jsonb) as d(id text, attempts integer, message_id text)
   where m.id = d.id and m.id = any(array(select jsonb_array_elements($1::jsonb) ->> 'id'))
     and m.status = 'pending' and m.attempts = d.attempts
   returning m.id`,
);

/**
 * Records many accepted attempts in one statement: each row becomes `sent` with its Message-ID,
 * only while it is pending and still held by that attempt (as {@link finishAttempt}).
 * @param sent each mail's id, the attempt number its claim set, and the provider's Message-ID
 * @returns the ids recorded (a row whose lease was taken over meanwhile is left out)
 */
export async function finishSent(
  db: DbOrTx,
  sent: { id: string; attempts: number; messageId: string }[],
  now: Date,
): Promise<Set<string>> {
  if (!sent.length) return new Set();
  const json = JSON.stringify(sent.map((s) => ({ id: s.id, attempts: s.attempts, message_id: s.messageId })));
  const { rows } = await run<{ id: string }>(db, finishSentSql, [json, now]);
  return new Set(rows.map((r) => r.id));
}

/** Rows of `ids` (tests and the operator's view). */
export async function findMany(db: DbOrTx, ids: string[]): Promise<MailQueueRow[]> {
  if (!ids.length) return [];
  return db.select().from(mailQueue).where(inArray(mailQueue.id, ids));
}

/** Deletes up to `limit` mails sent before `before` (the queue is not an archive). @returns rows deleted */
export async function purgeSent(db: DbOrTx, before: Date, limit: number): Promise<number> {
  const res = (await db.execute(sql`
    delete from mail_queue where id in (
      select id from mail_queue where status = 'sent' and sent_at < ${before} order by sent_at limit ${limit})`)) as unknown as {
    rowCount?: number | null;
    affectedRows?: number;
  };
  return Number(res.rowCount ?? res.affectedRows ?? 0);
}

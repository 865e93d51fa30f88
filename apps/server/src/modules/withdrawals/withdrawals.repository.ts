/** Withdraw bills, their payout state and wrong-password attempts. Only the withdrawals service calls this. */
import { WithdrawStatus } from '@coffer/contract';
import { and, asc, count, eq, gt, inArray, isNotNull, lt, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { withdrawBills, withdrawPasswordFailures } from '../../db/schema/index';

export type WithdrawBillRow = typeof withdrawBills.$inferSelect;
export type NewWithdrawBill = typeof withdrawBills.$inferInsert;

export async function insertBill(db: DbOrTx, row: NewWithdrawBill): Promise<WithdrawBillRow> {
  const [created] = await db.insert(withdrawBills).values(row).returning();
  if (!created) throw new Error('insert withdraw bill returned nothing');
  return created;
}

export async function findBill(db: DbOrTx, id: string): Promise<WithdrawBillRow | null> {
  const [row] = await db.select().from(withdrawBills).where(eq(withdrawBills.id, id));
  return row ?? null;
}

/** Reads the bill and locks its row until the transaction ends. */
export async function lockBill(db: DbOrTx, id: string): Promise<WithdrawBillRow | null> {
  const [row] = await db.select().from(withdrawBills).where(eq(withdrawBills.id, id)).for('update');
  return row ?? null;
}

export async function updateBill(db: DbOrTx, id: string, patch: Partial<NewWithdrawBill>): Promise<WithdrawBillRow> {
  const [row] = await db.update(withdrawBills).set(patch).where(eq(withdrawBills.id, id)).returning();
  if (!row) throw new Error(`withdraw bill ${id} vanished`);
  return row;
}

/** Updates the bill only if it is still processing. @returns whether it was */
export async function updateProcessingBill(db: DbOrTx, id: string, patch: Partial<NewWithdrawBill>): Promise<boolean> {
  const rows = await db
    .update(withdrawBills)
    .set(patch)
    .where(and(eq(withdrawBills.id, id), eq(withdrawBills.status, WithdrawStatus.Processing)))
    .returning({ id: withdrawBills.id });
  return rows.length > 0;
}

/**
 * Claims up to `limit` payouts of the rails `providers` (a bill records the rail of its currency) to work on: processing bills that are queued, or whose previous
 * claim's lease ran out (a crashed or slow worker). `FOR UPDATE SKIP LOCKED` lets several instances
 * claim at once without taking the same bill; the lease then keeps the claim after the commit.
 */
export async function claimPayouts(
  db: DbOrTx,
  providers: readonly string[],
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<WithdrawBillRow[]> {
  const due = await db
    .select({ id: withdrawBills.id })
    .from(withdrawBills)
    .where(
      and(
        eq(withdrawBills.status, WithdrawStatus.Processing),
        inArray(withdrawBills.provider, [...providers]),
        or(
          eq(withdrawBills.payoutState, 'queued'),
          and(
            inArray(withdrawBills.payoutState, ['sending', 'sent']),
            isNotNull(withdrawBills.leaseUntil),
            lte(withdrawBills.leaseUntil, now),
          ),
        ),
      ),
    )
    .orderBy(asc(withdrawBills.confirmedAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  if (!due.length) return [];
  return db
    .update(withdrawBills)
    .set({
      payoutState: sql`case when ${withdrawBills.payoutState} = 'queued' then 'sending' else ${withdrawBills.payoutState} end`,
      payoutAttempts: sql`${withdrawBills.payoutAttempts} + 1`,
      leaseUntil,
      updatedAt: now,
    })
    .where(
      inArray(
        withdrawBills.id,
        due.map((d) => d.id),
      ),
    )
    .returning();
}

/** Marks unconfirmed bills past their 15 minutes expired. @returns how many */
export async function expireDue(db: DbOrTx, now: Date): Promise<number> {
  const rows = await db
    .update(withdrawBills)
    .set({ status: WithdrawStatus.Expired, updatedAt: now })
    .where(and(eq(withdrawBills.status, WithdrawStatus.Pending), lte(withdrawBills.expiresAt, now)))
    .returning({ id: withdrawBills.id });
  return rows.length;
}

/** True when the user has a confirmed withdrawal whose payout is not final. */
export async function hasInFlight(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: withdrawBills.id })
    .from(withdrawBills)
    .where(and(eq(withdrawBills.userId, userId), eq(withdrawBills.status, WithdrawStatus.Processing)))
    .limit(1);
  return !!row;
}

export async function recordPasswordFailure(db: DbOrTx, userId: string, at: Date): Promise<void> {
  await db.insert(withdrawPasswordFailures).values({ userId, createdAt: at });
}

export async function countPasswordFailures(db: DbOrTx, userId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(withdrawPasswordFailures)
    .where(and(eq(withdrawPasswordFailures.userId, userId), gt(withdrawPasswordFailures.createdAt, since)));
  return Number(row?.n ?? 0);
}

export async function deletePasswordFailuresBefore(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(withdrawPasswordFailures).where(lt(withdrawPasswordFailures.createdAt, before));
}

/**
 * Sends `payload` on the LISTEN/NOTIFY `channel` inside `tx`: delivered to every listener when `tx`
 * commits, never when it rolls back (PostgreSQL NOTIFY semantics).
 */
export async function notifyOnCommit(tx: DbOrTx, channel: string, payload: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${channel}, ${payload})`);
}

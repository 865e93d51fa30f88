/** Deposit bills and received payments in the database. Only the deposits service calls this. */
import { DepositStatus } from '@coffer/contract';
import { and, asc, count, eq, inArray, like, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { depositBills, depositPayments } from '../../db/schema/index';

export type DepositBillRow = typeof depositBills.$inferSelect;
export type NewDepositBill = typeof depositBills.$inferInsert;

export async function insertBill(db: DbOrTx, row: NewDepositBill): Promise<DepositBillRow> {
  const [created] = await db.insert(depositBills).values(row).returning();
  if (!created) throw new Error('insert deposit bill returned nothing');
  return created;
}

export async function findBill(db: DbOrTx, id: string): Promise<DepositBillRow | null> {
  const [row] = await db.select().from(depositBills).where(eq(depositBills.id, id));
  return row ?? null;
}

/** Reads the bill and locks its row until the transaction ends (serializes credits and expiry). */
export async function lockBill(db: DbOrTx, id: string): Promise<DepositBillRow | null> {
  const [row] = await db.select().from(depositBills).where(eq(depositBills.id, id)).for('update');
  return row ?? null;
}

export async function updateBill(db: DbOrTx, id: string, patch: Partial<NewDepositBill>): Promise<DepositBillRow> {
  const [row] = await db.update(depositBills).set(patch).where(eq(depositBills.id, id)).returning();
  if (!row) throw new Error(`deposit bill ${id} vanished`);
  return row;
}

/** Inserts a received payment unless its reference exists. @returns the new id, or null on a repeat. */
export async function insertPayment(db: DbOrTx, row: typeof depositPayments.$inferInsert): Promise<string | null> {
  const inserted = await db
    .insert(depositPayments)
    .values(row)
    .onConflictDoNothing({ target: depositPayments.paymentRef })
    .returning({ id: depositPayments.id });
  return inserted[0]?.id ?? null;
}

/**
 * Crypto received so far (whole units, decimal string) on `billId` under `paymentRef` or its
 * running-total references `<paymentRef>:<total>` (a cumulative report, ReceivedPayment.cumulative).
 * Read under the bill's row lock, so two reports of one payment never both count the same gap.
 */
export async function receivedUnder(db: DbOrTx, billId: string, paymentRef: string): Promise<string> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${depositPayments.currencyAmount}), 0)::text` })
    .from(depositPayments)
    .where(
      and(
        eq(depositPayments.billId, billId),
        or(eq(depositPayments.paymentRef, paymentRef), like(depositPayments.paymentRef, `${escapeLike(paymentRef)}:%`)),
      ),
    );
  return row?.total ?? '0';
}

/** `value` with LIKE's wildcards and escape character taken literally. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function setPaymentLedgerTransaction(db: DbOrTx, id: string, ledgerTransactionId: string): Promise<void> {
  await db.update(depositPayments).set({ ledgerTransactionId }).where(eq(depositPayments.id, id));
}

export async function paymentsOfBill(db: DbOrTx, billId: string) {
  return db.select().from(depositPayments).where(eq(depositPayments.billId, billId)).orderBy(asc(depositPayments.receivedAt));
}

/**
 * Locks up to `limit` processing bills whose expiry has passed, skipping rows another instance holds
 * (`FOR UPDATE SKIP LOCKED`), and marks them expired. @returns the expired bills
 */
export async function expireDue(
  db: DbOrTx,
  now: Date,
  limit: number,
  onlyId?: string,
): Promise<{ id: string; userId: string }[]> {
  const due = await db
    .select({ id: depositBills.id, userId: depositBills.userId })
    .from(depositBills)
    .where(
      and(
        eq(depositBills.status, DepositStatus.Processing),
        lte(depositBills.expiresAt, now),
        ...(onlyId ? [eq(depositBills.id, onlyId)] : []),
      ),
    )
    .orderBy(asc(depositBills.expiresAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  if (!due.length) return [];
  await db
    .update(depositBills)
    .set({ status: DepositStatus.Expired, updatedAt: now })
    .where(
      inArray(
        depositBills.id,
        due.map((d) => d.id),
      ),
    );
  return due;
}

/** The user's open (Processing) deposit bills (docs/abuse.md: capped per user; block account deletion). */
export async function countOpenBills(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(depositBills)
    .where(and(eq(depositBills.userId, userId), eq(depositBills.status, DepositStatus.Processing)));
  return Number(row?.n ?? 0);
}

/** Serializes bill creation of one user (locks the user's row until the transaction ends). */
export async function lockUserForBills(db: DbOrTx, userId: string): Promise<void> {
  await db.execute(sql`select id from users where id = ${userId} for update`);
}

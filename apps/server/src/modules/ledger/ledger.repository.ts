/** Ledger persistence: accounts, transactions, entries. Only the ledger service calls this. */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from '../../db/schema/index';
import { newId } from '../../lib/ids';

export type UserAccountKind = 'available' | 'frozen';
export type PlatformAccountKind = 'deposits' | 'withdrawals' | 'fees';

/**
 * The user's available and frozen account ids, creating them if missing. Reads first: the accounts
 * are opened at registration, and an `INSERT ... ON CONFLICT` on a row another transaction is
 * updating would wait for that transaction, serializing concurrent postings for no reason.
 */
export async function ensureUserAccounts(db: DbOrTx, userId: string): Promise<Record<UserAccountKind, string>> {
  const read = async () => {
    const rows = await db
      .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.userId, userId), inArray(ledgerAccounts.kind, ['available', 'frozen'])));
    return Object.fromEntries(rows.map((r) => [r.kind, r.id])) as Partial<Record<UserAccountKind, string>>;
  };
  const found = await read();
  if (found.available && found.frozen) return found as Record<UserAccountKind, string>;
  await db
    .insert(ledgerAccounts)
    .values([
      { id: newId(), userId, kind: 'available' },
      { id: newId(), userId, kind: 'frozen' },
    ])
    .onConflictDoNothing();
  const created = await read();
  if (!created.available || !created.frozen) throw new Error(`ledger accounts of user ${userId} missing`);
  return created as Record<UserAccountKind, string>;
}

/** Creates the platform account of `kind` if missing; returns its id. */
export async function ensurePlatformAccount(db: DbOrTx, kind: PlatformAccountKind): Promise<string> {
  await db.insert(ledgerAccounts).values({ id: newId(), userId: null, kind }).onConflictDoNothing();
  const [row] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(isNull(ledgerAccounts.userId), eq(ledgerAccounts.kind, kind)));
  if (!row) throw new Error(`platform account ${kind} missing`);
  return row.id;
}

/** Inserts the transaction row unless its key exists. @returns the new id, or null on a replay. */
export async function insertTransaction(
  db: DbOrTx,
  row: { id: string; idempotencyKey: string; kind: string; bizId: string },
): Promise<string | null> {
  const inserted = await db
    .insert(ledgerTransactions)
    .values(row)
    .onConflictDoNothing({ target: ledgerTransactions.idempotencyKey })
    .returning({ id: ledgerTransactions.id });
  return inserted[0]?.id ?? null;
}

export async function findTransactionByKey(db: DbOrTx, key: string) {
  const [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.idempotencyKey, key));
  return row ?? null;
}

/** Adds `amount` minor units to a user account's stored balance (the CHECK refuses a negative result). */
export async function applyToBalance(db: DbOrTx, accountId: string, amount: bigint): Promise<void> {
  await db
    .update(ledgerAccounts)
    .set({ balance: sql`${ledgerAccounts.balance} + ${amount.toString()}::bigint` })
    .where(eq(ledgerAccounts.id, accountId));
}

export async function insertEntries(
  db: DbOrTx,
  transactionId: string,
  entries: { accountId: string; amount: bigint }[],
): Promise<void> {
  await db.insert(ledgerEntries).values(entries.map((e) => ({ transactionId, accountId: e.accountId, amount: e.amount })));
}

/** Stored balances of the given user's accounts (minor units; 0 when the account does not exist yet). */
export async function userBalances(db: DbOrTx, userId: string): Promise<Record<UserAccountKind, bigint>> {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), inArray(ledgerAccounts.kind, ['available', 'frozen'])));
  const out: Record<UserAccountKind, bigint> = { available: 0n, frozen: 0n };
  for (const r of rows) out[r.kind as UserAccountKind] = r.balance;
  return out;
}

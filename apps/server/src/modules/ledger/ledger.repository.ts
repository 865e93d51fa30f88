/** Ledger persistence: accounts, transactions, entries. Only the ledger service calls this. */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { run, statement } from '../../db/raw';
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

const balancesStatements = new WeakMap<Db, ReturnType<typeof prepareUserBalances>>();
const prepareUserBalances = (db: Db) =>
  db
    .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, sql.placeholder('userId')), inArray(ledgerAccounts.kind, ['available', 'frozen'])))
    .prepare('ledger_user_balances');

/**
 * {@link userBalances} outside a transaction (get/me, assets) as a prepared statement: the SQL is
 * built once per database handle and, on PostgreSQL, parsed and planned once per pooled connection.
 */
export async function userBalancesPrepared(db: Db, userId: string): Promise<Record<UserAccountKind, bigint>> {
  let statement = balancesStatements.get(db);
  if (!statement) balancesStatements.set(db, (statement = prepareUserBalances(db)));
  const rows = await statement.execute({ userId });
  const out: Record<UserAccountKind, bigint> = { available: 0n, frozen: 0n };
  for (const r of rows) out[r.kind as UserAccountKind] = r.balance;
  return out;
}

/**
 * The ledger account ids of the given users, by user id and kind (users without accounts are
 * absent). One statement for any number of users.
 */
export async function userAccountIds(db: DbOrTx, userIds: string[]): Promise<Map<string, Record<UserAccountKind, string>>> {
  const out = new Map<string, Record<UserAccountKind, string>>();
  if (!userIds.length) return out;
  const rows = await db
    .select({ userId: ledgerAccounts.userId, id: ledgerAccounts.id, kind: ledgerAccounts.kind })
    .from(ledgerAccounts)
    .where(and(inArray(ledgerAccounts.userId, userIds), inArray(ledgerAccounts.kind, ['available', 'frozen'])));
  const partial = new Map<string, Partial<Record<UserAccountKind, string>>>();
  for (const r of rows) {
    const cur = partial.get(r.userId!) ?? {};
    cur[r.kind as UserAccountKind] = r.id;
    partial.set(r.userId!, cur);
  }
  for (const [userId, ids] of partial) if (ids.available && ids.frozen) out.set(userId, ids as Record<UserAccountKind, string>);
  return out;
}

/**
 * Inserts many transaction rows, skipping keys that exist. @returns the keys inserted now (the
 * others are replays).
 */
export async function insertTransactions(
  db: DbOrTx,
  rows: { id: string; idempotencyKey: string; kind: string; bizId: string }[],
): Promise<Set<string>> {
  if (!rows.length) return new Set();
  const json = JSON.stringify(rows.map((r) => ({ id: r.id, key: r.idempotencyKey, kind: r.kind, biz_id: r.bizId })));
  const { rows: inserted } = await run<{ key: string }>(db, insertTransactionsSql, [json]);
  return new Set(inserted.map((r) => r.key));
}

const insertTransactionsSql = statement(
  'ledger_insert_transactions',
  `insert into ledger_transactions (id, idempotency_key, kind, biz_id)
   select d.id, d.key, d.kind, d.biz_id from jsonb_to_recordset($1::jsonb) as d(id text, key text, kind text, biz_id text)
   on conflict (idempotency_key) do nothing
   returning idempotency_key as key`,
);

/** Deletes transaction rows (without entries) by id: the postings of a batch whose debit was refused. */
export async function deleteTransactions(db: DbOrTx, ids: string[]): Promise<void> {
  if (ids.length) await db.delete(ledgerTransactions).where(inArray(ledgerTransactions.id, ids));
}

type Delta = { accountId: string; amount: bigint };
const deltasJson = (deltas: Delta[]) => JSON.stringify(deltas.map((d) => ({ id: d.accountId, amount: d.amount.toString() })));

/**
 * Debits many user accounts in one statement, each only if its balance covers the debit (`FOR NO
 * KEY UPDATE` locks, as {@link creditMany}, taken in account-id order first). `amount` is the
 * positive minor units to subtract; one delta per account.
 * @returns the ids of the accounts debited (the others are unchanged: insufficient balance).
 */
export async function debitWhereCovered(db: DbOrTx, deltas: Delta[]): Promise<Set<string>> {
  if (!deltas.length) return new Set();
  const { rows } = await run<{ id: string }>(db, debitWhereCoveredSql, [deltasJson(deltas)]);
  return new Set(rows.map((r) => r.id));
}

const debitWhereCoveredSql = statement(
  'ledger_debit_where_covered',
  `with d as (select * from jsonb_to_recordset($1::jsonb) as d(id text, amount bigint)),
   locked as (select a.id from ledger_accounts a where a.id = any(array(select id from d)) order by a.id for no key update)
   update ledger_accounts a set balance = a.balance - d.amount
   from d
   where a.id = d.id and a.id = any(array(select id from locked)) and a.balance >= d.amount
   returning a.id`,
);

/**
 * Credits many user accounts in one statement (locks taken in account-id order, `FOR NO KEY
 * UPDATE` as the UPDATE itself takes: the foreign-key checks of another transaction's entries on
 * these accounts take `FOR KEY SHARE`, which this does not wait for); `amount` is the
 * positive minor units to add, one delta per account.
 * @throws Error when an account does not exist (nothing may be credited to a missing row)
 */
export async function creditMany(db: DbOrTx, deltas: Delta[]): Promise<void> {
  if (!deltas.length) return;
  const res = await run<{ id: string }>(db, creditManySql, [deltasJson(deltas)]);
  if (res.rows.length !== deltas.length) throw new Error(`ledger credit: ${deltas.length - res.rows.length} account(s) missing`);
}

const creditManySql = statement(
  'ledger_credit_many',
  `with d as (select * from jsonb_to_recordset($1::jsonb) as d(id text, amount bigint)),
   locked as (select a.id from ledger_accounts a where a.id = any(array(select id from d)) order by a.id for no key update)
   update ledger_accounts a set balance = a.balance + d.amount
   from d
   where a.id = d.id and a.id = any(array(select id from locked))
   returning a.id`,
);

/** Inserts the entries of many transactions in one statement. */
export async function insertEntriesMany(
  db: DbOrTx,
  entries: { transactionId: string; accountId: string; amount: bigint }[],
): Promise<void> {
  if (!entries.length) return;
  const json = JSON.stringify(entries.map((e) => ({ t: e.transactionId, a: e.accountId, amount: e.amount.toString() })));
  await run(db, insertEntriesSql, [json]);
}

const insertEntriesSql = statement(
  'ledger_insert_entries',
  `insert into ledger_entries (transaction_id, account_id, amount)
   select d.t, d.a, d.amount from jsonb_to_recordset($1::jsonb) as d(t text, a text, amount bigint)`,
);

/**
 * One page of every user's total balance (available + frozen, minor units), ordered by user id,
 * starting after `afterUserId` (keyset paging; '' for the first page).
 */
export async function userTotalsPage(
  db: DbOrTx,
  afterUserId: string,
  limit: number,
): Promise<{ userId: string; balance: bigint }[]> {
  const rows = await db
    .select({ userId: ledgerAccounts.userId, balance: sql<string>`sum(${ledgerAccounts.balance})::text` })
    .from(ledgerAccounts)
    .where(
      and(
        sql`${ledgerAccounts.userId} is not null`,
        sql`${ledgerAccounts.userId} > ${afterUserId}`,
        inArray(ledgerAccounts.kind, ['available', 'frozen']),
      ),
    )
    .groupBy(ledgerAccounts.userId)
    .orderBy(ledgerAccounts.userId)
    .limit(limit);
  return rows.map((r) => ({ userId: r.userId!, balance: BigInt(r.balance) }));
}

/** Ledger persistence: accounts, transactions, entries. Only the ledger service calls this. */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { run, statement } from '../../db/raw';
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from '../../db/schema/index';
import { newId } from '../../lib/ids';

/**
 * A user's ledger accounts: `available` (spendable), `frozen` (cash-outs in flight) and `pending`
 * (sale proceeds in their holding period, docs/decisions/0045-clearance-and-step-up.md).
 */
export type UserAccountKind = 'available' | 'frozen' | 'pending';
/** Every user account kind, in the order they are created. */
export const USER_ACCOUNT_KINDS: readonly UserAccountKind[] = ['available', 'frozen', 'pending'];
const complete = (ids: Partial<Record<UserAccountKind, string>>): ids is Record<UserAccountKind, string> =>
  USER_ACCOUNT_KINDS.every((k) => ids[k] !== undefined);
export type PlatformAccountKind = 'deposits' | 'withdrawals' | 'fees';

/**
 * The kinds of ledger transaction: one per business event, stored in `ledger_transactions.kind`
 * (docs/architecture.md "Glossary"). Every caller names its kind from here, so a kind that is not
 * on the list fails typecheck. Each line gives the event's entries and its idempotency key.
 */
export const LedgerTransactionKind = {
  /** A received payment credited: platform `deposits` -> the user's `available`. Key `deposit:<payment ref>`. */
  Deposit: 'deposit',
  /** An order paid: buyer `available` -> seller `pending` (or `available`) and platform `fees`. Key `purchase:<order id>`. */
  Purchase: 'purchase',
  /** An order refunded: seller `pending` or `available` and platform `fees` -> buyer `available`. Key `refund:<order id>`. */
  Refund: 'refund',
  /** A sale's proceeds cleared: seller `pending` -> `available`. Key `clear:<order id>`. */
  Clear: 'clear',
  /** A cash-out confirmed: `available` -> `frozen`. Key `withdraw-freeze:<bill id>`. */
  Freeze: 'freeze',
  /** A cash-out refunded: `frozen` -> `available`. Key `withdraw-refund:<bill id>`. */
  Unfreeze: 'unfreeze',
  /** A cash-out paid out: `frozen` -> platform `withdrawals` (net) and `fees` (network fee). Key `withdraw-settle:<bill id>`. */
  WithdrawSettle: 'withdraw_settle',
} as const;
export type LedgerTransactionKind = (typeof LedgerTransactionKind)[keyof typeof LedgerTransactionKind];

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
      .where(and(eq(ledgerAccounts.userId, userId), inArray(ledgerAccounts.kind, [...USER_ACCOUNT_KINDS])));
    return Object.fromEntries(rows.map((r) => [r.kind, r.id])) as Partial<Record<UserAccountKind, string>>;
  };
  const found = await read();
  if (complete(found)) return found;
  await db
    .insert(ledgerAccounts)
    .values(USER_ACCOUNT_KINDS.map((kind) => ({ id: newId(), userId, kind })))
    .onConflictDoNothing();
  const created = await read();
  if (!complete(created)) throw new Error(`ledger accounts of user ${userId} missing`);
  return created;
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
  row: { id: string; idempotencyKey: string; kind: LedgerTransactionKind; bizId: string },
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
/** Locks the user's ledger accounts (`FOR UPDATE`, in id order so two lockers never deadlock) until `tx` ends. */
export async function lockUserAccounts(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.userId, userId))
    .orderBy(ledgerAccounts.id)
    .for('update');
}

export async function userBalances(db: DbOrTx, userId: string): Promise<Record<UserAccountKind, bigint>> {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), inArray(ledgerAccounts.kind, [...USER_ACCOUNT_KINDS])));
  const out: Record<UserAccountKind, bigint> = { available: 0n, frozen: 0n, pending: 0n };
  for (const r of rows) out[r.kind as UserAccountKind] = r.balance;
  return out;
}

const balancesStatements = new WeakMap<Db, ReturnType<typeof prepareUserBalances>>();
const prepareUserBalances = (db: Db) =>
  db
    .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, sql.placeholder('userId')), inArray(ledgerAccounts.kind, [...USER_ACCOUNT_KINDS])))
    .prepare('ledger_user_balances');

/**
 * {@link userBalances} outside a transaction (get/me, assets) as a prepared statement: the SQL is
 * built once per database handle and, on PostgreSQL, parsed and planned once per pooled connection.
 */
export async function userBalancesPrepared(db: Db, userId: string): Promise<Record<UserAccountKind, bigint>> {
  let statement = balancesStatements.get(db);
  if (!statement) balancesStatements.set(db, (statement = prepareUserBalances(db)));
  const rows = await statement.execute({ userId });
  const out: Record<UserAccountKind, bigint> = { available: 0n, frozen: 0n, pending: 0n };
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
    .where(and(inArray(ledgerAccounts.userId, userIds), inArray(ledgerAccounts.kind, [...USER_ACCOUNT_KINDS])));
  const partial = new Map<string, Partial<Record<UserAccountKind, string>>>();
  for (const r of rows) {
    const cur = partial.get(r.userId!) ?? {};
    cur[r.kind as UserAccountKind] = r.id;
    partial.set(r.userId!, cur);
  }
  for (const [userId, ids] of partial) if (complete(ids)) out.set(userId, ids);
  return out;
}

type Delta = { accountId: string; amount: bigint };
const deltasJson = (deltas: Delta[]) => JSON.stringify(deltas.map((d) => ({ id: d.accountId, amount: d.amount.toString() })));

/** One ledger transaction of {@link postMany}: its transaction row and the user account it debits. */
export interface DebitTransaction {
  /** The transaction id (UUIDv7). */
  id: string;
  idempotencyKey: string;
  kind: LedgerTransactionKind;
  bizId: string;
  /** The ledger account debited (a user's `available`). */
  accountId: string;
  /** Positive minor units debited. */
  amount: bigint;
}

/**
 * Posts many debit-led transactions in one statement (docs/purchases.md "The pay batch",
 * docs/decisions/0040-ledger-batch-in-one-statement.md):
 * 1. a transaction whose key exists already is a replay: nothing is written for it;
 * 2. the other transactions' debits, summed per account, are taken from each account only where
 *    its balance covers the sum (`FOR NO KEY UPDATE` locks in account-id order first, as
 *    {@link creditMany}); an account that does not cover it is unchanged;
 * 3. the transaction rows and the `entries` of the transactions whose account was debited.
 * Each list is read by key (ADR 0037). A key inserted by a concurrent transaction after this
 * statement's snapshot makes the statement fail (unique violation): nothing of it is written.
 * @param entries every transaction's entries (its debit included), by transaction id; those of
 *   transactions that are not written are left out
 * @returns the keys posted now and the keys replayed; the other transactions were refused (balance)
 */
export async function postMany(
  db: DbOrTx,
  transactions: DebitTransaction[],
  entries: { transactionId: string; accountId: string; amount: bigint }[],
): Promise<{ posted: Set<string>; replayed: Set<string> }> {
  const posted = new Set<string>();
  const replayed = new Set<string>();
  if (!transactions.length) return { posted, replayed };
  const p = JSON.stringify(
    transactions.map((x) => ({
      id: x.id,
      key: x.idempotencyKey,
      kind: x.kind,
      biz_id: x.bizId,
      a: x.accountId,
      amount: x.amount.toString(),
    })),
  );
  const e = JSON.stringify(entries.map((x) => ({ t: x.transactionId, a: x.accountId, amount: x.amount.toString() })));
  const { rows } = await run<{ outcome: 'posted' | 'replayed'; key: string }>(db, postManySql, [p, e]);
  for (const r of rows) (r.outcome === 'posted' ? posted : replayed).add(r.key);
  return { posted, replayed };
}

const postManySql = statement(
  'ledger_post_many',
  `with p as (select * from jsonb_to_recordset($1::jsonb) as p(id text, key text, kind text, biz_id text, a text, amount bigint)),
   seen as (select t.idempotency_key as key from ledger_transactions t where t.idempotency_key = any(array(select key from p))),
   fresh as (select p.* from p where not (p.key = any(array(select key from seen)))),
   sums as (select fresh.a as id, sum(fresh.amount)::bigint as amount from fresh group by fresh.a),
   locked as (select a.id from ledger_accounts a where a.id = any(array(select id from sums)) order by a.id for no key update),
   debited as (
     update ledger_accounts a set balance = a.balance - s.amount
     from sums s
     where a.id = s.id and a.id = any(array(select id from locked)) and a.balance >= s.amount
     returning a.id),
   tx as (
     insert into ledger_transactions (id, idempotency_key, kind, biz_id)
     select f.id, f.key, f.kind, f.biz_id from fresh f where f.a = any(array(select id from debited))
     returning id, idempotency_key),
   entries as (
     insert into ledger_entries (transaction_id, account_id, amount)
     select e.t, e.a, e.amount from jsonb_to_recordset($2::jsonb) as e(t text, a text, amount bigint)
     where e.t = any(array(select id from tx)))
   select 'posted' as outcome, tx.idempotency_key as key from tx
   union all
   select 'replayed', seen.key from seen`,
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

/**
 * One page of every user's total balance (available + frozen + pending, minor units: every point
 * Coffer owes the user, proof of liabilities), ordered by user id,
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
        inArray(ledgerAccounts.kind, [...USER_ACCOUNT_KINDS]),
      ),
    )
    .groupBy(ledgerAccounts.userId)
    .orderBy(ledgerAccounts.userId)
    .limit(limit);
  return rows.map((r) => ({ userId: r.userId!, balance: BigInt(r.balance) }));
}

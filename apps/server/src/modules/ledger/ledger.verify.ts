/**
 * The ledger's invariants (product §13, docs/decisions/0002-ledger.md), checked on a live database by
 * `npm run ledger:verify` and by the tests after their flows:
 *
 * 1. every ledger transaction has at least two entries and its entries sum to zero;
 * 2. every user account's stored balance equals the sum of its entries (platform accounts keep no
 *    stored balance: their balance *is* the sum of their entries);
 * 3. no user account is negative (neither its stored balance nor the sum of its entries);
 * 4. reconciliation (issue 38, ledger.reconcile.ts): the ledger against the rows it posts for —
 *    every paid/refunded order's `purchase:`, every refunded order's `refund:`, every credited
 *    deposit payment's `deposit:` (and each bill's credited total), every confirmed, settled or
 *    refunded cash-out's `withdraw-freeze:`, `withdraw-settle:`, `withdraw-refund:`, each with the
 *    exact amounts on the exact accounts and none without its row; with clearance, every cleared
 *    order's `clear:` and each user's `pending` balance against their held sales.
 *
 * Read-only; amounts are bigint minor units (hundredths of a point). Each rule is one query.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { reconcile, together } from './ledger.reconcile';

export interface LedgerVerifyReport {
  /** True when no invariant is violated. */
  ok: boolean;
  counts: {
    transactions: number;
    entries: number;
    userAccounts: number;
    platformAccounts: number;
    /** Rows reconciled against the ledger. */
    orders: number;
    depositBills: number;
    withdrawBills: number;
  };
  /** Sum of entries per platform account kind (minor units; deposits go negative as money comes in). */
  platformBalances: Record<string, bigint>;
  /** One line per violation, e.g. `transaction <id>: entries sum to 5 (expected 0)`. */
  violations: string[];
  /** Reconciliation rules not run because their columns do not exist yet (e.g. `clear`, `pending`). */
  skipped: string[];
}

/** At most this many violations of one kind are listed (the counts stay exact). */
const LIST_LIMIT = 50;

type Row = Record<string, unknown>;

async function rows(db: DbOrTx, query: ReturnType<typeof sql>): Promise<Row[]> {
  const res = (await db.execute(query)) as unknown as { rows: Row[] };
  return res.rows;
}

const big = (v: unknown): bigint => BigInt(String(v ?? '0'));

/**
 * Checks every invariant on the given database (or inside a transaction).
 * @returns the counts checked and the violations found (`ok` is false when there is any)
 */
export async function verifyLedger(db: DbOrTx): Promise<LedgerVerifyReport> {
  const violations: string[] = [];

  // The queries run together on a pool, one after another in a transaction (ledger.reconcile.ts `together`).
  const countsQ = () =>
    rows(
      db,
      sql`select
      (select count(*) from ledger_transactions)::text as transactions,
      (select count(*) from ledger_entries)::text as entries,
      (select count(*) from ledger_accounts where user_id is not null)::text as user_accounts,
      (select count(*) from ledger_accounts where user_id is null)::text as platform_accounts`,
    );

  const unbalancedQ = () =>
    rows(
      db,
      sql`select t.id, t.idempotency_key, coalesce(sum(e.amount), 0)::text as total, count(e.id)::text as n
        from ledger_transactions t
        left join ledger_entries e on e.transaction_id = t.id
        group by t.id, t.idempotency_key
        having coalesce(sum(e.amount), 0) <> 0 or count(e.id) < 2
        limit ${LIST_LIMIT}`,
    );

  const mismatchedQ = () =>
    rows(
      db,
      sql`select a.id, a.user_id, a.kind, a.balance::text as balance, coalesce(s.total, 0)::text as total
        from ledger_accounts a
        left join (select account_id, sum(amount) as total from ledger_entries group by account_id) s on s.account_id = a.id
        where a.user_id is not null and a.balance <> coalesce(s.total, 0)
        limit ${LIST_LIMIT}`,
    );

  const negativeQ = () =>
    rows(
      db,
      sql`select a.id, a.user_id, a.kind, a.balance::text as balance, coalesce(s.total, 0)::text as total
        from ledger_accounts a
        left join (select account_id, sum(amount) as total from ledger_entries group by account_id) s on s.account_id = a.id
        where a.user_id is not null and (a.balance < 0 or coalesce(s.total, 0) < 0)
        limit ${LIST_LIMIT}`,
    );

  const platformQ = () =>
    rows(
      db,
      sql`select a.kind, coalesce(sum(e.amount), 0)::text as total
        from ledger_accounts a
        left join ledger_entries e on e.account_id = a.id
        where a.user_id is null
        group by a.kind
        order by a.kind`,
    );

  const [countRows = [], unbalanced = [], mismatched = [], negative = [], platform = []] = await together(db, [
    countsQ,
    unbalancedQ,
    mismatchedQ,
    negativeQ,
    platformQ,
  ]);
  const counts = countRows[0];
  const reconciled = await reconcile(db);
  for (const r of unbalanced) {
    violations.push(
      `transaction ${String(r.id)} (${String(r.idempotency_key)}): ${String(r.n)} entries summing to ${String(r.total)} (expected >= 2 entries summing to 0)`,
    );
  }
  for (const r of mismatched) {
    violations.push(
      `account ${String(r.id)} (user ${String(r.user_id)}, ${String(r.kind)}): stored balance ${String(r.balance)} but entries sum to ${String(r.total)}`,
    );
  }
  for (const r of negative) {
    violations.push(
      `account ${String(r.id)} (user ${String(r.user_id)}, ${String(r.kind)}): negative balance (stored ${String(r.balance)}, entries ${String(r.total)})`,
    );
  }
  const platformBalances: Record<string, bigint> = {};
  for (const r of platform) platformBalances[String(r.kind)] = big(r.total);
  violations.push(...reconciled.violations);

  return {
    ok: violations.length === 0,
    counts: {
      transactions: Number(counts?.transactions ?? 0),
      entries: Number(counts?.entries ?? 0),
      userAccounts: Number(counts?.user_accounts ?? 0),
      platformAccounts: Number(counts?.platform_accounts ?? 0),
      ...reconciled.counts,
    },
    platformBalances,
    violations,
    skipped: reconciled.skipped,
  };
}

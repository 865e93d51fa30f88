/**
 * Reconciliation (issue 38): the ledger against the business rows it posts for. Each rule is one
 * set-based query that lists at most {@link LIST_LIMIT} violations; `verifyLedger` runs them all.
 *
 * Posting rules ({@link postingRule}): for one idempotency-key prefix, the transactions that must
 * exist (one per business row in a given state) and the net amount each must move per account
 * (user + kind, or platform kind) are derived from the business rows; every transaction of that
 * prefix is compared with them. A missing transaction, a transaction no row calls for, and one whose
 * entries move other amounts (or touch other accounts) are violations:
 *
 * - `purchase:<order>`: every paid or refunded order with amount > 0, none for a pending one;
 *   buyer `available` -amount*100, seller +(amount*100 - fee) (to `pending` when the order has
 *   `clears_at`, else `available`), platform `fees` +fee;
 * - `refund:<order>`: every refunded order with amount > 0 and only those; the reverse of the
 *   purchase (the seller's part out of `pending` when it had not cleared, else `available`);
 * - `deposit:<payment ref>`: every deposit payment credited > 0 and only those; user `available`
 *   +credited, platform `deposits` -credited;
 * - `withdraw-freeze:<bill>`: every confirmed cash-out (processing, succeeded or refunded) and only
 *   those; `available` -amount, `frozen` +amount;
 * - `withdraw-settle:<bill>`: every succeeded cash-out and only those; `frozen` -amount, platform
 *   `withdrawals` +(amount - fee), `fees` +fee (the fee is 0 when not below the amount);
 * - `withdraw-refund:<bill>`: every refunded cash-out and only those; `frozen` -amount, `available` +amount;
 * - `clear:<order>` (clearance): every order with `cleared_at` and only those; seller `pending`
 *   -(amount*100 - fee), `available` +(amount*100 - fee).
 *
 * Other rules: every deposit bill's `credited` equals its payments' and what the ledger credited
 * under its id, and only a succeeded bill has payments; (clearance) every user's `pending` balance
 * equals the proceeds of their paid orders with `clears_at` and no `cleared_at`.
 *
 * The clearance rules run only when `orders.clears_at` and `orders.cleared_at` exist (checked in
 * information_schema, once per database handle once they do); otherwise they are reported as skipped.
 *
 * Units: orders.amount is whole points; ledger amounts, orders.fee and bill amounts are bigint
 * minor units (hundredths of a point).
 */
import { DepositStatus, OrderStatus, WithdrawStatus } from '@coffer/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/** At most this many violations of one rule are listed. */
export const LIST_LIMIT = 50;

type Row = Record<string, unknown>;

async function rows(db: DbOrTx, query: SQL): Promise<Row[]> {
  const res = (await db.execute(query)) as unknown as { rows: Row[] };
  return res.rows;
}

/**
 * Runs the queries of `tasks` together on a pool (several connections), or one after another in a
 * transaction (one connection: node-postgres deprecates overlapping queries on one client).
 */
export async function together<T>(db: DbOrTx, tasks: (() => Promise<T>)[]): Promise<T[]> {
  if ('rollback' in db) {
    const out: T[] = [];
    for (const task of tasks) out.push(await task());
    return out;
  }
  return Promise.all(tasks.map((task) => task()));
}

const PAID = OrderStatus.Paid;
const REFUNDED = OrderStatus.Refunded;
const DEPOSIT_SUCCESS = DepositStatus.Success;
const W_PROCESSING = WithdrawStatus.Processing;
const W_SUCCESS = WithdrawStatus.Success;
const W_REFUNDED = WithdrawStatus.Refunded;

/**
 * One posting rule: `expected` selects (key, user_id, kind, amount) legs — the net minor units the
 * transaction of `key` must move on the user's account of `kind` (user_id null: the platform account
 * of `kind`); every key it yields must exist, and no other key of `prefix` may. `state(ref)` says
 * what the business row of a violating key is (ref: the key without its prefix).
 */
interface PostingRule {
  name: string;
  prefix: string;
  expected: SQL;
  state: (ref: SQL) => SQL;
}

/**
 * Compares a prefix's transactions with the rule's expected legs in one query.
 * @returns one line per violating key (at most {@link LIST_LIMIT})
 */
async function postingRule(db: DbOrTx, rule: PostingRule): Promise<string[]> {
  const pattern = `${rule.prefix}%`;
  const from = rule.prefix.length + 1;
  const ref = sql`substr(bad.key, ${from}::int)`;
  const found = await rows(
    db,
    sql`with exp as (${rule.expected}),
        ek as (select key from exp group by key),
        act as (
          select t.idempotency_key as key, a.user_id, a.kind, sum(e.amount) as amount
          from ledger_transactions t
          left join ledger_entries e on e.transaction_id = t.id
          left join ledger_accounts a on a.id = e.account_id
          where t.idempotency_key like ${pattern}
          group by t.idempotency_key, a.user_id, a.kind),
        ak as (select distinct key from act),
        diff as (
          select coalesce(x.key, y.key) as key,
            string_agg(
              coalesce(x.kind, y.kind) || coalesce(' of user ' || coalesce(x.user_id, y.user_id), ' (platform)')
                || ' expected ' || coalesce(x.amount, 0)::text || ' got ' || coalesce(y.amount, 0)::text,
              '; ' order by coalesce(x.user_id, y.user_id) nulls last, coalesce(x.kind, y.kind)) as legs
          from exp x
          full join act y on y.key = x.key and coalesce(y.user_id, '') = coalesce(x.user_id, '') and y.kind = x.kind
          where coalesce(x.amount, 0) <> coalesce(y.amount, 0)
          group by coalesce(x.key, y.key)),
        bad as (
          select coalesce(ek.key, ak.key) as key, ek.key is not null as expected, ak.key is not null as present, d.legs
          from ek
          full join ak on ak.key = ek.key
          left join diff d on d.key = coalesce(ek.key, ak.key)
          where ek.key is null or ak.key is null or d.key is not null
          order by 1
          limit ${LIST_LIMIT})
        select bad.key, bad.expected, bad.present, bad.legs, (${rule.state(ref)}) as state from bad order by bad.key`,
  );
  return found.map((r) => {
    const state = r.state === null || r.state === undefined ? 'no such row' : String(r.state);
    const what = `${rule.name}: transaction ${String(r.key)} (${state})`;
    if (!r.present) return `${what}: missing`;
    if (!r.expected) return `${what}: not expected (it moves ${String(r.legs ?? 'nothing')})`;
    return `${what}: entries differ: ${String(r.legs)}`;
  });
}

/** orders.amount (whole points) in minor units, as SQL. */
const minor = (alias: string) => sql.raw(`(${alias}.amount::bigint * 100)`);

/** The rules that need only the tables every version has. */
function baseRules(clearance: boolean): PostingRule[] {
  const orderState = (ref: SQL) =>
    sql`select o.status || ', ' || o.amount::text || ' points, fee ' || o.fee::text from orders o where o.id = ${ref}`;
  // Where a sale's proceeds went: `pending` when it was held (clearance), else `available`.
  const saleTo = clearance
    ? sql.raw(`case when o.clears_at is null then 'available' else 'pending' end`)
    : sql.raw(`'available'`);
  // Where a refund took them from: `pending` while held and not cleared, else `available`.
  const refundFrom = clearance
    ? sql.raw(`case when o.clears_at is not null and o.cleared_at is null then 'pending' else 'available' end`)
    : sql.raw(`'available'`);
  const billState = (table: string) => (ref: SQL) =>
    sql`select b.status || ', ' || b.amount::text || ' minor' from ${sql.raw(table)} b where b.id = ${ref}`;
  const wFee = sql.raw(`(case when w.fee_points < w.amount then w.fee_points else 0 end)`);
  return [
    {
      name: 'purchase',
      prefix: 'purchase:',
      expected: sql`select 'purchase:' || o.id as key, o.buyer_id as user_id, 'available' as kind, -${minor('o')} as amount
          from orders o where o.status in (${PAID}, ${REFUNDED}) and o.amount > 0
        union all
        select 'purchase:' || o.id, o.seller_id, ${saleTo}, ${minor('o')} - o.fee
          from orders o where o.status in (${PAID}, ${REFUNDED}) and o.amount > 0
        union all
        select 'purchase:' || o.id, null, 'fees', o.fee
          from orders o where o.status in (${PAID}, ${REFUNDED}) and o.amount > 0`,
      state: orderState,
    },
    {
      name: 'refund',
      prefix: 'refund:',
      expected: sql`select 'refund:' || o.id as key, o.buyer_id as user_id, 'available' as kind, ${minor('o')} as amount
          from orders o where o.status = ${REFUNDED} and o.amount > 0
        union all
        select 'refund:' || o.id, o.seller_id, ${refundFrom}, -(${minor('o')} - o.fee)
          from orders o where o.status = ${REFUNDED} and o.amount > 0
        union all
        select 'refund:' || o.id, null, 'fees', -o.fee
          from orders o where o.status = ${REFUNDED} and o.amount > 0`,
      state: orderState,
    },
    {
      name: 'deposit',
      prefix: 'deposit:',
      expected: sql`select 'deposit:' || p.payment_ref as key, b.user_id as user_id, 'available' as kind, p.credited as amount
          from deposit_payments p join deposit_bills b on b.id = p.bill_id where p.credited > 0
        union all
        select 'deposit:' || p.payment_ref, null, 'deposits', -p.credited
          from deposit_payments p where p.credited > 0`,
      state: (ref) =>
        sql`select 'payment of bill ' || b.id || ', ' || b.status || ', credited ' || p.credited::text
            from deposit_payments p join deposit_bills b on b.id = p.bill_id where p.payment_ref = ${ref}`,
    },
    {
      name: 'withdraw-freeze',
      prefix: 'withdraw-freeze:',
      expected: sql`select 'withdraw-freeze:' || w.id as key, w.user_id as user_id, 'available' as kind, -w.amount as amount
          from withdraw_bills w where w.status in (${W_PROCESSING}, ${W_SUCCESS}, ${W_REFUNDED})
        union all
        select 'withdraw-freeze:' || w.id, w.user_id, 'frozen', w.amount
          from withdraw_bills w where w.status in (${W_PROCESSING}, ${W_SUCCESS}, ${W_REFUNDED})`,
      state: billState('withdraw_bills'),
    },
    {
      name: 'withdraw-settle',
      prefix: 'withdraw-settle:',
      expected: sql`select 'withdraw-settle:' || w.id as key, w.user_id as user_id, 'frozen' as kind, -w.amount as amount
          from withdraw_bills w where w.status = ${W_SUCCESS}
        union all
        select 'withdraw-settle:' || w.id, null, 'withdrawals', w.amount - ${wFee}
          from withdraw_bills w where w.status = ${W_SUCCESS}
        union all
        select 'withdraw-settle:' || w.id, null, 'fees', ${wFee}
          from withdraw_bills w where w.status = ${W_SUCCESS}`,
      state: billState('withdraw_bills'),
    },
    {
      name: 'withdraw-refund',
      prefix: 'withdraw-refund:',
      expected: sql`select 'withdraw-refund:' || w.id as key, w.user_id as user_id, 'frozen' as kind, -w.amount as amount
          from withdraw_bills w where w.status = ${W_REFUNDED}
        union all
        select 'withdraw-refund:' || w.id, w.user_id, 'available', w.amount
          from withdraw_bills w where w.status = ${W_REFUNDED}`,
      state: billState('withdraw_bills'),
    },
  ];
}

/** The clearance posting rule (only once orders.clears_at / cleared_at exist). */
const clearRule: PostingRule = {
  name: 'clear',
  prefix: 'clear:',
  expected: sql`select 'clear:' || o.id as key, o.seller_id as user_id, 'pending' as kind, -(${minor('o')} - o.fee) as amount
      from orders o where o.cleared_at is not null
    union all
    select 'clear:' || o.id, o.seller_id, 'available', ${minor('o')} - o.fee
      from orders o where o.cleared_at is not null`,
  state: (ref) =>
    sql`select o.status || ', ' || o.amount::text || ' points, fee ' || o.fee::text
          || case when o.cleared_at is null then ', not cleared' else ', cleared' end
        from orders o where o.id = ${ref}`,
};

/** Each deposit bill's credited amount against its payments and the ledger (one query). */
async function depositBills(db: DbOrTx): Promise<string[]> {
  const found = await rows(
    db,
    sql`select b.id, b.status, b.credited::text as credited,
          coalesce(p.credited, 0)::text as paid, coalesce(p.n, 0)::text as payments, coalesce(l.credited, 0)::text as posted
        from deposit_bills b
        left join (select bill_id, sum(credited) as credited, count(*) as n from deposit_payments group by bill_id) p on p.bill_id = b.id
        left join (
          select t.biz_id, sum(e.amount) as credited
          from ledger_transactions t
          join ledger_entries e on e.transaction_id = t.id
          join ledger_accounts a on a.id = e.account_id
          where t.idempotency_key like 'deposit:%' and a.user_id is not null
          group by t.biz_id) l on l.biz_id = b.id
        where b.credited <> coalesce(p.credited, 0)
           or b.credited <> coalesce(l.credited, 0)
           or (b.status <> ${DEPOSIT_SUCCESS} and coalesce(p.n, 0) > 0)
           or (b.status = ${DEPOSIT_SUCCESS} and coalesce(p.n, 0) = 0)
        order by b.id
        limit ${LIST_LIMIT}`,
  );
  return found.map(
    (r) =>
      `deposit bill ${String(r.id)} (${String(r.status)}): credited ${String(r.credited)}, its ${String(r.payments)} payment(s) credited ${String(r.paid)}, the ledger credited ${String(r.posted)}`,
  );
}

/** (Clearance) every user's `pending` balance against their held, uncleared paid sales (one query). */
async function pendingBalances(db: DbOrTx): Promise<string[]> {
  const found = await rows(
    db,
    sql`with exp as (
          select o.seller_id as user_id, sum(${minor('o')} - o.fee) as amount, count(*) as n
          from orders o
          where o.status = ${PAID} and o.clears_at is not null and o.cleared_at is null
          group by o.seller_id),
        act as (select user_id, balance from ledger_accounts where kind = 'pending' and user_id is not null)
        select coalesce(exp.user_id, act.user_id) as user_id, coalesce(exp.amount, 0)::text as expected,
          coalesce(exp.n, 0)::text as n, act.balance::text as balance
        from exp
        full join act on act.user_id = exp.user_id
        where act.user_id is null or coalesce(exp.amount, 0) <> act.balance
        order by 1
        limit ${LIST_LIMIT}`,
  );
  return found.map((r) =>
    r.balance === null || r.balance === undefined
      ? `pending of user ${String(r.user_id)}: no pending account, but ${String(r.n)} held sale(s) worth ${String(r.expected)}`
      : `pending of user ${String(r.user_id)}: balance ${String(r.balance)} but ${String(r.n)} held sale(s) worth ${String(r.expected)}`,
  );
}

/**
 * Database handles known to have the clearance columns. Only a yes is remembered (columns are not
 * dropped): a database without them is asked again on the next run, so the rules turn on by
 * themselves once the migration lands, even in a long-running process.
 */
const withClearance = new WeakSet<object>();

/** True when the orders table has the clearance columns (one information_schema read per handle). */
async function hasClearance(db: DbOrTx): Promise<boolean> {
  if (withClearance.has(db)) return true;
  const [r] = await rows(
    db,
    sql`select count(*)::int as n from information_schema.columns
        where table_schema = current_schema() and table_name = 'orders' and column_name in ('clears_at', 'cleared_at')`,
  );
  const yes = Number(r?.n ?? 0) === 2;
  if (yes) withClearance.add(db);
  return yes;
}

export interface ReconcileResult {
  violations: string[];
  /** Rules not run (their columns do not exist yet). */
  skipped: string[];
  counts: { orders: number; depositBills: number; withdrawBills: number };
}

/**
 * Runs every reconciliation rule (see the module comment), their queries together on a pool (see
 * {@link together}).
 */
export async function reconcile(db: DbOrTx): Promise<ReconcileResult> {
  const clearance = await hasClearance(db);
  const rules = [...baseRules(clearance), ...(clearance ? [clearRule] : [])];
  const checks: (() => Promise<string[]>)[] = [
    ...rules.map((rule) => () => postingRule(db, rule)),
    () => depositBills(db),
    ...(clearance ? [() => pendingBalances(db)] : []),
  ];
  const found = await together(db, checks);
  const [c] = await rows(
    db,
    sql`select (select count(*) from orders)::text as orders,
          (select count(*) from deposit_bills)::text as deposit_bills,
          (select count(*) from withdraw_bills)::text as withdraw_bills`,
  );
  return {
    violations: found.flat(),
    skipped: clearance ? [] : ['clear', 'pending'],
    counts: {
      orders: Number(c?.orders ?? 0),
      depositBills: Number(c?.deposit_bills ?? 0),
      withdrawBills: Number(c?.withdraw_bills ?? 0),
    },
  };
}

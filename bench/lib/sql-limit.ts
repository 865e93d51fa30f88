/**
 * The SQL half of the purchase limit (spawned by harness.ts `runSqlPurchaseLimit`, never run by
 * hand): the minimal purchase statements on a MINIMAL schema of their own (`purchase_limit`, not
 * Coffer's tables), prepared, and batched the way Coffer's pay batches are
 * (apps/server/src/lib/group-commit.ts: the keyed queue `takeBatch`, at most `maxBatch` purchases and
 * one per buyer in a batch, `commitSplitting` with its retry policy; two batches in flight, the
 * second waiting for the seller's row while the first commits), with `concurrency` purchasers each
 * waiting for its purchase before asking the next (as 16 HTTP connections do), synchronous_commit
 * on (the server's default; the bench does not change it).
 *
 * One batch is one transaction of two prepared (named) statements:
 * 1. `purchase_limit_batch`: debit each buyer whose balance covers the price (`balance >= amount`;
 *    the CHECK keeps it >= 0 anyway), and for those debited insert the order, the ledger transaction
 *    (idempotency key `purchase:<order>`) and its two entries (buyer -amount, seller +amount);
 * 2. `purchase_limit_credit`: credit the seller once with the batch's sum (the hot row, last).
 * BEGIN and COMMIT make four round trips per batch whatever its size.
 *
 * Configuration: `SQL_LIMIT_CONFIG` (JSON, {@link SqlLimitConfig}). Over Node IPC it sends
 * `{ started: true }` when the schema is ready and the timed run begins, then `{ result }` (a
 * {@link SqlLimitResult}) while its connections are still open (so that the parent reads
 * PostgreSQL's CPU before those backends exit), and ends when the parent answers `end`.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { commitSplitting, takeBatch, type Group, type Waiter } from '../../apps/server/src/lib/group-commit';

export interface SqlLimitConfig {
  databaseUrl: string;
  /** Purchasers in flight (16, as the HTTP connections of bench:purchase). */
  concurrency: number;
  seconds: number;
  /** Purchases per batch at most (Coffer's MAX_BATCH: 64). */
  maxBatch: number;
  /** Batches in flight at most (Coffer's MAX_IN_FLIGHT: 2). */
  inFlight: number;
  /** Minor units each purchase moves. */
  price: number;
}

export interface SqlLimitResult {
  done: number;
  failed: number;
  seconds: number;
  p50: number;
  p99: number;
  batches: number;
  /** CPU (user + system, ms) of this process during the run (the driver and the batching). */
  cpuMs: number;
  /** The statements, as run (printed by the bench). */
  statements: string[];
}

const BUYERS_PER_PURCHASER = 100;
const SELLER = 0;

export const SCHEMA = [
  'create schema if not exists purchase_limit',
  'create table if not exists purchase_limit.accounts (id bigint primary key, balance bigint not null check (balance >= 0))',
  'create table if not exists purchase_limit.orders (id uuid primary key, buyer_id bigint not null, seller_id bigint not null, amount bigint not null, paid_at timestamptz not null default now())',
  'create table if not exists purchase_limit.ledger_transactions (id uuid primary key, idempotency_key text not null unique, created_at timestamptz not null default now())',
  'create table if not exists purchase_limit.ledger_entries (id bigint generated always as identity primary key, transaction_id uuid not null, account_id bigint not null, amount bigint not null)',
];

const BATCH_SQL = `with d as (
  update purchase_limit.accounts a set balance = a.balance - p.amount
  from unnest($1::uuid[], $2::bigint[], $3::bigint[]) as p(order_id, buyer_id, amount)
  where a.id = p.buyer_id and a.balance >= p.amount
  returning p.order_id, p.buyer_id, p.amount
), o as (
  insert into purchase_limit.orders (id, buyer_id, seller_id, amount) select order_id, buyer_id, $4::bigint, amount from d
), t as (
  insert into purchase_limit.ledger_transactions (id, idempotency_key) select order_id, 'purchase:' || order_id from d
), e as (
  insert into purchase_limit.ledger_entries (transaction_id, account_id, amount)
  select order_id, buyer_id, -amount from d union all select order_id, $4::bigint, amount from d
)
select coalesce(sum(amount), 0)::bigint as total, coalesce(array_agg(order_id), '{}') as paid from d`;

const CREDIT_SQL = 'update purchase_limit.accounts set balance = balance + $1::bigint where id = $2::bigint';

interface Purchase {
  orderId: string;
  buyer: number;
}

async function main() {
  const config = JSON.parse(process.env.SQL_LIMIT_CONFIG ?? '') as SqlLimitConfig;
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: config.inFlight });
  const buyers = config.concurrency * BUYERS_PER_PURCHASER;
  {
    const c = await pool.connect();
    try {
      for (const s of SCHEMA) await c.query(s);
      const { rows } = await c.query<{ n: string }>('select count(*) as n from purchase_limit.accounts');
      if (Number(rows[0]!.n) === 0) {
        await c.query(
          'insert into purchase_limit.accounts (id, balance) select g, case when g = 0 then 0 else 1000000000000 end from generate_series(0, $1::int) g',
          [buyers],
        );
        await c.query('vacuum analyze purchase_limit.accounts');
      }
    } finally {
      c.release();
    }
  }

  const queue: Waiter<Purchase, boolean>[] = [];
  let inFlight = 0;
  let batches = 0;
  const commit = async (groups: Group<Purchase, boolean>[]) => {
    const c = await pool.connect();
    try {
      await c.query('begin');
      const { rows } = await c.query<{ total: string; paid: string[] }>({
        name: 'purchase_limit_batch',
        text: BATCH_SQL,
        values: [
          groups.map((g) => g.orderId),
          groups.map((g) => g.buyer),
          groups.map(() => config.price),
          SELLER,
        ],
      });
      await c.query({ name: 'purchase_limit_credit', text: CREDIT_SQL, values: [rows[0]!.total, SELLER] });
      await c.query('commit');
      return new Set(rows[0]!.paid);
    } catch (err) {
      await c.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  };
  const drain = () => {
    while (inFlight < config.inFlight && queue.length) {
      const groups = takeBatch(queue, { key: (p) => p.orderId, max: config.maxBatch, exclusive: (p) => String(p.buyer) });
      inFlight++;
      batches++;
      void commitSplitting(
        groups,
        commit,
        (gs, paid) => {
          for (const g of gs) for (const w of g.waiters) w.resolve(paid.has(g.orderId));
        },
        (g, err) => {
          for (const w of g.waiters) w.reject(err);
        },
      ).finally(() => {
        inFlight--;
        drain();
      });
    }
  };
  const purchase = (p: Purchase) =>
    new Promise<boolean>((resolve, reject) => {
      queue.push({ input: p, resolve, reject });
      drain();
    });

  const latencies: number[] = [];
  let failed = 0;
  await new Promise<void>((r) => process.send!({ started: true }, () => r()));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + config.seconds * 1000;
  batches = 0;
  await Promise.all(
    Array.from({ length: config.concurrency }, async (_, lane) => {
      for (let n = 0; performance.now() < until; n++) {
        const buyer = 1 + lane + config.concurrency * (n % BUYERS_PER_PURCHASER);
        const s = performance.now();
        const ok = await purchase({ orderId: randomUUID(), buyer }).catch(() => false);
        if (ok) latencies.push(performance.now() - s);
        else failed++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  const result: SqlLimitResult = {
    done: latencies.length,
    failed,
    seconds,
    p50: pct(50),
    p99: pct(99),
    batches,
    cpuMs: (cpu.user + cpu.system) / 1000,
    statements: ['BEGIN', BATCH_SQL.replace(/\s+/g, ' '), CREDIT_SQL, 'COMMIT'],
  };
  const ended = new Promise<void>((r) => process.once('message', () => r()));
  process.send!({ result });
  await ended;
  await pool.end();
  process.disconnect();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

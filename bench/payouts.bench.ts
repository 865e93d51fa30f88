/**
 * `npm run bench:payouts` (needs DATABASE_URL, a PostgreSQL server): how fast the payout worker
 * drains a backlog on the sandbox rail, printed, never asserted.
 *
 * On a fresh database created next to DATABASE_URL's (dropped at the end; BENCH_KEEP_DB=1 keeps it),
 * in this process: the app (`buildApp`, PAYMENTS=sandbox, WORKERS off) with 50 funded users and
 * BENCH_PAYOUTS (default 5,000) bills confirmed through `withdrawals.confirm` (the password check is
 * skipped for the seeding: it is the account module's cost, not the worker's). Then:
 * - Coffer: the app's own `payouts` worker in a worker runner whose tick is an hour away; one more
 *   confirmation wakes it, and the clock runs until no bill is left Processing. Prints the time to
 *   drain and payouts/s, and the previous worker's rate for comparison (one batch of 10 per 2 s tick).
 * - The ceiling: the sandbox provider's `sendPayout` alone (its payout book insert and read back) on
 *   fresh ids, at the worker's concurrency, for the same count: what the provider allows.
 * Checks: every bill was sent exactly once (a counting wrapper around `sendPayout`) and is
 * WithdrawStatusSuccess, one `withdraw-settle` per bill, one payout-book row per bill; then runs
 * `ledger:verify` on the bench database. Prints `os.loadavg()` with the figures.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/env';
import { createWorkerRunner } from '../apps/server/src/worker-runner';

const BILLS = Number(process.env.BENCH_PAYOUTS ?? 5000);
const USERS = 50;
const SEED_CONCURRENCY = 8;
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const here = path.dirname(fileURLToPath(import.meta.url));

if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) {
  console.error('bench:payouts needs DATABASE_URL=postgres://... (a PostgreSQL server; a fresh database is created on it)');
  process.exit(1);
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const admin = new URL(process.env.DATABASE_URL!);
const dbName = `coffer_bench_payouts_${process.pid}_${randomBytes(3).toString('hex')}`;
const benchUrl = new URL(admin);
benchUrl.pathname = `/${dbName}`;

/** Runs `job(i)` for i in [0, n) with `width` at once. */
async function pool(n: number, width: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await job(next++);
    }),
  );
}

async function main() {
  const root = new pg.Client({ connectionString: admin.toString() });
  await root.connect();
  await root.query(`create database ${dbName}`);
  await root.end();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-bench-payouts-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: benchUrl.toString(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WORKERS: 'false',
    SERVE_WEB: 'false',
    PAYMENTS: 'sandbox',
    REGISTRATIONS_PER_IP_PER_HOUR: '100000',
    API_RATE_LIMIT_MAX: '100000000',
    PAYOUT_CONCURRENCY: process.env.PAYOUT_CONCURRENCY,
  });
  const app = await buildApp({ config, logger: false });
  await app.ready();
  const { ledger, credentials } = app.ctx.services;
  const { withdrawals, provider } = app.ctx.services;
  const db = new pg.Pool({ connectionString: benchUrl.toString(), max: 2 });
  try {
    // Seeding: users funded through the ledger, bills created and confirmed through the service.
    credentials.checkPassword = async () => undefined;
    const users: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/uc/v1/account/register',
        headers: { 'content-type': 'application/json' },
        payload: {
          username: `payee_${i}_${randomBytes(3).toString('hex')}`,
          email: `payee${i}.${dbName}@example.com`,
          password: 'a'.repeat(32),
        },
      });
      const body = res.json() as { code: number; data: { access_token: string } };
      if (body.code !== 10000) throw new Error(`register failed: ${res.body}`);
      const token = body.data.access_token;
      const me = await app.inject({
        method: 'POST',
        url: '/api/uc/v1/account/get/me',
        headers: { authorization: `Bearer ${token}` },
        payload: {},
      });
      const id = (me.json() as { data: { id: string } }).data.id;
      const minor = BigInt(BILLS / USERS + 2) * 100_000n;
      await ledger.post({
        key: `bench-fund:${id}`,
        kind: 'deposit',
        bizId: `bench-fund:${id}`,
        entries: [
          { account: { platform: 'deposits' }, amount: -minor },
          { account: { userId: id, kind: 'available' }, amount: minor },
        ],
      });
      users.push(id);
    }
    const confirmOne = async (userId: string) => {
      const { bill } = await withdrawals.create(userId, {
        user_id: userId,
        currency: 'usdttrc20',
        network: 'TRX',
        amount: '1000',
        address: TRON,
        memo: '',
      });
      await withdrawals.confirm(userId, { bill_id: bill.id, password: 'x' });
    };
    const seed0 = performance.now();
    await pool(BILLS, SEED_CONCURRENCY, (i) => confirmOne(users[i % USERS]!));
    console.log(
      `bench:payouts — ${BILLS} confirmed sandbox bills seeded in ${((performance.now() - seed0) / 1000).toFixed(1)} s; PAYOUT_CONCURRENCY ${withdrawals.payoutConcurrency}; PostgreSQL ${admin.host}`,
    );

    // Every sendPayout is counted by payout id (a second send of one bill would show here).
    const sends = new Map<string, number>();
    const send = provider.sendPayout.bind(provider);
    provider.sendPayout = async (req) => {
      sends.set(req.payoutId, (sends.get(req.payoutId) ?? 0) + 1);
      return send(req);
    };

    const worker = app.ctx.workers.find((w) => w.name === 'payouts')!;
    const runner = createWorkerRunner([{ ...worker, intervalMs: 3_600_000 }], app.log);
    runner.start();
    const loadBefore = load();
    const t0 = performance.now();
    // The wake-up: one more confirmation, with the worker's tick an hour away.
    await confirmOne(users[0]!);
    const total = BILLS + 1;
    for (;;) {
      const {
        rows: [{ n }],
      } = await db.query("select count(*)::int as n from withdraw_bills where status = 'WithdrawStatusProcessing'");
      if (n === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const drainSeconds = (performance.now() - t0) / 1000;
    const loadAfter = load();
    await runner.stop();
    provider.sendPayout = send;

    // The ceiling: the provider alone, fresh ids, same concurrency, same count.
    const c0 = performance.now();
    await pool(total, withdrawals.payoutConcurrency, async () => {
      await send({
        payoutId: randomUUID(),
        currency: 'usdttrc20',
        network: 'TRX',
        address: TRON,
        memo: '',
        currencyAmount: '9.00000000',
      });
    });
    const ceilingSeconds = (performance.now() - c0) / 1000;
    const loadCeiling = load();

    const {
      rows: [counts],
    } = await db.query(
      `select (select count(*)::int from withdraw_bills where status = 'WithdrawStatusSuccess') as success,
              (select count(*)::int from withdraw_bills) as bills,
              (select count(*)::int from ledger_transactions where idempotency_key like 'withdraw-settle:%') as settles,
              (select count(*)::int from sandbox_payouts p join withdraw_bills b on b.id = p.payout_id) as book`,
    );
    const twice = [...sends.values()].filter((n) => n > 1).length;
    const rate = total / drainSeconds;
    console.log('');
    console.log('| run | payouts | seconds | payouts/s | load average (1 5 15 min) |');
    console.log('|---|---:|---:|---:|---|');
    console.log('| previous worker: one batch of 10 per 2 s tick | - | - | 5 | (by construction) |');
    console.log(
      `| Coffer worker, woken by a confirmation, draining | ${total} | ${drainSeconds.toFixed(2)} | ${rate.toFixed(0)} | ${loadBefore} -> ${loadAfter} |`,
    );
    console.log(
      `| sandbox sendPayout alone (ceiling), ${withdrawals.payoutConcurrency} at once | ${total} | ${ceilingSeconds.toFixed(2)} | ${(total / ceilingSeconds).toFixed(0)} | ${loadCeiling} |`,
    );
    console.log('');
    console.log(`ratio worker / ceiling: ${((rate / (total / ceilingSeconds)) * 100).toFixed(0)} %`);
    console.log(
      `checks: ${counts.success}/${counts.bills} bills WithdrawStatusSuccess, ${counts.settles} withdraw-settle, ${counts.book} payout-book rows, ${sends.size} bills sent, ${twice} sent more than once`,
    );
    if (counts.success !== total || counts.settles !== total || counts.book !== total || sends.size !== total || twice) {
      console.error('bench:payouts: a check failed');
      process.exitCode = 1;
    }
  } finally {
    await db.end();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  console.log('');
  console.log('ledger:verify on the bench database:');
  const verify = spawnSync(
    process.execPath,
    [...process.execArgv, path.join(here, '../apps/server/src/scripts/ledger-verify.ts')],
    {
      env: { ...process.env, DATABASE_URL: benchUrl.toString(), LOG_LEVEL: 'warn' },
      stdio: 'inherit',
    },
  );
  if (verify.status !== 0) process.exitCode = verify.status ?? 1;
}

try {
  await main();
} finally {
  if (!process.env.BENCH_KEEP_DB) {
    const root = new pg.Client({ connectionString: admin.toString() });
    await root.connect();
    await root.query(`drop database if exists ${dbName}`);
    await root.end();
  } else {
    console.log(`kept database ${dbName}`);
  }
}

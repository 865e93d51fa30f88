/**
 * Test harness (STYLE habit 8): the real app through `app.inject`, against PGlite in memory by
 * default or the PostgreSQL of `DATABASE_URL`. One app per test file; each test makes its own data.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../env';
import { ManualClock } from '../lib/clock';
import { verifyLedger } from '../modules/ledger/ledger.verify';

export const md5 = (s: string): string => createHash('md5').update(s).digest('hex');

/** A password that satisfies product §5. */
export const PASSWORD = 'Secret#123';

export interface TestApp {
  app: FastifyInstance;
  clock: ManualClock;
  dataDir: string;
  /** POSTs `body` to `url` with an optional token; returns the status and parsed envelope. */
  call<T = any>(url: string, body?: unknown, token?: string): Promise<{ status: number; body: { code: number; msg: string; data: T; reason?: string } }>;
  close(): Promise<void>;
}

/** True when DATABASE_URL names a PostgreSQL server (test/on-postgres.ts). */
export { onPostgres } from './on-postgres';

/**
 * Builds the app on a fresh temp data dir. `env` overrides configuration variables.
 * `options.logStream` turns the app's real logger on (level LOG_LEVEL, default `info` then) writing to that stream.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { logStream?: NodeJS.WritableStream; checkPaymentsMode?: boolean; adjust?: (config: Config) => void } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: process.env.DATABASE_URL || 'memory://',
    DATA_DIR: dataDir,
    LOG_LEVEL: options.logStream ? 'info' : 'silent',
    WORKERS: 'false',
    SERVE_WEB: 'false',
    PUBLIC_URL: 'http://127.0.0.1:8080',
    // Test files register many users from one address; abuse.test.ts sets its own limit.
    REGISTRATIONS_PER_IP_PER_HOUR: '100000',
    // Test files make thousands of calls from one address; api-budget.test.ts sets its own budget.
    API_RATE_LIMIT_MAX: '100000000',
    ...env,
  });
  // What no variable can say, e.g. the TON rail's offline chain (`config.ton.api`).
  options.adjust?.(config);
  const clock = new ManualClock(Date.now());
  // Test files share one PostgreSQL database across payments modes: the mode check is opt-in here.
  const app = await buildApp({ config, clock, checkPaymentsMode: options.checkPaymentsMode ?? false, ...(options.logStream ? { logStream: options.logStream } : { logger: false }) });
  await app.ready();
  return {
    app,
    clock,
    dataDir,
    async call(url, body, token) {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        payload: body === undefined ? '{}' : JSON.stringify(body),
      });
      let parsed;
      try {
        parsed = res.json();
      } catch {
        parsed = { code: -1, msg: res.body, data: undefined };
      }
      return { status: res.statusCode, body: parsed };
    },
    close: () => app.close(),
  };
}

/** Unique suffix for usernames and emails. */
export const uniq = (): string => randomBytes(5).toString('hex');

export interface TestUser {
  id: string;
  token: string;
  username: string;
  email: string;
  password: string;
}

/** Registers a user through the API (factory with overrides) and returns its id and token. */
export async function createUser(t: TestApp, overrides: Partial<{ username: string; email: string; password: string; nickname: string }> = {}): Promise<TestUser> {
  const u = uniq();
  const username = overrides.username ?? `user_${u}`;
  const email = overrides.email ?? `${username}@example.com`;
  const password = overrides.password ?? PASSWORD;
  const res = await t.call('/api/uc/v1/account/register', { username, email, password: md5(password), nickname: overrides.nickname });
  if (res.body.code !== 10000) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
  const token = res.body.data.access_token as string;
  const me = await t.call('/api/uc/v1/account/get/me', {}, token);
  return { id: me.body.data.id, token, username, email, password };
}

/** Credits `points` (decimal string) to a user's available balance through the ledger (as a deposit would). */
export async function fund(t: TestApp, userId: string, points: string, key = `test-fund:${uniq()}`): Promise<void> {
  const { pointsToMinor } = await import('@coffer/contract');
  const minor = pointsToMinor(points);
  await t.app.ctx.services.ledger.post({
    key,
    kind: 'deposit',
    bizId: key,
    entries: [
      { account: { platform: 'deposits' }, amount: -minor },
      { account: { userId, kind: 'available' }, amount: minor },
    ],
  });
}

/**
 * What the ledger transaction of idempotency key `key` (e.g. `purchase:<order id>`,
 * `refund:<order id>`) moved on the platform's fee account, in minor units (signed). Tests read a
 * fee this way rather than from the fee account's balance: on PostgreSQL every test file shares
 * one database, and others post fees to the same account at the same time.
 */
export async function feePosted(t: TestApp, key: string): Promise<bigint> {
  const { sql } = await import('drizzle-orm');
  const res = (await t.app.ctx.database.db.execute(
    sql`select coalesce(sum(e.amount), 0)::text as total
        from ledger_entries e
        join ledger_accounts a on a.id = e.account_id
        join ledger_transactions x on x.id = e.transaction_id
        where a.user_id is null and a.kind = 'fees' and x.idempotency_key = ${key}`,
  )) as unknown as { rows: { total: string }[] };
  return BigInt(res.rows[0]!.total);
}

/**
 * The newest password-reset code mailed to `email` through the outbox provider (waits for mails
 * in flight), or null when none was mailed.
 */
export async function lastResetCode(t: TestApp, email: string): Promise<string | null> {
  const { readdir, readFile } = await import('node:fs/promises');
  await t.app.ctx.services.auth.mailSettled();
  const dir = path.join(t.dataDir, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort().reverse();
  for (const file of files) {
    const raw = await readFile(path.join(dir, file), 'utf8');
    if (!new RegExp(`^To: ${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\r?$`, 'mi').test(raw)) continue;
    return /reset code is (\d{6})/.exec(raw)?.[1] ?? null;
  }
  return null;
}

/**
 * Tops up `points` (decimal string, >= 100) for `user` the way a person does: a `usdttrc20` deposit
 * bill paid in full through the sandbox route. Needs PAYMENTS=sandbox (the test default).
 * @returns the paid deposit bill
 */
export async function topUp(t: TestApp, user: TestUser, points: string): Promise<Record<string, unknown>> {
  const created = await t.call('/api/uc/v1/account/deposit', { amount: points, pay_currency: 'usdttrc20' }, user.token);
  if (created.body.code !== 10000) throw new Error(`deposit failed: ${JSON.stringify(created.body)}`);
  const paid = await t.call('/api/dev/sandbox/pay', { bill_id: created.body.data.bill.id }, user.token);
  if (paid.body.code !== 10000) throw new Error(`sandbox pay failed: ${JSON.stringify(paid.body)}`);
  return paid.body.data.bill;
}

/** The violations `npm run ledger:verify` would report on `t`'s database (ledger.verify.ts); [] when sound. */
export async function ledgerViolations(t: TestApp): Promise<string[]> {
  return (await verifyLedger(t.app.ctx.database.db)).violations;
}

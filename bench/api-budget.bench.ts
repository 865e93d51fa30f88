/**
 * `npm run bench:api-budget -w @coffer/bench`: the cost of the per-client API budget and its
 * RateLimit headers (apps/server/src/plugins/api-budget.ts, ADR 0067) on one read call, printed, never
 * asserted.
 *
 * In this process it builds the app three times (PGlite in memory, WORKERS and SERVE_WEB off, a
 * budget far above the load so nothing is refused): without the budget (`apiBudget: false`, the
 * "before"), with counters in memory, and with counters in Redis (REDIS_URL, default
 * redis://127.0.0.1:6379; skipped with a note when no Redis answers). For each it sends
 * BENCH_REQUESTS (default 3000) `POST /sl/v1/market/collections` (page 0, size 20, anonymous: the
 * address's budget) through `app.inject`, BENCH_CONCURRENCY (default 10) at a time, after 300 warm-up
 * calls, and prints requests/s, mean µs per call and the difference to "before". inject leaves out
 * HTTP and the socket, so the relative figure is an upper bound of what a client sees. The limit it
 * is measured against: the budget should cost under 10 % of the call with memory counters.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/env';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT_PERCENT = 10;

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

async function measure(name: string, env: Record<string, string>, apiBudget: boolean): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-bench-budget-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: 'memory://',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WORKERS: 'false',
    SERVE_WEB: 'false',
    API_RATE_LIMIT_MAX: '100000000',
    ...env,
  });
  const app = await buildApp({ config, logger: false, apiBudget });
  await app.ready();
  const call = async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/sl/v1/market/collections',
      payload: { paginator: { page: 0, size: 20 } },
    });
    if (res.statusCode !== 200) throw new Error(`${name}: HTTP ${res.statusCode} ${res.body}`);
    if (apiBudget && !res.headers.ratelimit) throw new Error(`${name}: no RateLimit header`);
  };
  const run = async (n: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < n) await call();
      }),
    );
  };
  try {
    await run(300);
    const load = loadavg()[0]!.toFixed(2);
    const start = process.hrtime.bigint();
    await run(REQUESTS);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const perCall = (ms * 1000) / REQUESTS;
    console.log(
      `${name.padEnd(22)} ${(REQUESTS / (ms / 1000)).toFixed(0).padStart(6)} req/s  ${perCall.toFixed(0).padStart(5)} µs/call  (load average ${load})`,
    );
    return perCall;
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `api-budget bench: ${REQUESTS} calls of POST /sl/v1/market/collections, ${CONCURRENCY} at a time, via inject; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const before = await measure('before (no budget)', {}, false);
const memory = await measure('budget, memory', {}, true);
const pct = (v: number) => `${v >= before ? '+' : ''}${(((v - before) / before) * 100).toFixed(1)} %`;
console.log(`memory counters: ${pct(memory)} per call (${(memory - before).toFixed(0)} µs; limit ${LIMIT_PERCENT} %)`);
if (await redisAnswers()) {
  const redis = await measure(
    'budget, Redis',
    { REDIS_URL, REDIS_KEY_PREFIX: `coffer-bench-${randomBytes(4).toString('hex')}:` },
    true,
  );
  console.log(`Redis counters: ${pct(redis)} per call (${(redis - before).toFixed(0)} µs, one round trip to ${REDIS_URL})`);
} else console.log(`Redis counters: skipped, no Redis answers at ${REDIS_URL}`);
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

/**
 * `npm run bench:purchase` (needs DATABASE_URL, a PostgreSQL server): purchases against their limit,
 * printed, never asserted (bench/README.md "bench:purchase"; harness: lib/harness.ts).
 *
 * On a fresh database next to DATABASE_URL's (dropped at the end; BENCH_KEEP_DB=1 keeps it), Coffer
 * runs as `npm start` runs it (lib/harness.ts `startCoffer`) with one seller and BENCH_COLLECTIONS
 * published collections at 10 points (default 200, made through the API) and 1,000 buyers seeded
 * in SQL (sessions, funded ledger accounts). The load generator (autocannon in its own process,
 * lib/purchase-scenario.ts) buys and pays over HTTP on 16 connections, each purchase a fresh
 * (buyer, collection) pair; 15 s of warm-up (BENCH_WARMUP_SECONDS) first.
 *
 * The limit (issue "Figures a user gets, against limits that are limits"): the combined rate
 * 1 / (2 / http + 1 / sql), where
 * - http: requests/s of the same two POSTs (same headers and bodies, 16 connections) against a bare
 *   Fastify answering Coffer's own buy and pay answers from memory (no database);
 * - sql: purchases/s of the minimal purchase statements (debit buyer, credit seller, insert the
 *   order, the ledger transaction and its two entries) on a minimal schema of their own, prepared
 *   and batched as lib/group-commit.ts batches Coffer's (lib/sql-limit.ts), concurrency 16,
 *   synchronous_commit on.
 * Each round runs Coffer, then http, then sql (BENCH_ROUNDS, default 3; BENCH_SECONDS each, default
 * 20), and, unless BENCH_MIXED=0, a mixed run: `collection/detail` reads (BENCH_READ_CONNECTIONS,
 * default 50) while purchases run, then the reads' own limit (the same bytes from memory). Printed:
 * every figure per round with the 1-minute load average of its run, medians and spreads, the ratios
 * and the goal (purchases >= 50 % of the combined limit). `ledger:verify` runs after every run of
 * Coffer (a violation makes the exit code 1). BENCH_IDEMPOTENCY=1 sends a fresh Idempotency-Key on
 * every buy and pay; BENCH_SERVER_NODE_ARGS (or BENCH_PROFILE=1 with BENCH_PROFILE_DIR) adds node
 * flags to the server; BENCH_HISTORY=1 appends the summary to bench/history.md.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  appendHistory,
  benchRounds,
  benchSeconds,
  Figures,
  fmt,
  LoadGenerator,
  loadText,
  machineLine,
  measured,
  mustPost,
  postJson,
  publishCollection,
  runSqlPurchaseLimit,
  scratchDatabase,
  startCoffer,
  startLimitServer,
  Summary,
  type Coffer,
  type LimitServer,
  type ScratchDatabase,
  type SummaryRow,
} from './lib/harness';
import type { LoadJob } from './lib/loadgen';
import type { PurchaseArgs, PurchaseSummary } from './lib/purchase-scenario';

const SECONDS = benchSeconds(20);
const ROUNDS = benchRounds();
/** BENCH_WARMUP_SECONDS: purchases before the first round, not measured (default 15; history.md 2026-11-27). */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 15);
const CONNECTIONS = 16;
const READ_CONNECTIONS = Number(process.env.BENCH_READ_CONNECTIONS ?? 50);
const MIXED = process.env.BENCH_MIXED !== '0';
const IDEMPOTENCY = process.env.BENCH_IDEMPOTENCY === '1';
const BUYERS = 1000;
/** 1,000 buyers x BENCH_COLLECTIONS distinct purchases in all (200,000 by default). */
const COLLECTIONS = Number(process.env.BENCH_COLLECTIONS ?? 200);
const PRICE = 10;
/** Goal of the issue: purchases at >= 50 % of the combined limit. */
const GOAL_RATIO = 0.5;
/** Goals of reads (bench:api), shown beside the mixed run's reads. */
const READ_GOAL_RATIO = 0.6;
const READ_GOAL_P99_MS = 20;
const here = path.dirname(fileURLToPath(import.meta.url));
const SCENARIO = path.join(here, 'lib/purchase-scenario.ts');

let verifyFailed = false;

/**
 * Settles the database before a measured run: VACUUM ANALYZE (the previous run's dead rows, fresh
 * statistics) and a CHECKPOINT (its dirty pages written), so that neither autovacuum nor the
 * checkpointer works off one run's writes during the next. CHECKPOINT needs a superuser; without
 * one it is skipped with a note.
 */
async function settle(pool: pg.Pool): Promise<void> {
  await pool.query('vacuum analyze');
  await pool.query('checkpoint').catch((err: Error) => console.log(`checkpoint skipped: ${err.message}`));
}

/** Runs `ledger:verify` on the bench database (its report printed); a failure sets the exit code. */
function verifyLedger(databaseUrl: string, when: string) {
  const verify = spawnSync(
    process.execPath,
    [...process.execArgv, path.join(here, '../apps/server/src/scripts/ledger-verify.ts')],
    { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }, encoding: 'utf8' },
  );
  const ok = verify.status === 0;
  if (!ok) verifyFailed = true;
  console.log(`  ledger:verify ${when}: ${ok ? 'OK' : `FAILED\n${verify.stdout}${verify.stderr}`}`);
}

/** One seller with COLLECTIONS published collections (through the API) and BUYERS funded buyers (in SQL). */
async function seed(base: string, pool: pg.Pool, dbName: string) {
  const md5 = (s: string) => createHash('md5').update(s).digest('hex');
  const sellerName = `seller_${randomBytes(4).toString('hex')}`;
  const { access_token: sellerToken } = await mustPost(base, '/api/uc/v1/account/register', {
    username: sellerName,
    email: `${sellerName}@example.com`,
    password: md5('Secret#123'),
  });
  const seller = await mustPost(base, '/api/uc/v1/account/get/me', {}, sellerToken);
  const collectionIds: string[] = [];
  for (let i = 0; i < COLLECTIONS; i++) collectionIds.push(await publishCollection(base, sellerToken, `Pack ${i}`, PRICE));

  const {
    rows: [{ password_hash: hash }],
  } = await pool.query('select password_hash from users where id = $1', [seller.id]);
  const {
    rows: [{ id: depositsId }],
  } = await pool.query("select id from ledger_accounts where user_id is null and kind = 'deposits'");
  const tokens: string[] = [];
  // Enough to buy every collection once.
  const fundMinor = COLLECTIONS * PRICE * 100;
  const c = await pool.connect();
  try {
    await c.query('begin');
    for (let i = 0; i < BUYERS; i++) {
      const id = randomUUID();
      const token = randomBytes(32).toString('base64url');
      const available = `bench-avail-${i}`;
      const txId = randomUUID();
      tokens.push(token);
      await c.query('insert into users (id, username, email, nickname, password_hash) values ($1, $2, $3, $2, $4)', [
        id,
        `buyer_${i}_${dbName.slice(-6)}`,
        `buyer${i}.${dbName}@example.com`,
        hash,
      ]);
      // A session as a sign-in opens it: stepped up now, so `order/pay` needs no password within
      // STEP_UP_MINUTES (docs/product.md §30). A run longer than that needs a fresh step-up.
      await c.query(
        "insert into sessions (id, user_id, token_hash, expires_at, stepped_up_at) values ($1, $2, $3, now() + interval '1 day', now())",
        [randomUUID(), id, createHash('sha256').update(token).digest('hex')],
      );
      await c.query(
        "insert into ledger_accounts (id, user_id, kind, balance) values ($1, $2, 'available', $3), ($4, $2, 'frozen', 0), ($5, $2, 'pending', 0)",
        [available, id, fundMinor, randomUUID(), randomUUID()],
      );
      await c.query("insert into ledger_transactions (id, idempotency_key, kind, biz_id) values ($1, $2, 'deposit', $1)", [
        txId,
        `bench-fund:${id}`,
      ]);
      await c.query('insert into ledger_entries (transaction_id, account_id, amount) values ($1, $2, $3), ($1, $4, $5)', [
        txId,
        depositsId,
        -fundMinor,
        available,
        fundMinor,
      ]);
    }
    await c.query('commit');
  } finally {
    c.release();
  }
  return { tokens, collectionIds };
}

async function main() {
  const admin = process.env.DATABASE_URL ?? '';
  if (!/^postgres(ql)?:\/\//.test(admin)) {
    console.error('bench:purchase needs DATABASE_URL=postgres://... (a PostgreSQL server; a fresh database is created on it)');
    process.exit(1);
  }
  let db: ScratchDatabase | undefined;
  let coffer: Coffer | undefined;
  let limit: LimitServer | undefined;
  let pool: pg.Pool | undefined;
  const buyLoader = new LoadGenerator();
  const readLoader = new LoadGenerator();
  try {
    db = await scratchDatabase(admin, 'purchase');
    const profile =
      process.env.BENCH_PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR ?? process.cwd()}`] : [];
    coffer = await startCoffer({
      databaseUrl: db.url,
      nodeArgs: [...profile, ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)],
    });
    const base = coffer.base;
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    console.log(`seeding: 1 seller with ${COLLECTIONS} collections (through the API), ${BUYERS} buyers (SQL)`);
    const { tokens, collectionIds } = await seed(base, pool, db.name);

    // Pair 0 (buyer 0, collection 0) is bought here, for the bytes the http limit answers.
    const buy0 = await postJson(base, '/sl/v1/collection/buy', { collection_id: collectionIds[0] }, tokens[0]);
    const pay0 = await postJson(
      base,
      '/api/uc/v1/account/order/pay',
      { order_id: buy0.body.data.id, amount: buy0.body.data.amount },
      tokens[0],
    );
    if (pay0.body.code !== 10000) throw new Error(`the first purchase failed: ${pay0.text}`);
    const detailBody = JSON.stringify({ collection_id: collectionIds[1] });
    await postJson(base, '/sl/v1/collection/detail', JSON.parse(detailBody));
    const detail = await postJson(base, '/sl/v1/collection/detail', JSON.parse(detailBody));
    limit = await startLimitServer({
      routes: [
        // The pending order as the buy answered it, so the scenario pays it as it would Coffer's.
        { path: '/sl/v1/collection/buy', kind: 'bytes', body: buy0.text },
        { path: '/api/uc/v1/account/order/pay', kind: 'bytes', body: pay0.text },
        { path: '/detail', kind: 'bytes', body: detail.text },
      ],
    });
    let next = 1;
    const purchases = (url: string, duration: number, bare = false): LoadJob => ({
      url,
      connections: CONNECTIONS,
      duration,
      scenario: SCENARIO,
      args: { tokens, collectionIds, start: bare ? 0 : next, bare, idempotency: IDEMPOTENCY } satisfies PurchaseArgs,
    });
    const reads = (url: string, duration: number): LoadJob => ({
      url,
      connections: READ_CONNECTIONS,
      duration,
      headers: { 'content-type': 'application/json' },
      body: detailBody,
    });
    const sqlConfig = { databaseUrl: db.url, concurrency: CONNECTIONS, maxBatch: 64, inFlight: 2, price: PRICE * 100 };

    console.log(
      `\nbench:purchase — ${BUYERS} buyers, 1 seller, ${COLLECTIONS} collections at ${PRICE} points, ${CONNECTIONS} connections, ` +
        `${ROUNDS} rounds of ${SECONDS} s per run, mixed run ${MIXED ? `on (${READ_CONNECTIONS} read connections)` : 'off'}, ` +
        `Idempotency-Key ${IDEMPOTENCY ? 'on every call' : 'not sent'}, ${machineLine()}`,
    );
    console.log(`http limit: bare Fastify answering Coffer's buy (${buy0.text.length} bytes) and pay (${pay0.text.length} bytes) answers`);

    console.log(`warm-up: ${WARMUP_SECONDS} s of purchases on Coffer, 1 s on the http limit, 2 s of the sql limit; not measured`);
    const warm = await buyLoader.run(purchases(base, WARMUP_SECONDS));
    next = (warm.scenario as unknown as PurchaseSummary).next;
    await buyLoader.run(purchases(limit.base, 1, true));
    if (MIXED) await readLoader.run(reads(base + '/sl/v1/collection/detail', 1));
    const sqlWarm = await runSqlPurchaseLimit({ ...sqlConfig, seconds: 2 });
    console.log(`sql limit statements (prepared, one transaction per batch):\n  ${sqlWarm.statements.join(';\n  ')}`);

    const figures = new Figures();
    const problems: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round} of ${ROUNDS} (load ${loadText()})`);
      await settle(pool);
      const cof = await measured({ server: coffer.pid, postgres: 'postgres', loadgen: buyLoader.pid }, () =>
        buyLoader.run(purchases(base, SECONDS)),
      );
      const s = cof.result.scenario as unknown as PurchaseSummary;
      next = s.next;
      if (s.failed) problems.push(`Coffer round ${round}: ${s.failed} failed purchases (first: ${s.firstFailure})`);
      const rate = s.done / cof.result.seconds;
      verifyLedger(db.url, `after Coffer's round ${round}`);

      const http = await measured({ server: limit.pid }, () => buyLoader.run(purchases(limit!.base, SECONDS, true)));
      await settle(pool);
      const sql = await runSqlPurchaseLimit({ ...sqlConfig, seconds: SECONDS });
      const sqlRate = sql.done / sql.seconds;
      const combined = 1 / (2 / http.result.rps + 1 / sqlRate);
      if (sql.failed) problems.push(`sql limit round ${round}: ${sql.failed} failed`);

      figures.record('Coffer purchases', 'purchases/s', rate, cof.load);
      figures.record('Coffer purchase p99 (buy + pay)', 'ms', s.p99, cof.load);
      figures.record('Coffer server CPU per purchase', 'ms', cof.cpu.server! / Math.max(1, s.done), cof.load);
      figures.record('PostgreSQL CPU per purchase (Coffer)', 'ms', cof.cpu.postgres! / Math.max(1, s.done), cof.load);
      figures.record('http limit: two bare Fastify POSTs', 'req/s', http.result.rps, http.load);
      figures.record('sql limit: minimal statements, batched', 'purchases/s', sqlRate, sql.load);
      figures.record('PostgreSQL CPU per purchase (sql limit)', 'ms', sql.postgresCpuMs / Math.max(1, sql.done), sql.load);
      figures.record('combined limit 1 / (2 / http + 1 / sql)', 'purchases/s', combined, Math.max(http.load, sql.load));
      figures.record('Coffer / combined limit', '%', rate / combined, cof.load);
      console.log(
        `  Coffer ${fmt(rate)} purchases/s p99 ${s.p99.toFixed(1)} ms (load ${cof.load.toFixed(1)}); http ${fmt(http.result.rps)} req/s ` +
          `(load ${http.load.toFixed(1)}); sql ${fmt(sqlRate)} purchases/s in ${sql.batches} batches (load ${sql.load.toFixed(1)}); ` +
          `combined ${fmt(combined)} purchases/s; ratio ${fmt((rate / combined) * 100)} %`,
      );

      if (MIXED) {
        await settle(pool);
        const mixed = await measured({ server: coffer.pid }, () =>
          Promise.all([buyLoader.run(purchases(base, SECONDS)), readLoader.run(reads(base + '/sl/v1/collection/detail', SECONDS))]),
        );
        const [mBuy, mRead] = mixed.result;
        const ms = mBuy.scenario as unknown as PurchaseSummary;
        next = ms.next;
        if (ms.failed) problems.push(`mixed round ${round}: ${ms.failed} failed purchases (first: ${ms.firstFailure})`);
        if (mRead.non2xx || mRead.errors) problems.push(`mixed round ${round}: reads ${mRead.non2xx} non-2xx, ${mRead.errors} errors`);
        verifyLedger(db.url, `after the mixed round ${round}`);
        const readLimit = await measured({ server: limit.pid }, () => readLoader.run(reads(limit!.base + '/detail', SECONDS)));
        const mRate = ms.done / mBuy.seconds;
        figures.record('mixed: Coffer purchases', 'purchases/s', mRate, mixed.load);
        figures.record('mixed: Coffer collection/detail', 'req/s', mRead.rps, mixed.load);
        figures.record('mixed: collection/detail p99', 'ms', mRead.p99, mixed.load);
        figures.record('read limit: same bytes from memory', 'req/s', readLimit.result.rps, readLimit.load);
        figures.record('mixed: purchases / combined limit', '%', mRate / combined, mixed.load);
        figures.record('mixed: reads / read limit', '%', mRead.rps / readLimit.result.rps, mixed.load);
        figures.record('mixed: both fractions summed', '%', mRate / combined + mRead.rps / readLimit.result.rps, mixed.load);
        console.log(
          `  mixed: ${fmt(mRate)} purchases/s with ${fmt(mRead.rps)} reads/s (p99 ${mRead.p99} ms) (load ${mixed.load.toFixed(1)}); ` +
            `read limit ${fmt(readLimit.result.rps)} req/s (load ${readLimit.load.toFixed(1)})`,
        );
      }
    }

    const rows: SummaryRow[] = [
      {
        what: `purchases, buy + pay (${CONNECTIONS} conn.), limit 1 / (2 / http + 1 / sql)`,
        coffer: 'Coffer purchases',
        limit: 'combined limit 1 / (2 / http + 1 / sql)',
        ratio: 'Coffer / combined limit',
        p99: 'Coffer purchase p99 (buy + pay)',
        goalRatio: GOAL_RATIO,
      },
      ...(MIXED
        ? [
            {
              what: 'mixed: purchases while collection/detail reads run, against the combined limit',
              coffer: 'mixed: Coffer purchases',
              limit: 'combined limit 1 / (2 / http + 1 / sql)',
              ratio: 'mixed: purchases / combined limit',
              goalRatio: GOAL_RATIO,
            },
            {
              what: `mixed: collection/detail (${READ_CONNECTIONS} conn.) while purchases run, against the same bytes from memory`,
              coffer: 'mixed: Coffer collection/detail',
              limit: 'read limit: same bytes from memory',
              ratio: 'mixed: reads / read limit',
              p99: 'mixed: collection/detail p99',
              goalRatio: READ_GOAL_RATIO,
              goalP99: READ_GOAL_P99_MS,
            },
          ]
        : []),
    ];
    const summary = new Summary(figures, rows);
    const limits =
      `http ${figures.medianText('http limit: two bare Fastify POSTs')} (${figures.spread('http limit: two bare Fastify POSTs')}), ` +
      `sql ${figures.medianText('sql limit: minimal statements, batched')} (${figures.spread('sql limit: minimal statements, batched')}), ` +
      `combined ${figures.medianText('combined limit 1 / (2 / http + 1 / sql)')} (medians, spreads in brackets)`;
    console.log(`\nEvery round (value, and the 1-minute load average when its run started):\n\n${figures.table()}`);
    console.log(`\nLimits: ${limits}.\n\nMedians of ${ROUNDS} rounds against the limits and the goals:\n\n${summary.table()}`);
    for (const p of problems) console.log(`warning: ${p}`);
    console.log(`\nload average at the end: ${loadText()}; ledger:verify ${verifyFailed ? 'FAILED at least once' : 'OK after every Coffer run'}`);
    appendHistory(
      'bench:purchase',
      `${CONNECTIONS} connections, PostgreSQL, Coffer as \`npm start\` runs it. Limits: ${limits}. ledger:verify ${verifyFailed ? 'FAILED' : 'OK'}.\n\n` +
        `${summary.table()}\n\n<details><summary>every round</summary>\n\n${figures.table()}\n\n</details>`,
    );
  } finally {
    await buyLoader.stop();
    await readLoader.stop();
    await pool?.end();
    await limit?.stop();
    await coffer?.stop();
    await db?.drop();
  }
}

try {
  await main();
  if (verifyFailed) process.exitCode = 1;
} catch (err) {
  console.error(err);
  process.exitCode = 1;
}

/**
 * `npm run bench:purchase` (needs DATABASE_URL, a PostgreSQL server): purchase throughput, printed,
 * never asserted.
 *
 * On a fresh database created next to DATABASE_URL's (dropped at the end; BENCH_KEEP_DB=1 keeps it):
 * - Coffer (`apps/server/dist/server.js` as `npm start` runs it, built first when stale, in a child
 *   process; request logs off) with 1,000 funded buyers and one seller
 *   with 100 published collections (price 10 points). 16 connections buy + pay over HTTP
 *   (`collection/buy`, then `account/order/pay`) for BENCH_SECONDS (default 20): each purchase is a
 *   fresh (buyer, collection) pair, so every one moves money.
 * - The minimal purchase transaction (the yardstick of issue #15): BEGIN; insert the ledger
 *   transaction; insert its two entries; debit the buyer; credit the seller (last); COMMIT — through
 *   `pg` at the same concurrency, then the same four statements through `pgbench` (16 clients) when
 *   it is on PATH.
 * Each run starts on a settled database (VACUUM ANALYZE, CHECKPOINT). Prints purchases/s, p50/p99 latency, the ratio Coffer / minimal transaction and os.loadavg() per
 * run, and runs `ledger:verify` after every run (a violation makes the exit code 1). BENCH_PROFILE=1
 * writes the server's CPU profile (`node --cpu-prof`) into BENCH_PROFILE_DIR when it stops.
 * BENCH_ROUNDS=N measures Coffer and the yardstick N times, alternating (Coffer, pg, pgbench, then
 * again), and ends with a table of every round and the median and lowest ratio: on a shared 2-core
 * machine a single pair of runs moves by 10-20 % from one minute to the next. The 100,000 distinct
 * (buyer, collection) pairs last about five rounds of 20 s.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/**
 * BENCH_WARMUP_SECONDS: purchases before the first measured run (default 15). With 2 s the first
 * round ran at 315-327 purchases/s and 2.34 ms of server CPU each, the next ones at 389-460 and
 * 1.48-1.70 ms (2026-11-27): the server was not warm yet (bench/README.md).
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 15);
/** BENCH_ROUNDS: Coffer and its yardstick measured this many times, alternating (default 1). */
const ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 1)) || 1);
const CONNECTIONS = 16;
const BUYERS = 1000;
const COLLECTIONS = 100;
const PRICE = 10;
/** Minor units moved by each minimal transaction (10 points, as a purchase). */
const MINIMAL_PRICE = PRICE * 100;
const here = path.dirname(fileURLToPath(import.meta.url));

if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) {
  console.error('bench:purchase needs DATABASE_URL=postgres://... (a PostgreSQL server; a fresh database is created on it)');
  process.exit(1);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** BENCH_IDEMPOTENCY=1: every buy and pay carries a fresh Idempotency-Key (the store's cost: ADR 0051). */
const IDEMPOTENCY = process.env.BENCH_IDEMPOTENCY === '1';

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** POST through a keep-alive agent (lighter on the shared CPU than fetch). */
function post(
  base: string,
  url: string,
  body: unknown,
  token?: string,
  idempotencyKey?: string,
): Promise<{ code: number; msg: string; data: any }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      base + url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function must(base: string, url: string, body: unknown, token?: string) {
  const out = await post(base, url, body, token);
  if (out.code !== 10000) throw new Error(`${url}: ${out.msg}`);
  return out.data;
}

const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

/** CPU time (user + system) a process has used, in ms, from /proc/<pid>/stat. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

/** CPU time (ms) used so far by every PostgreSQL process on this machine (backends and background workers). */
function postgresCpuMs(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuMs(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** CPU time (ms, user + system) this bench process has used (the load generator). */
const selfCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Run {
  name: string;
  done: number;
  failed: number;
  seconds: number;
  latencies: number[];
  /** os.loadavg() when the run started. */
  load: number[];
}

/** Runs `job` on CONNECTIONS loops for SECONDS; each call takes the next pair index. */
async function load(name: string, next: () => number, job: (k: number) => Promise<boolean>): Promise<Run> {
  const latencies: number[] = [];
  let failed = 0;
  const load0 = loadavg();
  const until = performance.now() + SECONDS * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const k = next();
        const s = performance.now();
        if (await job(k)) latencies.push(performance.now() - s);
        else failed++;
      }
    }),
  );
  return {
    name,
    done: latencies.length,
    failed,
    seconds: (performance.now() - t0) / 1000,
    latencies: latencies.sort((a, b) => a - b),
    load: load0,
  };
}

const admin = new URL(process.env.DATABASE_URL!);
const dbName = `coffer_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
const benchUrl = new URL(admin);
benchUrl.pathname = `/${dbName}`;

let verifyFailed = false;

/**
 * Settles the bench database before a measured run: VACUUM ANALYZE (the previous phase's dead rows
 * and fresh statistics) and a CHECKPOINT (its dirty pages written), so that neither autovacuum nor
 * the checkpointer works off one run's writes during the next. CHECKPOINT needs a superuser; without
 * one it is skipped with a note.
 */
async function settle(pool: pg.Pool): Promise<void> {
  await pool.query('vacuum analyze');
  await pool.query('checkpoint').catch((err: Error) => console.log(`checkpoint skipped: ${err.message}`));
}

/** Runs `ledger:verify` on the bench database (prints its report); a failure sets the exit code. */
function verifyLedger(when: string) {
  console.log(`ledger:verify ${when}:`);
  const verify = spawnSync(
    process.execPath,
    [...process.execArgv, path.join(here, '../apps/server/src/scripts/ledger-verify.ts')],
    {
      env: { ...process.env, DATABASE_URL: benchUrl.toString(), LOG_LEVEL: 'warn' },
      stdio: 'inherit',
    },
  );
  if (verify.status !== 0) verifyFailed = true;
}

async function main() {
  const root = new pg.Client({ connectionString: admin.toString() });
  await root.connect();
  await root.query(`create database ${dbName}`);
  await root.end();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-bench-purchase-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_PROFILE=1: the server writes a V8 CPU profile (.cpuprofile) into BENCH_PROFILE_DIR (default
  // the working directory) when it exits at the end of the bench.
  const profile =
    process.env.BENCH_PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR ?? process.cwd()}`] : [];
  // The server as `npm start` runs it (compiled, the build refreshed first when stale), request logs
  // at npm start's default level (info; written to stdout, dropped here); BENCH_LOG_LEVEL=warn turns
  // them off, as every bench:purchase run before 2026-11-29 did.
  const built = spawnSync(process.execPath, [path.join(here, '../scripts/start.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build failed');
  const server = spawn(process.execPath, [...profile, '--conditions=coffer-compiled', 'dist/server.js'], {
    cwd: path.join(here, '../apps/server'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: benchUrl.toString(),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      WORKERS: 'false',
      SERVE_WEB: 'false',
      // Load from one address; the per-client budget (docs/api.md "Rate limits") would refuse it.
      API_RATE_LIMIT_MAX: '100000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pool = new pg.Pool({ connectionString: benchUrl.toString(), max: CONNECTIONS });
  try {
    for (let i = 0; ; i++) {
      const ok = await fetch(`${base}/api/uc/v1/account/get/me`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }).then(
        (r) => r.status === 401,
        () => false,
      );
      if (ok) break;
      if (i > 300) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }

    // Seller with 100 published collections, through the API.
    const sellerName = `seller_${randomBytes(4).toString('hex')}`;
    const { access_token: sellerToken } = await must(base, '/api/uc/v1/account/register', {
      username: sellerName,
      email: `${sellerName}@example.com`,
      password: md5('Secret#123'),
    });
    const seller = await must(base, '/api/uc/v1/account/get/me', {}, sellerToken);
    const collectionIds: string[] = [];
    for (let i = 0; i < COLLECTIONS; i++) {
      const c = await must(
        base,
        '/sl/v1/collection/create',
        { title: `Pack ${i}`, desc: 'Benchmark pack', amount: PRICE },
        sellerToken,
      );
      const body = Buffer.from(`file ${i}`);
      const up = await must(
        base,
        '/sl/v1/upload/resource/url',
        { file_name: `f${i}.txt`, size: body.length, md5: md5(body), content_type: 'text/plain' },
        sellerToken,
      );
      await fetch(up.url, { method: 'PUT', body, headers: { 'content-type': 'text/plain' } });
      const r = await must(base, '/sl/v1/complete/upload', { upload_id: up.upload_id, parts: [] }, sellerToken);
      await must(base, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, sellerToken);
      await must(base, '/sl/v1/collection/publish', { collection_id: c.id }, sellerToken);
      collectionIds.push(c.id);
    }

    // 1,000 buyers, seeded in SQL (sessions, ledger accounts and a balanced funding posting each),
    // with enough points to buy every collection.
    const {
      rows: [{ password_hash: hash }],
    } = await pool.query('select password_hash from users where id = $1', [seller.id]);
    const {
      rows: [{ id: depositsId }],
    } = await pool.query("select id from ledger_accounts where user_id is null and kind = 'deposits'");
    const buyers: { id: string; token: string; available: string }[] = [];
    // Enough for every collection and for the minimal-transaction runs on top.
    const fundMinor = COLLECTIONS * PRICE * 100 * 50;
    const seedClient = await pool.connect();
    try {
      await seedClient.query('begin');
      for (let i = 0; i < BUYERS; i++) {
        const id = randomUUID();
        const token = randomBytes(32).toString('base64url');
        const available = `bench-avail-${i}`;
        const txId = randomUUID();
        buyers.push({ id, token, available });
        await seedClient.query('insert into users (id, username, email, nickname, password_hash) values ($1, $2, $3, $2, $4)', [
          id,
          `buyer_${i}_${dbName.slice(-6)}`,
          `buyer${i}.${dbName}@example.com`,
          hash,
        ]);
        // A session as a sign-in opens it: stepped up now, so `order/pay` needs no password within
        // STEP_UP_MINUTES (docs/product.md §30; the runs end well within 15 minutes of the seed).
        await seedClient.query(
          "insert into sessions (id, user_id, token_hash, expires_at, stepped_up_at) values ($1, $2, $3, now() + interval '1 day', now())",
          [randomUUID(), id, createHash('sha256').update(token).digest('hex')],
        );
        await seedClient.query(
          "insert into ledger_accounts (id, user_id, kind, balance) values ($1, $2, 'available', $3), ($4, $2, 'frozen', 0), ($5, $2, 'pending', 0)",
          [available, id, fundMinor, randomUUID(), randomUUID()],
        );
        await seedClient.query(
          "insert into ledger_transactions (id, idempotency_key, kind, biz_id) values ($1, $2, 'deposit', $1)",
          [txId, `bench-fund:${id}`],
        );
        await seedClient.query(
          'insert into ledger_entries (transaction_id, account_id, amount) values ($1, $2, $3), ($1, $4, $5)',
          [txId, depositsId, -fundMinor, available, fundMinor],
        );
      }
      await seedClient.query('commit');
    } finally {
      seedClient.release();
    }
    const { rows: sellerAccounts } = await pool.query(
      "select id from ledger_accounts where user_id = $1 and kind = 'available'",
      [seller.id],
    );
    const sellerAvailable = sellerAccounts[0].id as string;
    console.log(
      `log level ${process.env.BENCH_LOG_LEVEL ?? 'info'}; Idempotency-Key ${IDEMPOTENCY ? 'on every buy and pay' : 'not sent'}`,
    );
    console.log(
      `bench:purchase — ${BUYERS} buyers, 1 seller with ${COLLECTIONS} collections at ${PRICE} points, ${CONNECTIONS} connections, ${SECONDS} s per run`,
    );

    let k = 0;
    // Consecutive purchases hit different collections (and buyers) of the one seller: the seller's
    // balance row is the hot spot, as in a shop with one popular seller.
    // Pair i = q * 1000 + b is (buyer b, collection (b + q) mod 100): unique for all 100,000 pairs.
    const pair = (i: number) => ({
      buyer: buyers[i % BUYERS]!,
      collectionId: collectionIds[(i + Math.floor(i / BUYERS)) % COLLECTIONS]!,
    });

    // Warm-up (JIT, connection pools, prepared statements), on its own pairs: BENCH_WARMUP_SECONDS.
    console.log(`warm-up: ${WARMUP_SECONDS} s of purchases, not measured`);
    const warmUntil = performance.now() + WARMUP_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < warmUntil) {
          const { buyer, collectionId } = pair(k++);
          const order = await post(base, '/sl/v1/collection/buy', { collection_id: collectionId }, buyer.token);
          if (order.code === 10000)
            await post(base, '/api/uc/v1/account/order/pay', { order_id: order.data.id, amount: order.data.amount }, buyer.token);
        }
      }),
    );

    /** Each round's figures, for the summary of BENCH_ROUNDS > 1. */
    const rounds: { coffer: number; pg: number; pgbench: number | null; serverCpu: number; load: number[] }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      if (ROUNDS > 1) console.log(`\n--- round ${round} of ${ROUNDS}`);
      await settle(pool);
      /** Latency of each call of the purchases, ms (`collection/buy`, then `account/order/pay`). */
      const buyMs: number[] = [];
      const payMs: number[] = [];
      const serverCpu0 = cpuMs(server.pid!);
      const pgCpu0 = postgresCpuMs();
      const selfCpu0 = selfCpuMs();
      const http = await load(
        'Coffer over HTTP (buy + pay)',
        () => k++,
        async (i) => {
          const { buyer, collectionId } = pair(i);
          const t0 = performance.now();
          const key = IDEMPOTENCY ? randomUUID() : undefined;
          const order = await post(
            base,
            '/sl/v1/collection/buy',
            { collection_id: collectionId },
            buyer.token,
            key && `${key}-buy`,
          );
          if (order.code !== 10000) return false;
          const t1 = performance.now();
          const paid = await post(
            base,
            '/api/uc/v1/account/order/pay',
            { order_id: order.data.id, amount: order.data.amount },
            buyer.token,
            key && `${key}-pay`,
          );
          buyMs.push(t1 - t0);
          payMs.push(performance.now() - t1);
          return paid.code === 10000 && paid.data.status === 'OrderStatusPaid';
        },
      );
      buyMs.sort((a, b) => a - b);
      payMs.sort((a, b) => a - b);

      const serverCpuPerPurchase = (cpuMs(server.pid!) - serverCpu0) / Math.max(1, http.done);
      const pgCpuPerPurchase = (postgresCpuMs() - pgCpu0) / Math.max(1, http.done);
      const selfCpuPerPurchase = (selfCpuMs() - selfCpu0) / Math.max(1, http.done);

      verifyLedger(`after "${http.name}"`);

      // The minimal purchase transaction (the issue's yardstick): insert the ledger transaction, its
      // two entries, debit the buyer, credit the seller last; nothing else. Same buyers, same seller.
      const minimalSql = async () => {
        const b = buyers[Math.floor(Math.random() * BUYERS)]!;
        const txId = randomUUID();
        const client = await pool.connect();
        try {
          await client.query('begin');
          await client.query(
            "insert into ledger_transactions (id, idempotency_key, kind, biz_id) values ($1, 'minimal:' || $1, 'purchase', $1)",
            [txId],
          );
          await client.query(
            'insert into ledger_entries (transaction_id, account_id, amount) values ($1, $2, $3), ($1, $4, $5)',
            [txId, b.available, -MINIMAL_PRICE, sellerAvailable, MINIMAL_PRICE],
          );
          await client.query('update ledger_accounts set balance = balance + $1::bigint where id = $2', [
            -MINIMAL_PRICE,
            b.available,
          ]);
          await client.query('update ledger_accounts set balance = balance + $1::bigint where id = $2', [
            MINIMAL_PRICE,
            sellerAvailable,
          ]);
          await client.query('commit');
          return true;
        } catch (err) {
          await client.query('rollback').catch(() => undefined);
          console.error(err);
          return false;
        } finally {
          client.release();
        }
      };
      await settle(pool);
      const pgCpuMin0 = postgresCpuMs();
      const minimal = await load('minimal transaction through pg (4 statements)', () => 0, minimalSql);
      const pgCpuPerMinimal = (postgresCpuMs() - pgCpuMin0) / Math.max(1, minimal.done);
      verifyLedger(`after "${minimal.name}"`);

      // The same four statements through pgbench (a C client), when it is on PATH.
      let pgbench: Run | null = null;
      const scriptDir = mkdtempSync(path.join(tmpdir(), 'coffer-bench-pgbench-'));
      try {
        const script = path.join(scriptDir, 'purchase.sql');
        writeFileSync(
          script,
          [
            `\\set b random(0, ${BUYERS - 1})`,
            'BEGIN;',
            "INSERT INTO ledger_transactions (id, idempotency_key, kind, biz_id) SELECT u, 'minimal:' || u, 'purchase', u FROM (SELECT gen_random_uuid()::text AS u) g RETURNING quote_literal(id) AS tx \\gset",
            `INSERT INTO ledger_entries (transaction_id, account_id, amount) VALUES (:tx, 'bench-avail-' || :b, -${MINIMAL_PRICE}), (:tx, :seller, ${MINIMAL_PRICE});`,
            `UPDATE ledger_accounts SET balance = balance - ${MINIMAL_PRICE} WHERE id = 'bench-avail-' || :b;`,
            `UPDATE ledger_accounts SET balance = balance + ${MINIMAL_PRICE} WHERE id = :seller;`,
            'END;',
            '',
          ].join('\n'),
        );
        await settle(pool);
        const load0 = loadavg();
        const out = spawnSync(
          'pgbench',
          [
            '-n',
            '-c',
            String(CONNECTIONS),
            '-j',
            '2',
            '-T',
            String(SECONDS),
            '-r',
            '-f',
            script,
            '-D',
            `seller='${sellerAvailable}'`,
            benchUrl.toString(),
          ],
          { encoding: 'utf8' },
        );
        const tps = /tps = ([\d.]+)/.exec(out.stdout ?? '');
        const lat = /latency average = ([\d.]+) ms/.exec(out.stdout ?? '');
        if (out.status === 0 && tps) {
          const n = Math.round(Number(tps[1]) * SECONDS);
          pgbench = {
            name: 'minimal transaction through pgbench',
            done: n,
            failed: 0,
            seconds: SECONDS,
            latencies: [],
            load: load0,
          };
          console.log(`pgbench: ${tps[1]} tps, latency average ${lat?.[1] ?? '?'} ms`);
        } else {
          console.log(`pgbench not run (${out.error?.message ?? out.stderr?.trim() ?? 'no output'})`);
        }
      } finally {
        rmSync(scriptDir, { recursive: true, force: true });
      }
      if (pgbench) verifyLedger(`after "${pgbench.name}"`);

      const rate = (r: Run) => r.done / r.seconds;
      const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
      console.log('');
      console.log('| run | purchases/s | p50 ms | p99 ms | failed | load average before (1/5/15 min) |');
      console.log('|---|---:|---:|---:|---:|---|');
      for (const r of [http, minimal, ...(pgbench ? [pgbench] : [])]) {
        const p = (q: number) => (r.latencies.length ? percentile(r.latencies, q).toFixed(1) : '-');
        console.log(`| ${r.name} | ${rate(r).toFixed(0)} | ${p(50)} | ${p(99)} | ${r.failed} | ${la(r.load)} |`);
      }
      console.log('');
      console.log(`ratio Coffer / minimal transaction (pg): ${(rate(http) / rate(minimal)).toFixed(2)}x`);
      if (pgbench) console.log(`ratio Coffer / minimal transaction (pgbench): ${(rate(http) / rate(pgbench)).toFixed(2)}x`);
      console.log(
        `Coffer's calls, p50 / p99 ms: collection/buy ${percentile(buyMs, 50).toFixed(1)} / ${percentile(buyMs, 99).toFixed(1)}, account/order/pay ${percentile(payMs, 50).toFixed(1)} / ${percentile(payMs, 99).toFixed(1)}`,
      );
      console.log(`Coffer server CPU per purchase (buy + pay, user + system): ${serverCpuPerPurchase.toFixed(2)} ms`);
      console.log(
        `CPU per purchase elsewhere: PostgreSQL ${pgCpuPerPurchase.toFixed(2)} ms, load generator ${selfCpuPerPurchase.toFixed(2)} ms; PostgreSQL per minimal transaction (pg): ${pgCpuPerMinimal.toFixed(2)} ms`,
      );
      console.log(`load average now: ${la(loadavg())}`);
      rounds.push({
        coffer: rate(http),
        pg: rate(minimal),
        pgbench: pgbench ? rate(pgbench) : null,
        serverCpu: serverCpuPerPurchase,
        load: http.load,
      });
    }
    if (ROUNDS > 1) {
      const median = (xs: number[]) => {
        const v = [...xs].sort((a, b) => a - b);
        return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
      };
      console.log(`\n${ROUNDS} rounds, each Coffer then the minimal transaction (pg, pgbench), ${SECONDS} s per run:`);
      console.log(
        '| round | Coffer purchases/s | minimal pg TPS | minimal pgbench TPS | ratio pg | ratio pgbench | server CPU ms / purchase | load before |',
      );
      console.log('|---:|---:|---:|---:|---:|---:|---:|---|');
      rounds.forEach((r, i) =>
        console.log(
          `| ${i + 1} | ${r.coffer.toFixed(0)} | ${r.pg.toFixed(0)} | ${r.pgbench?.toFixed(0) ?? '-'} | ${(r.coffer / r.pg).toFixed(2)}x | ${r.pgbench ? `${(r.coffer / r.pgbench).toFixed(2)}x` : '-'} | ${r.serverCpu.toFixed(2)} | ${r.load.map((x) => x.toFixed(2)).join(' ')} |`,
        ),
      );
      const pgRatios = rounds.map((r) => r.coffer / r.pg);
      const benchRatios = rounds.filter((r) => r.pgbench).map((r) => r.coffer / r.pgbench!);
      console.log(
        `ratio Coffer / minimal transaction over ${ROUNDS} rounds: pg median ${median(pgRatios).toFixed(2)}x (min ${Math.min(...pgRatios).toFixed(2)}x)` +
          (benchRatios.length
            ? `, pgbench median ${median(benchRatios).toFixed(2)}x (min ${Math.min(...benchRatios).toFixed(2)}x)`
            : ''),
      );
    }
  } finally {
    await pool.end();
    agent.destroy();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function dropBenchDatabase() {
  if (!process.env.BENCH_KEEP_DB) {
    const root2 = new pg.Client({ connectionString: admin.toString() });
    await root2.connect();
    await root2.query(`drop database if exists ${dbName}`);
    await root2.end();
  } else {
    console.log(`kept database ${dbName}`);
  }
}

try {
  await main();
  if (verifyFailed) process.exitCode = 1;
} finally {
  await dropBenchDatabase();
}

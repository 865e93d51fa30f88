/**
 * `npm run bench:purchase` (needs DATABASE_URL, a PostgreSQL server): purchase throughput, printed,
 * never asserted.
 *
 * On a fresh database created next to DATABASE_URL's (dropped at the end; BENCH_KEEP_DB=1 keeps it):
 * - Coffer (`apps/server/src/server.ts` in a child process) with 1,000 funded buyers and one seller
 *   with 100 published collections (price 10 points). 16 connections buy + pay over HTTP
 *   (`collection/buy`, then `account/order/pay`) for BENCH_SECONDS (default 20): each purchase is a
 *   fresh (buyer, collection) pair, so every one moves money.
 * - The ceiling: the same SQL (the buy's reads and order insert, then the pay transaction with the
 *   statements the server issues, in the same order: the collection's counters and the seller's
 *   balance last) driven directly through `pg` at the same
 *   concurrency, on fresh pairs. A second ceiling run puts the seller's balance update first
 *   instead of last, to show what the posting order is worth.
 * Prints purchases/s, p50/p99 latency of buy + pay and the ratio, then runs `ledger:verify`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = 16;
const BUYERS = 1000;
const COLLECTIONS = 100;
const PRICE = 10;
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

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** POST through a keep-alive agent (lighter on the shared CPU than fetch). */
function post(base: string, url: string, body: unknown, token?: string): Promise<{ code: number; msg: string; data: any }> {
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
}

/** Runs `job` on CONNECTIONS loops for SECONDS; each call takes the next pair index. */
async function load(name: string, next: () => number, job: (k: number) => Promise<boolean>): Promise<Run> {
  const latencies: number[] = [];
  let failed = 0;
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
  };
}

const admin = new URL(process.env.DATABASE_URL!);
const dbName = `coffer_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
const benchUrl = new URL(admin);
benchUrl.pathname = `/${dbName}`;

async function main() {
  const root = new pg.Client({ connectionString: admin.toString() });
  await root.connect();
  await root.query(`create database ${dbName}`);
  await root.end();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-bench-purchase-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [...process.execArgv, path.join(here, '../apps/server/src/server.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: benchUrl.toString(),
      LOG_LEVEL: 'warn',
      WORKERS: 'false',
      SERVE_WEB: 'false',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
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
    const fundMinor = COLLECTIONS * PRICE * 100;
    const seedClient = await pool.connect();
    try {
      await seedClient.query('begin');
      for (let i = 0; i < BUYERS; i++) {
        const id = randomUUID();
        const token = randomBytes(32).toString('base64url');
        const available = randomUUID();
        const txId = randomUUID();
        buyers.push({ id, token, available });
        await seedClient.query('insert into users (id, username, email, nickname, password_hash) values ($1, $2, $3, $2, $4)', [
          id,
          `buyer_${i}_${dbName.slice(-6)}`,
          `buyer${i}.${dbName}@example.com`,
          hash,
        ]);
        await seedClient.query(
          "insert into sessions (id, user_id, token_hash, expires_at) values ($1, $2, $3, now() + interval '1 day')",
          [randomUUID(), id, createHash('sha256').update(token).digest('hex')],
        );
        await seedClient.query(
          "insert into ledger_accounts (id, user_id, kind, balance) values ($1, $2, 'available', $3), ($4, $2, 'frozen', 0)",
          [available, id, fundMinor, randomUUID()],
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

    // Warm-up (JIT, connection pools), on its own pairs.
    const warmUntil = performance.now() + 2000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < warmUntil) {
          const { buyer, collectionId } = pair(k++);
          const order = await post(base, '/sl/v1/collection/buy', { collection_id: collectionId }, buyer.token);
          if (order.code === 10000) await post(base, '/api/uc/v1/account/order/pay', { order_id: order.data.id }, buyer.token);
        }
      }),
    );

    const serverCpu0 = cpuMs(server.pid!);
    const http = await load(
      'Coffer over HTTP (buy + pay)',
      () => k++,
      async (i) => {
        const { buyer, collectionId } = pair(i);
        const order = await post(base, '/sl/v1/collection/buy', { collection_id: collectionId }, buyer.token);
        if (order.code !== 10000) return false;
        const paid = await post(base, '/api/uc/v1/account/order/pay', { order_id: order.data.id }, buyer.token);
        return paid.code === 10000 && paid.data.status === 'OrderStatusPaid';
      },
    );

    const serverCpuPerPurchase = (cpuMs(server.pid!) - serverCpu0) / Math.max(1, http.done);

    // The ceiling: the server's statements, through pg.
    const sqlPurchase = (sellerFirst: boolean) => async (i: number) => {
      const { buyer, collectionId } = pair(i);
      const orderId = randomUUID();
      // collection/buy
      await pool.query('select * from orders where buyer_id = $1 and collection_id = $2', [buyer.id, collectionId]);
      const {
        rows: [c],
      } = await pool.query('select * from collections where id = $1', [collectionId]);
      await pool.query("select kind, balance from ledger_accounts where user_id = $1 and kind in ('available', 'frozen')", [
        buyer.id,
      ]);
      await pool.query(
        "insert into orders (id, buyer_id, seller_id, collection_id, amount, status, created_at) values ($1, $2, $3, $4, $5, 'OrderStatusPending', now()) on conflict (buyer_id, collection_id) do nothing returning *",
        [orderId, buyer.id, c.owner_id, collectionId, c.price],
      );
      // account/order/pay: one transaction
      const client = await pool.connect();
      try {
        const price = Number(c.price) * 100;
        await client.query('begin');
        await client.query('select * from orders where id = $1 for update', [orderId]);
        await client.query('select * from collections where id = $1', [collectionId]);
        if (sellerFirst)
          await client.query('update ledger_accounts set balance = balance + $1::bigint where id = $2', [price, sellerAvailable]);
        await client.query("update orders set status = 'OrderStatusPaid', paid_at = now(), fee = 0 where id = $1 returning *", [
          orderId,
        ]);
        await client.query(
          "insert into records (id, user_id, biz_id, type, direction, amount, status, created_at, updated_at) values ($1, $2, $3, 'Purchase', 'Outgoing', $4, 'RecordStatusSuccess', now(), now()) on conflict do nothing",
          [randomUUID(), buyer.id, orderId, price],
        );
        await client.query(
          "insert into records (id, user_id, biz_id, type, direction, amount, status, created_at, updated_at) values ($1, $2, $3, 'Sale', 'Incoming', $4, 'RecordStatusSuccess', now(), now()) on conflict do nothing",
          [randomUUID(), seller.id, orderId, price],
        );
        const txId = randomUUID();
        await client.query(
          "insert into ledger_transactions (id, idempotency_key, kind, biz_id) values ($1, $2, 'purchase', $3) on conflict (idempotency_key) do nothing returning id",
          [txId, `purchase:${orderId}`, orderId],
        );
        for (const userId of [buyer.id, seller.id]) {
          await client.query(
            "insert into ledger_accounts (id, user_id, kind) values ($1, $2, 'available'), ($3, $2, 'frozen') on conflict do nothing",
            [randomUUID(), userId, randomUUID()],
          );
          await client.query('select id, kind from ledger_accounts where user_id = $1', [userId]);
        }
        await client.query('update ledger_accounts set balance = balance + $1::bigint where id = $2', [-price, buyer.available]);
        await client.query('insert into ledger_entries (transaction_id, account_id, amount) values ($1, $2, $3), ($1, $4, $5)', [
          txId,
          buyer.available,
          -price,
          sellerAvailable,
          price,
        ]);
        await client.query('update collections set sold_count = sold_count + 1, earned = earned + $1::bigint where id = $2', [
          price,
          collectionId,
        ]);
        if (!sellerFirst)
          await client.query('update ledger_accounts set balance = balance + $1::bigint where id = $2', [price, sellerAvailable]);
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
    const ceiling = await load('pg ceiling, same SQL (seller balance last)', () => k++, sqlPurchase(false));
    const early = await load('pg, same SQL with the seller balance first', () => k++, sqlPurchase(true));

    const rate = (r: Run) => r.done / r.seconds;
    console.log('');
    console.log('| run | purchases/s | p50 ms | p99 ms | failed |');
    console.log('|---|---:|---:|---:|---:|');
    for (const r of [http, ceiling, early]) {
      console.log(
        `| ${r.name} | ${rate(r).toFixed(0)} | ${percentile(r.latencies, 50).toFixed(1)} | ${percentile(r.latencies, 99).toFixed(1)} | ${r.failed} |`,
      );
    }
    console.log('');
    console.log(`ratio Coffer / ceiling: ${((rate(http) / rate(ceiling)) * 100).toFixed(0)} %`);
    console.log(`seller balance last vs first (pg): ${(rate(ceiling) / rate(early)).toFixed(2)}x`);
    console.log(`Coffer server CPU per purchase (buy + pay, user + system): ${serverCpuPerPurchase.toFixed(2)} ms`);
  } finally {
    await pool.end();
    agent.destroy();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
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
  process.exitCode = verify.status ?? 1;
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
} finally {
  await dropBenchDatabase();
}

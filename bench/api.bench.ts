/**
 * `npm run bench:api`: load figures of the API's hot calls, printed, never asserted.
 *
 * In one run it starts, each in its own child process:
 * - the Coffer server as `npm start` runs it: `scripts/start.mjs` first (builds when the build is
 *   stale), then `node --conditions=coffer-compiled apps/server/dist/server.js` with npm start's
 *   default log level (info; its stdout goes to /dev/null), on a temp data dir with the embedded PGlite
 *   database, or with `BENCH_DATABASE_URL=postgres://...` on a fresh PostgreSQL database created next
 *   to that one (dropped at the end; `BENCH_KEEP_DB=1` keeps it);
 * - the ceilings (this file with `--ceiling`): a bare Fastify app with `POST /bare`, a fixed success
 *   envelope (HTTP, routing and JSON only), and, on PostgreSQL, `POST /select`, one
 *   `SELECT ... FROM users WHERE id = $1` through a `pg` Pool of 20 connections (Coffer's pool size)
 *   answered in the envelope: the one-SELECT ceiling the Coffer calls are measured against (issue 15).
 * The load generator (autocannon, 50 connections, BENCH_SECONDS seconds each, default 10, after a
 * 1-second warm-up) runs in this process, apart from both servers. For each call it prints
 * requests/s, p50/p99 latency in ms, the server's CPU time per request (from /proc), the ratio to
 * the one-SELECT ceiling (to the bare route without PostgreSQL) and the load average at its start.
 *
 * Calls: `get/me` signed in, `get/me` with a personal access token, and the hot public reads `/sl/v1/collection/detail` (as a visitor) and
 * `/sl/v1/market/collections` (page 0, size 20) when the app has them (skipped with a note when they
 * answer 404). `BENCH_ONLY=get/me` (a substring) loads only the matching calls; `BENCH_LOG_LEVEL=warn`
 * starts the server with request logs off (their cost is the difference from the default run);
 * `BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'` profiles the server. Figures depend on the machine (the header prints its CPUs and load average);
 * bench/README.md records measured ones.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const load1 = () => loadavg()[0]!;

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Server CPU (user + system) per request in ms, when the server's pid is known. */
  cpuPerRequest?: number;
  /** 1-minute load average when the run started. */
  load: number;
}

interface Target {
  name: string;
  url: string;
  body: unknown;
  token?: string;
  /** The server process (for its CPU time). */
  pid?: number;
}

/** CPU time (user + system) a process has used, in ms, from /proc/<pid>/stat (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function load(target: Target, seconds = SECONDS): Promise<Figures> {
  const loadAtStart = load1();
  const cpu0 = target.pid ? cpuMs(target.pid) : 0;
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    // The load generator runs in a worker thread of this process, apart from both servers.
    workers: 1,
    headers: { 'content-type': 'application/json', ...(target.token ? { authorization: `Bearer ${target.token}` } : {}) },
    body: JSON.stringify(target.body),
  });
  return {
    name: target.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuPerRequest: target.pid && result.requests.total ? (cpuMs(target.pid) - cpu0) / result.requests.total : undefined,
    load: loadAtStart,
  };
}

async function post(base: string, url: string, body: unknown, token?: string) {
  const res = await fetch(base + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; reason?: string; data: any } };
}

/** True when the app has no such call (the not-found handler's answer, not a record's NOT_FOUND). */
const missingRoute = (res: { status: number; body: { msg: string } }) =>
  res.status === 404 && res.body.msg === 'The requested resource was not found.';

/**
 * Publishes one collection with one small resource through the public calls (product §17), so that
 * collection/detail reads a real row. Returns its id, or a note saying which step failed.
 */
async function publishedCollection(base: string, token: string): Promise<{ id?: string; note?: string }> {
  const file = Buffer.from('Coffer bench resource\n');
  const md5 = createHash('md5').update(file).digest('hex');
  const collection = await post(
    base,
    '/sl/v1/collection/create',
    { title: 'Bench collection', desc: 'Made by npm run bench:api', amount: 10 },
    token,
  );
  if (collection.body.code !== 10000) return { note: `collection/create answered ${collection.body.msg}` };
  const id = collection.body.data.id as string;
  const upload = await post(
    base,
    '/sl/v1/upload/resource/url',
    { file_name: 'bench.txt', size: file.length, md5, content_type: 'text/plain' },
    token,
  );
  if (upload.body.code !== 10000) return { id, note: `upload/resource/url answered ${upload.body.msg}` };
  const put = await fetch(upload.body.data.url, { method: 'PUT', body: file, headers: { 'content-type': 'text/plain' } });
  if (!put.ok) return { id, note: `the presigned PUT answered ${put.status}` };
  const done = await post(base, '/sl/v1/complete/upload', { upload_id: upload.body.data.upload_id, parts: [] }, token);
  if (done.body.code !== 10000) return { id, note: `complete/upload answered ${done.body.msg}` };
  const added = await post(base, '/sl/v1/collection/resource/add', { collection_id: id, resource_id: done.body.data.id }, token);
  if (added.body.code !== 10000) return { id, note: `collection/resource/add answered ${added.body.msg}` };
  const published = await post(base, '/sl/v1/collection/publish', { collection_id: id }, token);
  if (published.body.code !== 10000) return { id, note: `collection/publish answered ${published.body.msg}` };
  return { id };
}

function print(rows: Figures[], ceiling: Figures, bare: Figures) {
  const pad = (s: string, n: number) => s.padEnd(n);
  const num = (n: number, d = 0) => n.toFixed(d).padStart(9);
  console.log(
    `\n${pad('call', 36)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'CPU ms/req'.padStart(11)}` +
      `${`vs ${ceiling === bare ? 'bare' : 'SELECT'}`.padStart(11)}${'load'.padStart(7)}  non-2xx/errors`,
  );
  for (const r of ceiling === bare ? [bare, ...rows] : [bare, ceiling, ...rows]) {
    const ratio = r === bare || r === ceiling ? '' : `${((r.rps / ceiling.rps) * 100).toFixed(0)}%`;
    const cpu = r.cpuPerRequest === undefined ? '' : r.cpuPerRequest.toFixed(3);
    console.log(
      `${pad(r.name, 36)}${num(r.rps)}${num(r.p50, 1)}${num(r.p99, 1)}${cpu.padStart(11)}${ratio.padStart(11)}${r.load.toFixed(1).padStart(7)}  ${r.non2xx}/${r.errors}`,
    );
  }
}

/** A port that was free a moment ago (the app's presigned links need it before it listens). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Polls until `url` answers (any HTTP status) or 60 s pass. */
async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    const up = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then(
      () => true,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not start`);
}

/**
 * The ceiling server (`--ceiling <port>`, with CEILING_DATABASE_URL and CEILING_USER_ID on PostgreSQL):
 * `POST /bare` answers a fixed envelope; `POST /select` runs one primary-key SELECT of the users
 * table through a pg Pool (20 connections) and answers its row in the envelope.
 */
async function ceilingServer(port: number) {
  const app = Fastify({ logger: false });
  const fixed = {
    code: 10000,
    msg: 'success',
    data: { id: '0193e4c2-0000-7000-8000-000000000000', username: 'bench', asset: { available: '0.00', freeze: '0.00' } },
  };
  app.post('/bare', async () => fixed);
  const url = process.env.CEILING_DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 20 });
    const userId = process.env.CEILING_USER_ID;
    app.post('/select', async () => {
      const { rows } = await pool.query('select id, username, email, nickname, avatar, created_at from users where id = $1', [
        userId,
      ]);
      return { code: 10000, msg: 'success', data: rows[0] };
    });
    app.addHook('onClose', () => pool.end());
  }
  await app.listen({ host: '127.0.0.1', port });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

async function main() {
  const port = await freePort();
  const ceilingPort = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-bench-'));
  const base = `http://127.0.0.1:${port}`;
  const ceilingBase = `http://127.0.0.1:${ceilingPort}`;

  // A fresh PostgreSQL database next to BENCH_DATABASE_URL's.
  const adminUrl = process.env.BENCH_DATABASE_URL;
  let benchUrl: string | undefined;
  const dbName = `coffer_bench_api_${process.pid}_${randomBytes(3).toString('hex')}`;
  if (adminUrl) {
    const u = new URL(adminUrl);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    u.pathname = `/${dbName}`;
    benchUrl = u.toString();
  }

  // npm start's first half: build when the build is stale.
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/start.mjs')], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build failed');

  const children: ChildProcess[] = [];
  try {
    // BENCH_SERVER_NODE_ARGS adds node flags to the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
    const extraArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const server = spawn(process.execPath, [...extraArgs, '--conditions=coffer-compiled', 'dist/server.js'], {
      cwd: path.join(root, 'apps/server'),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        PAYMENTS: 'sandbox',
        ALLOW_SANDBOX_IN_PRODUCTION: 'true',
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: base,
        WORKERS: 'false',
        SERVE_WEB: 'false',
        // Load from one address would spend the per-client budget (docs/api.md "Rate limits") in a second;
        // BENCH_API_RATE_LIMIT_MAX sets it (e.g. to measure the budget's cost with a budget that is never reached).
        API_RATE_LIMIT_MAX: process.env.BENCH_API_RATE_LIMIT_MAX ?? '100000000',
        ...(benchUrl ? { DATABASE_URL: benchUrl } : {}),
        // BENCH_LOG_LEVEL=warn measures what request logging costs (npm start's default is info).
        ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
      },
      // Log lines (level info, as npm start, unless BENCH_LOG_LEVEL) are written and dropped.
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(server);
    await waitFor(`${base}/api/uc/v1/account/get/me`, server);

    const name = `bench_${randomBytes(4).toString('hex')}`;
    const reg = await post(base, '/api/uc/v1/account/register', {
      username: name,
      email: `${name}@example.com`,
      password: createHash('md5').update('Bench#1234').digest('hex'),
    });
    if (reg.body.code !== 10000) throw new Error(`register failed: ${reg.body.msg}`);
    const token = reg.body.data.access_token as string;
    const me = await post(base, '/api/uc/v1/account/get/me', {}, token);

    const ceiling = spawn(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--ceiling', String(ceilingPort)],
      {
        env: { ...process.env, ...(benchUrl ? { CEILING_DATABASE_URL: benchUrl, CEILING_USER_ID: me.body.data.id } : {}) },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    children.push(ceiling);
    await waitFor(`${ceilingBase}/bare`, ceiling);

    const targets: Target[] = [
      { name: 'get/me (signed in)', url: `${base}/api/uc/v1/account/get/me`, body: {}, token, pid: server.pid },
    ];
    const notes: string[] = [];
    // The same call with a personal access token (ADR 0058): checksum, hash, token cache, scope check.
    const pat = await post(
      base,
      '/api/uc/v1/account/token/create',
      { name: 'bench', scopes: ['account:read'], expires_in_days: 7, password: createHash('md5').update('Bench#1234').digest('hex') },
      token,
    );
    if (pat.body.code === 10000) {
      targets.push({
        name: 'get/me (access token)',
        url: `${base}/api/uc/v1/account/get/me`,
        body: {},
        token: pat.body.data.token as string,
        pid: server.pid,
      });
    } else notes.push(`skipped get/me with an access token: token/create answered ${pat.body.msg}`);

    const market: Target = {
      name: 'sl/v1/market/collections',
      url: `${base}/sl/v1/market/collections`,
      body: { paginator: { page: 0, size: 20 } },
      pid: server.pid,
    };
    const detailProbe = await post(base, '/sl/v1/collection/detail', { collection_id: '00000000-0000-7000-8000-000000000000' });
    if (missingRoute(detailProbe)) {
      notes.push('skipped /sl/v1/collection/detail: the app has no such route yet (404)');
    } else {
      const made = await publishedCollection(base, token);
      if (made.note) notes.push(`collection/detail reads ${made.id ? 'an unpublished' : 'no'} collection: ${made.note}`);
      targets.push({
        name: 'sl/v1/collection/detail',
        url: `${base}/sl/v1/collection/detail`,
        body: { collection_id: made.id ?? '00000000-0000-7000-8000-000000000000' },
        pid: server.pid,
      });
    }
    if (missingRoute(await post(base, '/sl/v1/market/collections', market.body))) {
      notes.push('skipped /sl/v1/market/collections: the app has no such route yet (404)');
    } else {
      targets.push(market);
    }

    console.log(
      `Coffer bench:api — ${CONNECTIONS} connections, ${SECONDS} s per call, database ${benchUrl ? 'postgres' : 'pglite'}, ` +
        `compiled server (log level ${process.env.BENCH_LOG_LEVEL ?? 'info'}), node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );
    if (!benchUrl) notes.push('no BENCH_DATABASE_URL: the one-SELECT ceiling needs PostgreSQL; ratios are to the bare route');
    for (const note of notes) console.log(`note: ${note}`);

    // Short warm-ups so that JIT and caches are hot before measuring.
    await load({ name: 'warm-up', url: `${ceilingBase}/bare`, body: {} }, 1);
    const bareFigures = await load({
      name: 'bare Fastify (fixed envelope)',
      url: `${ceilingBase}/bare`,
      body: {},
      pid: ceiling.pid,
    });
    let selectFigures = bareFigures;
    if (benchUrl) {
      await load({ name: 'warm-up', url: `${ceilingBase}/select`, body: {} }, 1);
      selectFigures = await load({
        name: 'Fastify + pg, one SELECT (ceiling)',
        url: `${ceilingBase}/select`,
        body: {},
        pid: ceiling.pid,
      });
    }
    const rows: Figures[] = [];
    for (const target of targets.filter((t) => !process.env.BENCH_ONLY || t.name.includes(process.env.BENCH_ONLY))) {
      await load(target, 1);
      rows.push(await load(target));
    }
    print(rows, selectFigures, bareFigures);
    console.log(
      `load average at the end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    for (const child of children) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
    if (adminUrl && process.env.BENCH_KEEP_DB !== '1') {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName}`);
      await admin.end();
    }
  }
}

const ceilingAt = process.argv.indexOf('--ceiling');
(ceilingAt > 0 ? ceilingServer(Number(process.argv[ceilingAt + 1])) : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * `npm run bench:rss`: how `npm start` starts and what the idle server holds in memory, printed, never
 * asserted (issue 17; docs/operations.md "Memory").
 *
 * - Runs `npm start` from the repository root (it builds first only when the build is missing or
 *   stale — the bench says which) on a free 127.0.0.1 port and a temp DATA_DIR; the database is a
 *   scratch PostgreSQL database next to `DATABASE_URL`'s (dropped after) when that is set, otherwise
 *   the embedded PGlite.
 * - Two runs on the same store: the first creates it (database, migrations), the second is a restart.
 * - Time to first page: from spawning `npm start` to the first 200 answer of `GET /`.
 * - Idle RSS: after `/readyz` answers 200 and the first page was served, the server idles
 *   BENCH_IDLE_S seconds (default 15), then VmRSS and VmHWM of the server process (the `node`
 *   running `apps/server/dist/server.js`) are read from /proc; the `npm` process above it is shown
 *   apart (run the server with node directly and it is not there).
 * - Prints the RSS figure, the limit (150 MB, for PostgreSQL) and the load average.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const LIMIT_MB = 150;
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 15);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** VmRSS and VmHWM of a process, in MB. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** True when `url` answers 200 within 5 s (the body is read, so no connection is left hanging). */
async function get(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function scratchDatabase(): Promise<{ url?: string; drop: () => Promise<void> }> {
  const shared = process.env.DATABASE_URL;
  if (!shared) return { drop: async () => {} };
  const name = `coffer_rss_${Date.now().toString(36)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: shared });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

interface Run {
  firstPageMs: number;
  rss: number;
  hwm: number;
  wrapperRss: number;
}

/** One `npm start` on `env` until idle: time to first page and memory, then SIGTERM and wait for exit. */
async function run(env: NodeJS.ProcessEnv, origin: string): Promise<Run> {
  const started = performance.now();
  const npm = spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise((r) => npm.once('exit', r));
  try {
    let firstPageMs = NaN;
    for (;;) {
      if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}`);
      if (await get(`${origin}/`)) {
        firstPageMs = performance.now() - started;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    while (!(await get(`${origin}/readyz`))) await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const server = childrenOf(npm.pid!)[0];
    if (!server) throw new Error('cannot find the server process under npm');
    const mem = memoryOf(server);
    return { firstPageMs, rss: mem.rss, hwm: mem.hwm, wrapperRss: memoryOf(npm.pid!).rss };
  } finally {
    npm.kill('SIGTERM');
    await exited;
  }
}

async function main() {
  const current =
    spawnSync(
      process.execPath,
      ['-e', "import('./scripts/build.mjs').then((b) => process.stdout.write(String(b.buildIsCurrent())))"],
      { cwd: root, encoding: 'utf8' },
    ).stdout === 'true';
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-rss-'));
  const db = await scratchDatabase();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
  };
  // As `npm start` runs it: its defaults (log level info, sandbox payments); a NODE_ENV or LOG_LEVEL
  // of the calling shell is not passed on.
  delete env.NODE_ENV;
  delete env.LOG_LEVEL;
  if (db.url) env.DATABASE_URL = db.url;
  else delete env.DATABASE_URL;
  const origin = `http://127.0.0.1:${port}`;
  try {
    const first = await run(env, origin);
    const again = await run(env, origin);
    const kind = db.url ? 'PostgreSQL' : 'PGlite';
    const mb = (n: number) => `${n.toFixed(1)} MB`;
    const verdict = (r: Run) => (db.url ? (r.rss <= LIMIT_MB ? ' — within' : ' — OVER') : '');
    console.log(`\nbench:rss (${kind}, Node ${process.versions.node})`);
    console.log(
      `build:                ${current ? 'current (npm start did not build)' : 'missing or stale (the first start built; its time includes the build)'}`,
    );
    console.log(
      `first page, new store: ${(first.firstPageMs / 1000).toFixed(2)} s (creates the database and runs every migration)`,
    );
    console.log(`first page, restart:   ${(again.firstPageMs / 1000).toFixed(2)} s (target 3 s on a current build)`);
    console.log(`idle RSS, new store:   ${mb(first.rss)} (peak ${mb(first.hwm)})${verdict(first)}`);
    console.log(
      `idle RSS, restart:     ${mb(again.rss)} (peak ${mb(again.hwm)})${verdict(again)}; limit ${LIMIT_MB} MB on PostgreSQL, after ${IDLE_S} s idle`,
    );
    console.log(`npm wrapper RSS:       ${mb(again.wrapperRss)} (not there when node runs dist/server.js directly)`);
    console.log(
      `load average:          ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

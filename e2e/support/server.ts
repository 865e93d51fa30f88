/**
 * Starts the real Coffer server (API + the built web app, as `npm start` serves it) on a free port
 * with a fresh temporary DATA_DIR (PGlite database, local files, mail outbox, sandbox payments).
 * When DATABASE_URL names a PostgreSQL server (as `.ci/run`'s second pass does), each server gets a
 * fresh database of its own next to it, dropped on stop; E2E_DATABASE_URL overrides both and is
 * used as given.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  /** The server's DATA_DIR (outbox under `outbox/`). */
  dataDir: string;
  /** The server's DATABASE_URL ('' for PGlite in DATA_DIR). */
  databaseUrl: string;
  /** Everything the server printed, for failure messages. */
  output: () => string;
  /** Stops the server and deletes the data dir (and its fresh PostgreSQL database, if any). */
  stop: () => Promise<void>;
}

/** A TCP port that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The database the server should use: E2E_DATABASE_URL as given; else, when DATABASE_URL is a
 * postgres:// URL, a new empty database on that server (`coffer_e2e_<hex>`) with `drop` removing
 * it; else '' (PGlite in the temp DATA_DIR).
 */
export async function e2eDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const none = { drop: async () => {} };
  if (process.env.E2E_DATABASE_URL) return { url: process.env.E2E_DATABASE_URL, ...none };
  const shared = process.env.DATABASE_URL;
  if (!shared || !/^postgres(ql)?:\/\//.test(shared)) return { url: '', ...none };
  const name = `coffer_e2e_${randomBytes(6).toString('hex')}`;
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

async function waitUntilUp(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${url}/`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not answer within ${timeoutMs} ms:\n${output()}`);
}

/**
 * @param env extra environment variables (e.g. { PAYMENTS: 'sandbox' })
 * @throws Error when the web app is not built or the server does not come up in time
 */
export async function startServer(env: Record<string, string> = {}, timeoutMs = 60_000): Promise<RunningServer> {
  if (!existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error('The web app is not built: run `npm run build -w @coffer/web` (or `npm run e2e`).');
  }
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const database = await e2eDatabase();
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // PGlite in the temp DATA_DIR, or the fresh PostgreSQL database above.
      DATABASE_URL: database.url,
      SERVE_WEB: 'true',
      LOG_LEVEL: 'warn',
      // Every browser of a spec calls from 127.0.0.1: one address, far past a real client's budget (docs/api.md "Rate limits").
      API_RATE_LIMIT_MAX: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const output = () => log;
  try {
    await waitUntilUp(url, child, output, timeoutMs);
  } catch (err) {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    await database.drop();
    throw err;
  }
  return {
    url,
    port,
    dataDir,
    databaseUrl: database.url,
    output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}

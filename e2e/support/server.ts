/**
 * Starts the real Coffer server (API + the built web app, as `npm start` serves it) on a free port
 * with a fresh temporary DATA_DIR (PGlite database, local files, mail outbox, sandbox payments).
 * On PGlite that DATA_DIR starts with a copy of one migrated database (see
 * {@link migratedPgliteTemplate}), so a server opens an empty, already-migrated store instead of
 * running initdb and every migration itself. When DATABASE_URL names a PostgreSQL server (as
 * `.ci/run`'s second pass does), each server gets a fresh database of its own next to it, dropped on
 * stop; E2E_DATABASE_URL overrides both and is used as given.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
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

/** The server's database client: it creates, locks and migrates the PGlite data directory. */
const dbClientModule = path.join(repoRoot, 'apps/server/src/db/client.ts');
const migrationsDir = path.join(repoRoot, 'apps/server/src/db/migrations');
/** The lock file a process holding a PGlite directory writes (PGLITE_LOCK_FILE in the client). */
const PGLITE_LOCK_FILE = 'coffer.lock';

/**
 * What the migrated database depends on, as 16 hex digits: every file of the migrations folder
 * (names and bytes), the database client (initdb settings, PGLITE_CONF) and PGlite's version. A
 * change to any of them names a new template.
 */
function templateKey(): string {
  const hash = createHash('sha256');
  const walk = (dir: string, rel: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, `${rel}${entry.name}/`);
      else hash.update(`${rel}${entry.name}\0`).update(readFileSync(full)).update('\0');
    }
  };
  walk(migrationsDir, '');
  hash.update(readFileSync(dbClientModule));
  const pglite = path.join(repoRoot, 'node_modules/@electric-sql/pglite/package.json');
  hash.update(existsSync(pglite) ? readFileSync(pglite) : 'pglite?');
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<string> | undefined;

/**
 * The directory of a PGlite database with every migration of this checkout applied and nothing
 * else (no payments mode recorded, no users): `<tmpdir>/coffer-e2e-pglite-<key>/db`. Built once by
 * a child process through the server's own client (`openDatabase` then `migrate`, the first steps
 * of a server's start on a new DATA_DIR), in a scratch directory renamed into place when complete,
 * so a later spec file, process or run with the same migrations reuses it. Each server gets its own
 * copy ({@link startServer}); nothing ever opens the template itself after it is built.
 * Creating it costs one initdb and all migrations (8-20 s on the 2-core CI machine, what every
 * server used to pay at its start); a copy of its 41 MB costs about 1-2 s.
 * @throws Error with the child's output when the database cannot be created or migrated
 */
export function migratedPgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const home = path.join(os.tmpdir(), `coffer-e2e-pglite-${templateKey()}`);
    const dir = path.join(home, 'db');
    if (existsSync(path.join(dir, 'PG_VERSION'))) return dir;
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'coffer-e2e-pglite-build-'));
    const script = `const { openDatabase } = await import(process.argv[1]);
const database = await openDatabase(undefined, process.argv[2]);
await database.migrate();
await database.close();`;
    try {
      await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script, pathToFileURL(dbClientModule).href, scratch],
        { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
      );
      await rename(scratch, home);
    } catch (err) {
      await rm(scratch, { recursive: true, force: true });
      // Another process built the same template first: use that one.
      if (existsSync(path.join(dir, 'PG_VERSION'))) return dir;
      const stderr = (err as { stderr?: string }).stderr;
      throw new Error(`could not build the migrated PGlite template: ${stderr || String(err)}`);
    }
    return dir;
  })();
  const building = template;
  // A failed build is not remembered: the next server tries again.
  building.catch(() => {
    if (template === building) template = undefined;
  });
  return building;
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
  // PGlite (no database URL, no DATA_DIR of the caller's): this server's own copy of the migrated
  // template; E2E_PGLITE_TEMPLATE=false leaves the DATA_DIR empty (initdb and migrations at start).
  if (!database.url && !env.DATABASE_URL && !env.DATA_DIR && process.env.E2E_PGLITE_TEMPLATE !== 'false') {
    try {
      await cp(await migratedPgliteTemplate(), path.join(dataDir, 'db'), {
        recursive: true,
        filter: (source) => path.basename(source) !== PGLITE_LOCK_FILE,
      });
    } catch (err) {
      await rm(dataDir, { recursive: true, force: true });
      throw err;
    }
  }
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

/**
 * Database connection (product §11): PGlite in `$DATA_DIR/db` by default (or in memory for
 * `memory://`), PostgreSQL through `pg` when `DATABASE_URL` is a postgres URL. Same schema, same
 * migrations, same queries on both.
 */
import { execFile } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql, type ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index';

export type Schema = typeof schema;
/** The database handle every repository takes (PGlite or PostgreSQL, same API). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** An open transaction. */
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repositories take `trx ?? db` (STYLE habit 6). */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs migrations (idempotent; serialized across processes on PostgreSQL by an advisory lock). */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** The SQL migrations and drizzle's `meta/_journal.json` (copied beside the compiled client by `npm run build`). */
export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_LOCK_ID = 727_070_001;

/**
 * PostgreSQL settings of the on-disk PGlite (docs/operations.md "Memory"): the WASM heap holds the
 * shared buffers, so PostgreSQL's default 128 MB shows in the process's RSS (16 MB: about 120 MB
 * less); the OS page cache still holds the data files.
 */
const PGLITE_CONF = ['shared_buffers = 16MB'];

/**
 * Creates a new PGlite cluster in `dir` from a short-lived child process. Run in the server's own
 * process, initdb's WASM instance leaves about 450 MB of RSS behind that V8 never returns to the OS
 * (PGlite alone: 741 MB idle after creating a data dir, 286 MB when reopening it).
 * @throws Error with the child's output when it fails
 */
async function initPgliteInChild(dir: string): Promise<void> {
  const script = `import { PGlite } from '@electric-sql/pglite';
const db = new PGlite(process.argv[1], { postgresqlconf: JSON.parse(process.argv[2]) });
await db.waitReady;
await db.close();`;
  try {
    // cwd: this package, so the child resolves @electric-sql/pglite like this module does.
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dir, JSON.stringify(PGLITE_CONF)], {
      cwd: path.dirname(fileURLToPath(import.meta.url)),
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    throw new Error(`could not create the PGlite database in ${dir}: ${(err as { stderr?: string }).stderr || String(err)}`);
  }
}

/** The lock file of an on-disk PGlite: `{"pid": N}` of the process that has it open. */
export const PGLITE_LOCK_FILE = 'coffer.lock';
/** Opens of each PGlite directory held by this process (a process may open its own directory again). */
const heldDirs = new Map<string, number>();

/** Whether process `pid` is alive (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `dir`'s lock for this process: PGlite is PostgreSQL in one process, and a second process
 * opening the same data directory (an `npm run admin` beside a running server) would write over the
 * first one's files. A lock left by a process that is gone is taken over.
 * @returns the release step (removes the lock after this process's last close of `dir`)
 * @throws Error naming the other process when one alive holds the directory
 */
function lockPgliteDir(dir: string): () => void {
  const file = path.join(dir, PGLITE_LOCK_FILE);
  const held = heldDirs.get(dir) ?? 0;
  if (held === 0) {
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = openSync(file, 'wx');
        writeSync(fd, JSON.stringify({ pid: process.pid }));
        closeSync(fd);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
        let pid = 0;
        try {
          pid = Number((JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid) || 0;
        } catch {
          // Unreadable (written half by a process that died): stale.
        }
        if (pid && pid !== process.pid && alive(pid)) {
          throw new Error(
            `the database in ${dir} is open in another process (pid ${pid}, e.g. a running server): the built-in ` +
              'database (PGlite) allows one process at a time. Stop that process first, or run the server on ' +
              'PostgreSQL (DATABASE_URL) to use the tools beside it.',
          );
        }
        rmSync(file, { force: true });
      }
    }
  }
  heldDirs.set(dir, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (heldDirs.get(dir) ?? 1) - 1;
    if (left > 0) heldDirs.set(dir, left);
    else {
      heldDirs.delete(dir);
      rmSync(file, { force: true });
    }
  };
}

/**
 * PGlite and drizzle's PGlite driver and migrator, imported when a PGlite database is first opened:
 * a server on PostgreSQL never loads them (docs/operations.md "Memory").
 */
const pgliteModules = () =>
  Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite'), import('drizzle-orm/pglite/migrator')]).then(
    ([{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }]) => ({ PGlite, drizzlePglite, migratePglite }),
  );

let memoryTemplate: Promise<PGlite> | undefined;

/**
 * A fresh in-memory PGlite (`memory://`) holding every migration of this build: a copy of one
 * migrated template per process (PGlite's `clone()`, a dump and load of the template's data dir).
 * A new cluster costs its initdb (3.2-4.7 s on the 2-core CI machine); a copy of the template
 * costs 1.3-1.6 s. The test suites open one per app, 66 in all. Copies share nothing: what one
 * writes, no other sees. A template that failed to build is dropped, so the next call tries again.
 * @throws Error when PGlite cannot start or a migration fails
 */
async function memoryDatabase(): Promise<PGlite> {
  memoryTemplate ??= (async () => {
    const { PGlite, drizzlePglite, migratePglite } = await pgliteModules();
    const template = new PGlite();
    await template.waitReady;
    await migratePglite(drizzlePglite(template, { casing: 'snake_case' }), { migrationsFolder });
    return template;
  })();
  const building = memoryTemplate;
  try {
    // clone() is typed as the interface; it returns a PGlite (PGlite.create with the dump loaded).
    return (await (await building).clone()) as PGlite;
  } catch (err) {
    if (memoryTemplate === building) memoryTemplate = undefined;
    throw err;
  }
}

/**
 * Opens the configured database.
 * @param url `postgres://...`, `memory://`, or undefined for PGlite in `dataDir/db` (locked for this
 *   process by `dataDir/db/coffer.lock` until closed)
 * @throws Error when another live process holds that PGlite directory
 */
export async function openDatabase(url: string | undefined, dataDir: string): Promise<Database> {
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 20 });
    const db = drizzlePg(pool, { schema, casing: 'snake_case' }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
          try {
            await migratePg(drizzlePg(client, { casing: 'snake_case' }), { migrationsFolder });
          } finally {
            await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
          }
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  const { PGlite, drizzlePglite, migratePglite } = await pgliteModules();
  let client: PGlite;
  let unlock = () => {};
  if (url === 'memory://') {
    client = await memoryDatabase();
  } else {
    const dir = path.resolve(dataDir, 'db');
    mkdirSync(dir, { recursive: true });
    unlock = lockPgliteDir(dir);
    try {
      if (!existsSync(path.join(dir, 'PG_VERSION'))) await initPgliteInChild(dir);
      client = new PGlite(dir, { postgresqlconf: PGLITE_CONF });
      await client.waitReady;
    } catch (err) {
      unlock();
      throw err;
    }
  }
  await client.waitReady;
  const db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client, { casing: 'snake_case' }), { migrationsFolder }),
    close: async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
  };
}

let journalLength: number | undefined;

/**
 * How many migrations of this build are not applied to the database yet (0 when migrated), comparing
 * drizzle's journal with the rows of `drizzle.__drizzle_migrations` (where both migrators record
 * what they applied). Used by `/readyz` (docs/operations.md).
 * @throws when the database cannot be queried; a missing migrations table counts as none applied
 */
export async function pendingMigrations(database: Database): Promise<number> {
  journalLength ??= (
    JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }
  ).entries.length;
  const exists = (await database.db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as ok`,
  )) as unknown as { rows: { ok: boolean }[] };
  if (!exists.rows[0]?.ok) return journalLength;
  const applied = (await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as {
    rows: { n: number }[];
  };
  return Math.max(0, journalLength - Number(applied.rows[0]?.n ?? 0));
}

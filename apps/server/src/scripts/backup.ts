/**
 * `npm run backup -- <dir>` and `npm run restore -- <dir>` (docs/operations.md "Backups and restore"):
 * a snapshot of the configured store — database, stored files, generated secrets — into an empty
 * directory, and back into an empty data dir / database.
 *
 * Layout of `<dir>`:
 * - `manifest.json` — `{ format: 1, created_at, database: 'postgres' | 'pglite', server_version, files }`;
 * - `database.dump` (PostgreSQL: `pg_dump --format=custom`, the same major version as the server is
 *   required) or `pglite-datadir.tar.gz` (PGlite's own `dumpDataDir`, restored with `loadDataDir`);
 * - `files/` — the stored objects of local storage (`$DATA_DIR/files/objects`; pending multipart
 *   parts are not kept), with `files.md5` (`md5sum` format: `<md5>  <path>`), checked on restore;
 * - `secrets/storage-signing-secret` — the generated HMAC secret, so presigned links stay valid;
 *   `secrets/two-factor-key` — the generated key that seals two-factor secrets (product §26), so
 *   two-factor sign-in keeps working after a restore.
 *
 * Consistency: PostgreSQL is dumped first (one MVCC snapshot, the server may keep running), then the
 * files are copied; stored objects are never rewritten, so every object the dump refers to is there
 * unless it was deleted in between. PGlite serves one process: stop the server first.
 * With `STORAGE=s3` the bucket is not copied (use the bucket's versioning/replication).
 *
 * Exit codes: 0 done, 1 refused or failed (the message says why), 2 bad configuration.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Config } from '../env';
import { commandConfig } from './command-config';

const run = promisify(execFile);
const FORMAT = 1;

/** Secrets Coffer generates into DATA_DIR when their variable is unset; kept with the backup. */
const GENERATED_SECRETS = ['storage-signing-secret', 'two-factor-key'] as const;

export interface Manifest {
  format: number;
  created_at: string;
  database: 'postgres' | 'pglite';
  /** PostgreSQL `server_version` of the dumped database (PGlite: its embedded PostgreSQL). */
  server_version: string;
  /** Number of stored files. */
  files: number;
}

/** A refusal the command line prints as is (exit 1). */
export class BackupError extends Error {
  override name = 'BackupError';
}

type Target = Pick<Config, 'DATABASE_URL' | 'dataDir' | 'STORAGE'>;

const isPostgres = (url: string | undefined): url is string => Boolean(url && /^postgres(ql)?:\/\//.test(url));

async function md5Of(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Relative paths of the regular files under `dir` ([] when it does not exist), sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The major version of a `pg_dump --version` / `pg_restore --version` line, e.g. 15. */
async function toolMajor(tool: 'pg_dump' | 'pg_restore'): Promise<number> {
  let out: string;
  try {
    out = (await run(tool, ['--version'])).stdout;
  } catch {
    throw new BackupError(`${tool} is not installed (apt-get install postgresql-client-<server major version>)`);
  }
  const m = /(\d+)(\.\d+)?/.exec(out);
  if (!m) throw new BackupError(`cannot read the version of ${tool}: ${out.trim()}`);
  return Number(m[1]);
}

async function serverVersion(url: string): Promise<{ text: string; major: number }> {
  return withClient(url, async (c) => {
    const r = await c.query<{ server_version: string; num: string }>(
      `select current_setting('server_version') as server_version, current_setting('server_version_num') as num`,
    );
    return { text: r.rows[0]!.server_version, major: Math.floor(Number(r.rows[0]!.num) / 10_000) };
  });
}

async function checkToolMatches(tool: 'pg_dump' | 'pg_restore', url: string): Promise<string> {
  const [major, server] = await Promise.all([toolMajor(tool), serverVersion(url)]);
  if (major !== server.major)
    throw new BackupError(
      `${tool} ${major} does not match the PostgreSQL server ${server.text}: install postgresql-client-${server.major}`,
    );
  return server.text;
}

async function ensureEmptyDir(dir: string, what: string): Promise<void> {
  if (existsSync(dir) && (await readdir(dir)).length > 0) throw new BackupError(`${what} ${dir} is not empty`);
  await mkdir(dir, { recursive: true });
}

/**
 * Writes a snapshot of `config`'s store into `dir` (created; must be empty).
 * @returns the manifest written
 * @throws BackupError when `dir` is not empty, pg_dump is missing or of another major version, or a step fails
 */
export async function backup(config: Target, dir: string): Promise<Manifest> {
  if (config.DATABASE_URL === 'memory://') throw new BackupError('an in-memory database (memory://) cannot be backed up');
  await ensureEmptyDir(dir, 'the backup directory');
  let database: Manifest['database'];
  let version: string;
  if (isPostgres(config.DATABASE_URL)) {
    database = 'postgres';
    version = await checkToolMatches('pg_dump', config.DATABASE_URL);
    try {
      await run(
        'pg_dump',
        [
          '--format=custom',
          '--no-owner',
          '--no-privileges',
          `--file=${path.join(dir, 'database.dump')}`,
          `--dbname=${config.DATABASE_URL}`,
        ],
        {
          maxBuffer: 16 * 1024 * 1024,
        },
      );
    } catch (err) {
      throw new BackupError(`pg_dump failed: ${(err as { stderr?: string }).stderr?.trim() || String(err)}`);
    }
  } else {
    database = 'pglite';
    const dbDir = path.join(config.dataDir, 'db');
    if (!existsSync(path.join(dbDir, 'PG_VERSION'))) throw new BackupError(`no PGlite database in ${dbDir}`);
    const client = new PGlite(dbDir);
    try {
      await client.waitReady;
      version = (await client.query<{ v: string }>(`select current_setting('server_version') as v`)).rows[0]!.v;
      const tarball = await client.dumpDataDir('gzip');
      await writeFile(path.join(dir, 'pglite-datadir.tar.gz'), Buffer.from(await tarball.arrayBuffer()));
    } finally {
      await client.close();
    }
  }

  const objects = path.join(config.dataDir, 'files/objects');
  const files = await filesUnder(objects);
  const sums: string[] = [];
  for (const rel of files) {
    const to = path.join(dir, 'files', rel);
    await mkdir(path.dirname(to), { recursive: true });
    await copyFile(path.join(objects, rel), to);
    sums.push(`${await md5Of(to)}  ${rel.split(path.sep).join('/')}`);
  }
  await writeFile(path.join(dir, 'files.md5'), sums.length ? `${sums.join('\n')}\n` : '');

  for (const name of GENERATED_SECRETS) {
    const secret = path.join(config.dataDir, name);
    if (!existsSync(secret)) continue;
    await mkdir(path.join(dir, 'secrets'), { recursive: true, mode: 0o700 });
    await copyFile(secret, path.join(dir, 'secrets', name));
    await chmod(path.join(dir, 'secrets', name), 0o600);
  }
  const manifest: Manifest = {
    format: FORMAT,
    created_at: new Date().toISOString(),
    database,
    server_version: version,
    files: files.length,
  };
  await writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Brings the snapshot in `dir` back into `config`'s store: an empty database (PostgreSQL: no tables
 * outside the system schemas; PGlite: no `$DATA_DIR/db`) and no stored files. Every file's MD5 is
 * checked against `files.md5` before anything is written.
 * @returns the backup's manifest
 * @throws BackupError when the snapshot is incomplete or damaged, of the other database kind, or the target is not empty
 */
export async function restore(config: Target, dir: string): Promise<Manifest> {
  const manifestFile = path.join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) throw new BackupError(`${dir} has no manifest.json: not a Coffer backup`);
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
  if (manifest.format !== FORMAT) throw new BackupError(`backup format ${manifest.format} is not supported (expected ${FORMAT})`);
  const toPostgres = isPostgres(config.DATABASE_URL);
  if ((manifest.database === 'postgres') !== toPostgres) {
    throw new BackupError(
      `this backup holds a ${manifest.database} database; set DATABASE_URL ${manifest.database === 'postgres' ? 'to an empty PostgreSQL database' : 'unset (PGlite)'} to restore it`,
    );
  }

  const lines = (await readFile(path.join(dir, 'files.md5'), 'utf8')).split('\n').filter(Boolean);
  for (const line of lines) {
    const [sum, rel] = [line.slice(0, 32), line.slice(34)];
    const actual = await md5Of(path.join(dir, 'files', rel)).catch(() => 'missing');
    if (actual !== sum)
      throw new BackupError(
        `files/${rel} is ${actual === 'missing' ? 'missing' : 'damaged (MD5 differs)'}; nothing was restored`,
      );
  }
  const objects = path.join(config.dataDir, 'files/objects');
  if ((await filesUnder(objects)).length) throw new BackupError(`${objects} already holds files; restore into an empty DATA_DIR`);

  if (toPostgres) {
    const url = config.DATABASE_URL!;
    await checkToolMatches('pg_restore', url);
    const tables = await withClient(
      url,
      async (c) =>
        (
          await c.query<{ n: string }>(
            `select count(*) as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`,
          )
        ).rows[0]!.n,
    );
    if (Number(tables) > 0) throw new BackupError('the target database is not empty; restore into a new database (createdb)');
    try {
      await run(
        'pg_restore',
        ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${url}`, path.join(dir, 'database.dump')],
        { maxBuffer: 16 * 1024 * 1024 },
      );
    } catch (err) {
      throw new BackupError(`pg_restore failed: ${(err as { stderr?: string }).stderr?.trim() || String(err)}`);
    }
  } else {
    const dbDir = path.join(config.dataDir, 'db');
    if (existsSync(dbDir) && (await readdir(dbDir)).length)
      throw new BackupError(`${dbDir} is not empty; restore into an empty DATA_DIR`);
    await mkdir(dbDir, { recursive: true });
    const tarball = new Blob([await readFile(path.join(dir, 'pglite-datadir.tar.gz'))]);
    const client = new PGlite(dbDir, { loadDataDir: tarball });
    await client.waitReady;
    await client.close();
  }

  for (const line of lines) {
    const rel = line.slice(34);
    const to = path.join(objects, rel);
    await mkdir(path.dirname(to), { recursive: true });
    await copyFile(path.join(dir, 'files', rel), to);
  }
  for (const name of GENERATED_SECRETS) {
    const secret = path.join(dir, 'secrets', name);
    if (!existsSync(secret)) continue;
    await mkdir(config.dataDir, { recursive: true });
    const to = path.join(config.dataDir, name);
    await copyFile(secret, to);
    await chmod(to, 0o600);
  }
  return manifest;
}

/** Command line: `backup <dir>` or `restore <dir>`; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, dir] = argv;
  if ((command !== 'backup' && command !== 'restore') || !dir) {
    console.error('usage: npm run backup -- <dir>   |   npm run restore -- <dir>');
    return 1;
  }
  const config = commandConfig();
  if (!config) return 2;
  // npm runs workspace scripts in apps/server; a relative <dir> means the directory npm was called from.
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), dir);
  try {
    if (command === 'backup') {
      const m = await backup(config, target);
      console.log(`backup: ${m.database} ${m.server_version} and ${m.files} stored file(s) written to ${target}`);
      if (config.STORAGE === 's3') console.log('backup: STORAGE=s3 — the bucket is not copied; keep it versioned or replicated');
    } else {
      const m = await restore(config, target);
      console.log(
        `restore: ${m.database} database and ${m.files} stored file(s) from ${m.created_at} restored (MD5s checked); run npm run ledger:verify, then start the server`,
      );
    }
    return 0;
  } catch (err) {
    console.error(`${command}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}

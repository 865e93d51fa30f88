/**
 * A fresh, empty PostgreSQL database of a test's own, on the server of `DATABASE_URL`, for tests
 * that must not share the suite's database (a store to seed, back up or restore, a payments mode
 * to record at first start). Each name is unique; `drop()` removes it with `WITH (FORCE)`.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchDatabase {
  /** Connection URL of the new database (DATABASE_URL with its path replaced). */
  url: string;
  /** Drops the database, closing any connection still open to it. */
  drop(): Promise<void>;
}

/** Runs one statement on DATABASE_URL's database (CREATE/DROP DATABASE cannot run inside a transaction). */
async function admin(sharedUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: sharedUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Creates `<prefix>_<12 hex digits>` next to DATABASE_URL's database.
 * @param prefix lower-case letters, digits and underscores, e.g. `coffer_backup`
 * @returns the database, or undefined when DATABASE_URL is not a PostgreSQL URL (PGlite runs)
 * @throws pg's error when the server refuses CREATE DATABASE
 */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase | undefined> {
  const shared = process.env.DATABASE_URL;
  if (!shared || !/^postgres(ql)?:\/\//.test(shared)) return undefined;
  if (!/^[a-z][a-z0-9_]*$/.test(prefix)) throw new Error(`scratch database prefix ${prefix} is not a plain identifier`);
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await admin(shared, `create database ${name}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropWhenIdle(shared, name) };
}

/**
 * Drops `name` once no session is connected to it, waiting up to 5 s, then `WITH (FORCE)`. pg's
 * `Pool.end()` resolves when it has asked its clients to end, before the server has closed their
 * sessions; a forced drop in that window sends those clients FATAL 57P01, which they raise as an
 * uncaught error in the test file that closed its app.
 */
async function dropWhenIdle(sharedUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: sharedUrl });
  await client.connect();
  try {
    for (let waited = 0; waited < 5_000; waited += 50) {
      const { rows } = await client.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [name]);
      if (Number(rows[0]?.n ?? 0) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}

/**
 * Fixed SQL text run straight through the driver, for the purchase hot path
 * (docs/decisions/0033-purchase-hot-path.md): no query building per call, and on PostgreSQL a named
 * prepared statement (parsed and planned once per pooled connection, then only bound and executed).
 *
 * A statement takes the same handle as every repository (`db`, or an open transaction `tx`), so it
 * runs on the transaction's connection. On PGlite the text goes through `query` (PGlite runs the
 * extended protocol in process; there is no connection to keep a plan on).
 *
 * Values come back as the driver parses them, so statements return portable types: bigint columns
 * cast to text (`::text`, parsed with `BigInt`), timestamps as `timestamptz` (a `Date` on both
 * drivers). Parameters are strings, numbers, booleans, Dates or null; a list is passed as one JSON
 * text parameter read with `jsonb_to_recordset($n::jsonb)`.
 */
import type { DbOrTx } from './client';

/** One SQL statement with a name unique in the process (the prepared statement's name on PostgreSQL). */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

const names = new Map<string, string>();

/**
 * Declares a statement (at module load).
 * @throws Error when `name` was declared before with another text (PostgreSQL would refuse it)
 */
export function statement(name: string, text: string): Statement {
  const compact = text.replace(/\s+/g, ' ').trim();
  const before = names.get(name);
  if (before !== undefined && before !== compact) throw new Error(`SQL statement ${name} declared twice with different text`);
  names.set(name, compact);
  return { name, text: compact };
}

/** Every statement declared so far in this process (the modules that declare them must be loaded). */
export function declaredStatements(): Statement[] {
  return [...names].map(([name, text]) => ({ name, text }));
}

interface QueryResult {
  rows: unknown[];
  rowCount?: number | null;
  affectedRows?: number;
}

interface DriverClient {
  query(...args: unknown[]): Promise<QueryResult>;
  /** Present on PGlite and its transactions only. */
  exec?: unknown;
}

/** The driver object behind a drizzle handle: a pg Pool / PoolClient, or a PGlite (transaction). */
function driverOf(db: DbOrTx): DriverClient {
  const client = (db as unknown as { session?: { client?: DriverClient } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('raw SQL: no driver client behind this database handle');
  return client;
}

/**
 * Runs `st` with `params` on `db` (or the transaction `db` is).
 * @returns the rows (driver-parsed, see the module comment) and the count of rows the statement
 * touched (for an UPDATE or DELETE without RETURNING)
 * @throws the driver's error (e.g. a deadlock, code 40P01), unchanged
 */
export async function run<R>(db: DbOrTx, st: Statement, params: readonly unknown[]): Promise<{ rows: R[]; count: number }> {
  const client = driverOf(db);
  if (typeof client.exec === 'function') {
    const res = await client.query(st.text, params);
    return { rows: res.rows as R[], count: Number(res.affectedRows ?? res.rows.length) };
  }
  const res = await client.query({ name: st.name, text: st.text, values: params });
  return { rows: res.rows as R[], count: Number(res.rowCount ?? res.rows.length) };
}

/**
 * PostgreSQL error codes (SQLSTATE) as the drivers report them. node-postgres and PGlite put the
 * code on the error they throw; drizzle and our own wrappers may wrap that error one or more times
 * in `cause`. {@link findPgError} is the one place that walks the chain.
 */

/** The SQLSTATE codes Coffer reacts to (PostgreSQL appendix A). */
export const PG = {
  /** unique_violation: a duplicate key (username, email, idempotency key...). */
  UNIQUE_VIOLATION: '23505',
  /** check_violation: a CHECK constraint refused the row (e.g. a ledger balance below its floor). */
  CHECK_VIOLATION: '23514',
  /** serialization_failure: the transaction may succeed if run again. */
  SERIALIZATION_FAILURE: '40001',
  /** deadlock_detected: the transaction may succeed if run again. */
  DEADLOCK_DETECTED: '40P01',
} as const;

/** A database error as found in the chain: its SQLSTATE and, for constraint errors, the constraint's name. */
export interface PgError {
  code: string;
  /** The constraint name (node-postgres: `constraint`, PGlite: `constraint` or `constraint_name`). */
  constraint?: string;
}

/** How many errors of a `cause` chain are looked at (the error itself first). */
const MAX_DEPTH = 5;

/**
 * The first error in `err` and its `cause` chain (at most 5 deep) whose `code` is one of `codes`,
 * or null when none is. Never throws; any value may be passed.
 */
export function findPgError(err: unknown, codes: readonly string[]): PgError | null {
  let e: unknown = err;
  for (let i = 0; i < MAX_DEPTH && e; i++) {
    const o = e as { code?: unknown; constraint?: string; constraint_name?: string };
    if (typeof o.code === 'string' && codes.includes(o.code)) {
      const constraint = o.constraint ?? o.constraint_name;
      return { code: o.code, ...(constraint !== undefined ? { constraint } : {}) };
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** True when the transaction failed on a serialization failure or a deadlock: running it again may succeed. */
export function isRetryableTxError(err: unknown): boolean {
  return findPgError(err, [PG.SERIALIZATION_FAILURE, PG.DEADLOCK_DETECTED]) !== null;
}

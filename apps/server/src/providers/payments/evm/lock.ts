/**
 * A PostgreSQL session advisory lock on a connection of its own (`pg_try_advisory_lock`), so that of
 * several Coffer instances only one runs a given job at a time (product §11: no home-made cluster
 * code). On PGlite (one embedded process) the lock is always granted.
 */
import pg from 'pg';

export interface AdvisoryLock {
  /** Takes the lock without waiting. @returns false when another session holds it */
  tryAcquire(): Promise<boolean>;
  release(): Promise<void>;
  /** Closes the lock's connection (releasing the lock). */
  close(): Promise<void>;
}

/**
 * @param databaseUrl the PostgreSQL URL, or undefined/`memory://` for PGlite (no locking needed)
 * @param key the lock's 64-bit key (one per job, e.g. the EVM watcher's)
 */
export function createAdvisoryLock(databaseUrl: string | undefined, key: bigint): AdvisoryLock {
  if (!databaseUrl || !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return { tryAcquire: async () => true, release: async () => {}, close: async () => {} };
  }
  let client: pg.Client | null = null;
  let held = false;

  async function connection(): Promise<pg.Client> {
    if (client) return client;
    const c = new pg.Client({ connectionString: databaseUrl });
    // A dropped connection drops the lock with it; the next pass reconnects.
    c.on('error', () => {
      if (client === c) {
        client = null;
        held = false;
      }
    });
    await c.connect();
    client = c;
    return c;
  }

  return {
    async tryAcquire() {
      if (held) return true;
      const c = await connection();
      const res = await c.query<{ ok: boolean }>('select pg_try_advisory_lock($1::bigint) as ok', [key.toString()]);
      held = res.rows[0]?.ok === true;
      return held;
    },
    async release() {
      if (!held || !client) return;
      held = false;
      await client.query('select pg_advisory_unlock($1::bigint)', [key.toString()]);
    },
    async close() {
      const c = client;
      client = null;
      held = false;
      if (c) await c.end().catch(() => {});
    },
  };
}

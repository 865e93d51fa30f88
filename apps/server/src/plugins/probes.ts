/**
 * Probes for orchestrators and load balancers (docs/operations.md "Probes and metrics"), plain JSON,
 * never the web app, no auth, no rate limit:
 * - `GET /healthz` -> 200 `{"status":"ok"}` while the process serves HTTP (liveness).
 * - `GET /readyz` -> 200 `{"status":"ready"}` when the database answers within 3 s and has every
 *   migration of this build, and the background workers run (when `WORKERS` is on); otherwise 503
 *   `{"status":"unavailable","reason":"..."}` with a short reason. While the server shuts down,
 *   Fastify answers 503 to every new request, probes included.
 */
import type { FastifyInstance } from 'fastify';
import { pendingMigrations, type Database } from '../db/client';

export interface ProbesOptions {
  database: Database;
  /** Whether this process is meant to run the workers (`WORKERS`). */
  workersEnabled: boolean;
  /** The worker runner's state (worker-runner.ts `WorkerRunner.state`, passed in by app.ts). */
  workers: () => { running: boolean; stopping: boolean; busy: string[] };
  /** Milliseconds the database check may take before the probe answers 503 (default 3000). */
  databaseTimeoutMs?: number;
}

/** Resolves to the problem with the database, or null when it is reachable and migrated. */
async function databaseProblem(database: Database, timeoutMs: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('database timeout'), timeoutMs);
  });
  const check = pendingMigrations(database).then(
    (pending) => (pending > 0 ? `database not migrated (${pending} pending)` : null),
    () => 'database unreachable',
  );
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Registers `/healthz` and `/readyz` (not in the OpenAPI document). */
export async function probesPlugin(app: FastifyInstance, options: ProbesOptions): Promise<void> {
  const timeoutMs = options.databaseTimeoutMs ?? 3_000;
  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    return reply.header('cache-control', 'no-store').send({ status: 'ok' });
  });
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    const problem = await databaseProblem(options.database, timeoutMs);
    if (problem) return reply.status(503).send({ status: 'unavailable', reason: problem });
    if (options.workersEnabled) {
      const workers = options.workers();
      if (!workers.running)
        return reply
          .status(503)
          .send({ status: 'unavailable', reason: workers.stopping ? 'workers stopping' : 'workers not running' });
    }
    return reply.send({ status: 'ready' });
  });
}

/**
 * A limit server (spawned by harness.ts `startLimitServer`, never run by hand): a bare Fastify app,
 * logger off, with the routes the bench asks for in the `LIMIT_CONFIG` environment variable (JSON,
 * {@link LimitConfig}). It listens on 127.0.0.1:`port` and prints `listening` when it does.
 *
 * Route kinds (the limits of the issue "Figures a user gets, against limits that are limits"):
 * - `bytes`: answers a fixed body from memory, byte for byte the answer Coffer gave to the same call
 *   (HTTP, routing and the same payload; no JSON work, no database) — the limit of cached reads and
 *   the HTTP half of a purchase;
 * - `select`: runs one PREPARED statement (a pg named statement, parsed once per connection) through a
 *   pg Pool of `poolMax` connections and answers its first row in Coffer's envelope
 *   `{"code":10000,"msg":"success","data":row}` — the limit of uncached reads.
 */
import Fastify from 'fastify';
import pg from 'pg';

/** One route of a limit server. */
export type LimitRoute =
  | { path: string; kind: 'bytes'; body: string }
  | { path: string; kind: 'select'; name: string; sql: string; params: unknown[] };

/** What the limit server serves (the `LIMIT_CONFIG` JSON). */
export interface LimitConfig {
  port: number;
  routes: LimitRoute[];
  /** Needed by `select` routes. */
  databaseUrl?: string;
  /** pg Pool size of `select` routes (Coffer's pool: 20). */
  poolMax?: number;
}

async function main() {
  const config = JSON.parse(process.env.LIMIT_CONFIG ?? '') as LimitConfig;
  const app = Fastify({ logger: false });
  let pool: pg.Pool | undefined;
  for (const route of config.routes) {
    if (route.kind === 'bytes') {
      const body = Buffer.from(route.body);
      app.post(route.path, (_req, reply) => {
        void reply.header('content-type', 'application/json; charset=utf-8').send(body);
      });
    } else {
      pool ??= new pg.Pool({ connectionString: config.databaseUrl, max: config.poolMax ?? 20 });
      const p = pool;
      const query = { name: route.name, text: route.sql, values: route.params };
      app.post(route.path, async () => {
        const { rows } = await p.query(query);
        return { code: 10000, msg: 'success', data: rows[0] ?? null };
      });
    }
  }
  if (pool) {
    const p = pool;
    app.addHook('onClose', () => p.end());
  }
  await app.listen({ host: '127.0.0.1', port: config.port });
  console.log('listening');
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

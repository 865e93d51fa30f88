/**
 * `GET /metrics` in the Prometheus text format (prom-client; docs/operations.md "Probes and metrics").
 *
 * Who may read it: a client connected from loopback without proxy forwarding headers, or any client
 * sending `Authorization: Bearer $METRICS_TOKEN` when `METRICS_TOKEN` is set. Anyone else gets the
 * app's ordinary 404 envelope, as for an unknown path.
 *
 * What it holds (every name starts with `coffer_`):
 * - `coffer_http_request_duration_seconds{method,route,status_code}`: histogram of every answered
 *   request; `route` is the route pattern (`/api/...`, `/files/:id`), `<unmatched>` for 404s, and
 *   hashed web assets fold into `/assets/*`;
 * - `coffer_rate_limit_refusals_total{route}`: requests answered 429 (per-IP and per-account limits);
 * - computed from the database at scrape time: `coffer_payout_queue_depth{provider,state}` (withdraw
 *   bills whose payout is queued, sending or sent), `coffer_payout_queue_oldest_age_seconds{provider}`
 *   (since confirmation, by the app clock), `coffer_deposit_bills_processing{provider}`,
 *   `coffer_ledger_postings{kind}` (ledger transactions so far);
 * - a payment rail's own gauges, added through `app.metrics` (the EVM rail's: providers/payments/evm/metrics.ts);
 * - Node's process metrics (`coffer_process_resident_memory_bytes`, event-loop lag, GC...).
 *
 * Other code adds its own scrape-time gauges through `app.metrics.addGauge` (see {@link MetricsRegistry}).
 */
import { timingSafeEqual } from 'node:crypto';
import { ERROR_TABLE } from '@coffer/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client';
import type { Config } from '../env';
import type { Clock } from '../lib/clock';
import type { MetricsRegistry } from '../lib/metrics';

export type { GaugeDefinition, GaugeSample, MetricsRegistry } from '../lib/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: MetricsRegistry;
  }
}

export interface MetricsOptions {
  config: Pick<Config, 'METRICS_TOKEN'>;
  database: Database;
  clock: Clock;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Loopback socket and no proxy in between (a reverse proxy on the same host connects from loopback too). */
function fromLoopback(req: FastifyRequest): boolean {
  const proxied =
    req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined || req.headers['x-real-ip'] !== undefined;
  return !proxied && LOOPBACK.test(req.socket.remoteAddress ?? '');
}

function hasToken(req: FastifyRequest, token: string | undefined): boolean {
  if (!token) return false;
  const header = req.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** The route label of a request: its pattern, `/assets/*` for hashed web assets, `<unmatched>` otherwise. */
function routeLabel(req: FastifyRequest, statusCode: number): string {
  const url = req.routeOptions?.url;
  if (!url) return '<unmatched>';
  if (url.startsWith('/assets/')) return '/assets/*';
  // The not-found handler has no pattern of its own.
  return statusCode === 404 && url === '*' ? '<unmatched>' : url;
}

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> =>
  ((await database.db.execute(query)) as unknown as Rows<T>).rows;

async function metricsPluginImpl(app: FastifyInstance, options: MetricsOptions): Promise<void> {
  const { config, database, clock } = options;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'coffer_' });
  const gaugeNames = new Set<string>();

  const metrics: MetricsRegistry = {
    registry,
    addGauge(definition) {
      if (!definition.name.startsWith('coffer_')) throw new Error(`metric ${definition.name} must start with coffer_`);
      if (gaugeNames.has(definition.name)) throw new Error(`metric ${definition.name} is already registered`);
      gaugeNames.add(definition.name);
      new Gauge({
        name: definition.name,
        help: definition.help,
        labelNames: definition.labelNames ?? [],
        registers: [registry],
        async collect() {
          this.reset();
          try {
            for (const sample of await definition.collect()) {
              if (sample.labels) this.set(sample.labels, sample.value);
              else this.set(sample.value);
            }
          } catch (err) {
            app.log.warn({ err, metric: definition.name }, 'metric collection failed');
          }
        },
      });
    },
  };
  app.decorate('metrics', metrics);

  const duration = new Histogram({
    name: 'coffer_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and status.',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'coffer_rate_limit_refusals_total',
    help: 'Requests refused with 429 by a rate limit, by route pattern.',
    labelNames: ['route'],
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = routeLabel(req, reply.statusCode);
    duration.observe({ method: req.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) refusals.inc({ route });
  });

  // Payouts: one query feeds both the depth and the age gauges of a scrape.
  type PayoutRow = { provider: string; state: string; n: number; oldest: string | Date | null };
  let payoutScrape: Promise<PayoutRow[]> | undefined;
  const payoutRows = () =>
    (payoutScrape ??= rowsOf<PayoutRow>(
      database,
      sql`select provider, payout_state as state, count(*)::int as n, min(coalesce(confirmed_at, created_at)) as oldest
          from withdraw_bills where payout_state in ('queued', 'sending', 'sent') group by provider, payout_state`,
    ).finally(() => setImmediate(() => (payoutScrape = undefined))));
  metrics.addGauge({
    name: 'coffer_payout_queue_depth',
    help: 'Withdraw bills whose payout is queued, being sent, or sent and awaiting its outcome.',
    labelNames: ['provider', 'state'],
    collect: async () =>
      (await payoutRows()).map((r) => ({ labels: { provider: r.provider, state: r.state }, value: Number(r.n) })),
  });
  metrics.addGauge({
    name: 'coffer_payout_queue_oldest_age_seconds',
    help: 'Seconds since the oldest unfinished payout was confirmed, per provider.',
    labelNames: ['provider'],
    collect: async () => {
      const oldest = new Map<string, number>();
      for (const r of await payoutRows()) {
        if (r.oldest === null) continue;
        const at = new Date(r.oldest).getTime();
        oldest.set(r.provider, Math.min(oldest.get(r.provider) ?? at, at));
      }
      return [...oldest].map(([provider, at]) => ({ labels: { provider }, value: Math.max(0, (clock.now() - at) / 1000) }));
    },
  });
  metrics.addGauge({
    name: 'coffer_deposit_bills_processing',
    help: 'Deposit bills in DepositStatusProcessing (awaiting payment), per provider.',
    labelNames: ['provider'],
    collect: async () =>
      (
        await rowsOf<{ provider: string; n: number }>(
          database,
          sql`select provider, count(*)::int as n from deposit_bills where status = 'DepositStatusProcessing' group by provider`,
        )
      ).map((r) => ({ labels: { provider: r.provider }, value: Number(r.n) })),
  });
  metrics.addGauge({
    name: 'coffer_ledger_postings',
    help: 'Ledger transactions (postings) recorded so far, per kind.',
    labelNames: ['kind'],
    collect: async () =>
      (
        await rowsOf<{ kind: string; n: number }>(
          database,
          sql`select kind, count(*)::int as n from ledger_transactions group by kind`,
        )
      ).map((r) => ({
        labels: { kind: r.kind },
        value: Number(r.n),
      })),
  });

  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!fromLoopback(req) && !hasToken(req, config.METRICS_TOKEN)) {
      const { code, status } = ERROR_TABLE.NOT_FOUND;
      return reply.status(status).send({ code, msg: 'The requested resource was not found.', reason: 'NOT_FOUND' });
    }
    const body = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(body);
  });
}

/**
 * Registers `/metrics`, the request hooks and `app.metrics` on the root instance (fastify-plugin, so
 * the hooks see every route).
 */
export const metricsPlugin = fp(metricsPluginImpl, { name: 'coffer-metrics' });

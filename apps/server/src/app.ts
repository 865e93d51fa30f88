/**
 * Builds the Fastify app: plugins, providers, services and routes (product §10-§12). The services are
 * built by services.ts (the composition root); this file registers plugins and routes around them.
 * `buildApp` is what `server.ts` starts and what every API test drives through `app.inject`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ERROR_TABLE } from '@coffer/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { openDatabase, type Database } from './db/client';
import type { Config } from './env';
import { systemClock, type Clock } from './lib/clock';
import { openSharedState, trustProxySetting } from './lib/shared-state';
import { accountRoutes } from './modules/account/account.routes';
import { collectionsRoutes } from './modules/collections/collections.routes';
import { creatorsRoutes } from './modules/creators/creators.routes';
import { depositRoutes } from './modules/deposits/deposits.routes';
import { eventsRoutes } from './modules/events/events.routes';
import { reviewsRoutes } from './modules/reviews/reviews.routes';
import { salesRoutes } from './modules/sales/sales.routes';
import { downloadsRoutes } from './modules/downloads/downloads.routes';
import { moderationRoutes } from './modules/moderation/moderation.routes';
import { discountsRoutes } from './modules/discounts/discounts.routes';
import { licencesRoutes } from './modules/licences/licences.routes';
import { ordersRoutes } from './modules/orders/orders.routes';
import { checkPaymentsMode } from './modules/payments/payments-mode';
import { paymentRoutes } from './modules/payments/payments.routes';
import { recordRoutes } from './modules/records/records.routes';
import { reservesRoutes } from './modules/reserves/reserves.routes';
import { uploadsRoutes } from './modules/uploads/uploads.routes';
import { withdrawalRoutes } from './modules/withdrawals/withdrawals.routes';
import { tokensRoutes } from './modules/tokens/tokens.routes';
import { apiBudgetPlugin } from './plugins/api-budget';
import { authPlugin } from './plugins/auth';
import { textGuardPlugin } from './plugins/text-guard';
import { errorHandlerPlugin } from './plugins/error-handler';
import { filesPlugin } from './modules/uploads/files.routes';
import { metricsPlugin } from './plugins/metrics';
import { probesPlugin } from './plugins/probes';
import { RequestLogController } from './plugins/request-log';
import { openApiOptions } from './plugins/openapi';
import { securityHeadersPlugin } from './plugins/security-headers';
import { loadWebDocument } from './plugins/web-document';
import { buildServices, type Services } from './services';
export type { Services } from './services';
import { stdoutDestination } from './lib/log-destination';
import { createWorkerRunner, type Worker, type WorkerRunner } from './worker-runner';

/** A route as registered (collected by an onRoute hook; the fuzz test walks every POST route). */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** The route's body schema (a zod schema for `defineEndpoint` calls), if any. */
  bodySchema?: unknown;
}

export interface AppContext {
  config: Config;
  database: Database;
  clock: Clock;
  services: Services;
  workers: Worker[];
  /** Runs `workers` (started by server.ts when WORKERS is on; stopped when the app closes). */
  runner: WorkerRunner;
  routes: RegisteredRoute[];
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface BuildOptions {
  config: Config;
  clock?: Clock;
  /** An already-open database (tests share one per file); otherwise opened from config. */
  database?: Database;
  /** Logger override (tests pass false). */
  logger?: boolean | object;
  /** Where the default logger writes (stdout when unset); tests read log lines from it. */
  logStream?: NodeJS.WritableStream;
  /**
   * Record and check the database's payments mode (payments-mode.ts); default true. Tests that share
   * one PostgreSQL database between sandbox and real-rail files turn it off.
   */
  checkPaymentsMode?: boolean;
  /** The per-client API budget and RateLimit headers (plugins/api-budget.ts); default true. bench/api-budget.bench.ts turns it off to measure its cost. */
  apiBudget?: boolean;
}

/** Creates the app, runs migrations, registers everything. Call `app.close()` to stop (closes the DB it opened). */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const ownsDatabase = !options.database;
  const database = options.database ?? (await openDatabase(config.DATABASE_URL, config.dataDir));
  await database.migrate();
  if (options.checkPaymentsMode !== false) {
    await checkPaymentsMode(database.db, config.PAYMENTS).catch(async (err: unknown) => {
      if (ownsDatabase) await database.close();
      throw err;
    });
  }

  const app = Fastify({
    logger:
      options.logger ??
      ({
        level: config.LOG_LEVEL,
        redact: {
          paths: [
            'req.headers.authorization',
            'req.body.password',
            'req.body.password_old',
            'req.body.password_new',
            'req.body.code',
          ],
          censor: '[redacted]',
        },
        stream: options.logStream ?? stdoutDestination(),
      } as object),
    // One line per request instead of Fastify's two (plugins/request-log.ts).
    logController: new RequestLogController(),
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    ajv: undefined,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const shared = await openSharedState(config, database, clock, app.log);
  app.addHook('onClose', () => shared.close());
  const built = await buildServices({ config, database, clock, log: app.log, shared });
  const { services, workers } = built;
  const routes: RegisteredRoute[] = [];
  const runner = createWorkerRunner(workers, app.log);
  app.decorate('ctx', { config, database, clock, services, workers, runner, routes });
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routes.push({ method, url: r.url, bodySchema: r.schema?.body });
  });
  app.addHook('onClose', () => built.close());

  // The web app's document per path, with the first screen's data and preloads (issue 16).
  const webDocument = config.SERVE_WEB
    ? loadWebDocument(
        webDist,
        {
          market: (body) => services.collections.market(body),
          detail: (id) => services.collections.detail(null, id),
          reviews: (id, paginator) => services.reviews.list(null, id, paginator),
        },
        app.log,
      )
    : null;

  await app.register(errorHandlerPlugin);
  // Operations (docs/operations.md): /metrics with its request hooks first, so they see every route; /healthz, /readyz.
  await app.register(metricsPlugin, { config, database, clock });
  // Imported only for a configured rail: its module graph holds the chain library (viem, tronweb).
  if (config.evm) (await import('./providers/payments/evm/metrics')).addEvmMetrics(app.metrics, { settings: config.evm, db: database.db });
  if (config.tron) (await import('./providers/payments/tron/metrics')).addTronMetrics(app.metrics, { settings: config.tron, db: database.db });
  await app.register(probesPlugin, { database, workersEnabled: config.WORKERS, workers: () => runner.state() });
  // Helmet's headers, computed once (plugins/security-headers.ts).
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // wasm-unsafe-eval lets the web app compile WebAssembly (hash-wasm MD5 of passwords and files, product §5); it does not allow eval.
        // The document's inline theme script is allowed by its hash alone (plugins/web-document.ts).
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...(webDocument?.scriptHashes ?? [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(config.S3_ENDPOINT ? [config.S3_ENDPOINT] : [])],
        connectSrc: ["'self'", ...(config.S3_ENDPOINT ? [config.S3_ENDPOINT] : [])],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  await app.register(rateLimit, {
    global: false,
    // With REDIS_URL every instance counts in Redis: one budget behind a load balancer (docs/abuse.md).
    // A Redis outage lets requests through (skipOnError) rather than failing them; password budgets fall back to memory.
    ...(shared.redis ? { redis: shared.redis, nameSpace: `${config.REDIS_KEY_PREFIX}rl:`, skipOnError: true } : {}),
    errorResponseBuilder: () => ({
      ...ERROR_TABLE.RATE_LIMITED,
      statusCode: 429,
      msg: 'Too many attempts. Please try again later.',
      reason: 'RATE_LIMITED',
    }),
  });
  // A control character in any string of a body is refused before validation (docs/abuse.md "Text").
  await app.register(textGuardPlugin);
  // A session token or a personal access token (`coffer_pat_`), resolved once per request (both cached).
  await app.register(authPlugin, {
    resolve: (token) => services.sessions.resolveSession(token),
    resolveAccessToken: (token) => services.tokens.resolve(token),
  });
  // The per-client API budget and the RateLimit headers of every API answer (docs/api.md "Rate limits").
  if (options.apiBudget !== false) {
    await app.register(apiBudgetPlugin, {
      max: config.API_RATE_LIMIT_MAX,
      windowSeconds: config.API_RATE_LIMIT_WINDOW_SECONDS,
      resolve: (req) => app.authOf(req),
    });
  }
  await app.register(swagger, openApiOptions());
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(async (api) => {
    accountRoutes(api, services, { registrationsPerIpPerHour: config.REGISTRATIONS_PER_IP_PER_HOUR });
    tokensRoutes(api, services.tokens);
    recordRoutes(api, services.records);
    await paymentRoutes(api, services.payments, services.deposits, services.clearance);
    depositRoutes(api, services.deposits);
    withdrawalRoutes(api, services.withdrawals);
    await built.railRoutes(api);
    uploadsRoutes(api, services.uploads, services.images);
    collectionsRoutes(api, services.collections);
    creatorsRoutes(api, services.creators);
    ordersRoutes(api, services);
    discountsRoutes(api, services.discounts);
    licencesRoutes(api, services.licences);
    downloadsRoutes(api, services.downloads);
    reservesRoutes(api, services.reserves);
    eventsRoutes(api, services.events);
    moderationRoutes(api, services.moderation);
    reviewsRoutes(api, services.reviews);
    salesRoutes(api, services.sales);
  });
  await app.register(filesPlugin, { storage: services.storage, images: services.images });

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    const isApi = url.startsWith('/api/') || url.startsWith('/sl/') || url === '/api';
    if (!isApi && (req.method === 'GET' || req.method === 'HEAD') && webDocument) return webDocument.send(req, reply);
    const { code, status } = ERROR_TABLE.NOT_FOUND;
    return reply.status(status).send({ code, msg: 'The requested resource was not found.', reason: 'NOT_FOUND' });
  });

  if (config.SERVE_WEB && existsSync(webDist)) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      // The document is rendered per path (plugins/web-document.ts), `/` and `/index.html` included.
      index: false,
      allowedPath: (pathName) => pathName !== '/index.html',
      // The web build writes .br and .gz beside each asset (vite-plugin-compression2).
      preCompressed: true,
      setHeaders(res, filePath) {
        res.header(
          'Cache-Control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    // sendFile is used by the not-found handler; keep the decorator available.
    await app.register(fastifyStatic, { root: path.resolve('.'), serve: false });
  }

  // Workers stop between passes and the mails being sent are recorded before the database closes
  // (onClose hooks run last-registered first; server.ts starts stopping workers on SIGTERM already).
  app.addHook('onClose', async () => {
    await runner.stop();
    await built.mailSettled();
    if (ownsDatabase) await database.close();
  });
  return app;
}

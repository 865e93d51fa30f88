/**
 * Builds the Fastify app: plugins, providers, services and routes (DESIGN 1-3).
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
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { openDatabase, type Database } from './db/client';
import type { Config } from './env';
import { systemClock, type Clock } from './lib/clock';
import { accountRoutes } from './modules/account/account.routes';
import { createAccountService } from './modules/account/account.service';
import { createLedgerService } from './modules/ledger/ledger.service';
import { recordRoutes } from './modules/records/records.routes';
import { createPaymentsModule } from './modules/payments/index';
import { checkPaymentsMode } from './modules/payments/payments-mode';
import { createRecordsService } from './modules/records/records.service';
import { authPlugin } from './plugins/auth';
import { errorHandlerPlugin } from './plugins/error-handler';
import { metricsPlugin } from './plugins/metrics';
import { probesPlugin } from './plugins/probes';
import { openApiOptions } from './plugins/openapi';
import { securityHeadersPlugin } from './plugins/security-headers';
import { createWorkerRunner, type WorkerRunner } from './worker-runner';
import { createMailProvider } from './providers/mail/index';
import { collectionsRoutes } from './modules/collections/collections.routes';
import { createCollectionsService } from './modules/collections/collections.service';
import { ordersRoutes } from './modules/orders/orders.routes';
import { createOrdersService } from './modules/orders/orders.service';
import { storageRoutes } from './modules/storage/storage.routes';
import { createImagesService } from './modules/uploads/images.service';
import { uploadsRoutes } from './modules/uploads/uploads.routes';
import { createUploadsService } from './modules/uploads/uploads.service';
import { createStorage } from './providers/storage/index';
import { openSharedState, trustProxySetting, type SharedState } from './lib/shared-state';
import { createPasswordBudget } from './modules/account/password-budget';

/** A background job the server runs on an interval (payout worker, expiry sweeper...). */
export interface Worker {
  name: string;
  /** Milliseconds between runs. */
  intervalMs: number;
  /** One pass; must be safe to run on several instances at once. `signal` aborts on shutdown (end the pass early). */
  tick(signal?: AbortSignal): Promise<unknown>;
  /** Optional: registers `run`, which starts a pass now (or right after the one in progress). */
  wake?(run: () => void): void;
}

/** A route as registered (collected by an onRoute hook; the fuzz test walks every POST route). */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** The route's body schema (a zod schema for `defineRoute` calls), if any. */
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

export type Services = Awaited<ReturnType<typeof buildServices>>;

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

async function buildServices(config: Config, database: Database, clock: Clock, log: FastifyBaseLogger, shared: SharedState) {
  const db = database.db;
  const mail = createMailProvider(config);
  const ledger = createLedgerService({ db });
  const records = createRecordsService({ db });
  const storage = await createStorage(config, clock);
  const images = createImagesService({ db, storage, clock, publicUrl: config.publicUrl });
  const avatarUrl = (stored: string) => (images.idOf(stored) === stored ? images.url(stored) : stored);
  const accounts = createAccountService({ db, clock, ledger, sessionTtlHours: config.SESSION_TTL_HOURS, mail, log, avatarUrl, checkAvatar: (userId, value) => images.claim(userId, value), passwordBudget: createPasswordBudget(shared.counters), revocations: shared.revocations });
  const uploads = createUploadsService({ db, storage, clock, maxUploadBytes: config.MAX_UPLOAD_BYTES, quotaBytes: config.STORAGE_QUOTA_BYTES });
  const collections = createCollectionsService({ db, clock, storage, uploads, images, avatarUrl });
  const orders = createOrdersService({ db, clock, ledger, records, accounts, collections, feeBps: config.PLATFORM_FEE_BPS });
  collections.bindPurchases(orders);
  accounts.addDeletionHook((userId, tx) => collections.archivePublishedOf(userId, tx));
  const payments = createPaymentsModule({ config, db, clock, ledger, records, accounts, log });
  return { payments, ledger, records, accounts, mail, storage, images, uploads, collections, orders };
}

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
          paths: ['req.headers.authorization', 'req.body.password', 'req.body.password_old', 'req.body.password_new', 'req.body.code'],
          censor: '[redacted]',
        },
        ...(options.logStream ? { stream: options.logStream } : {}),
      } as object),
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    ajv: undefined,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const shared = await openSharedState(config, database, clock, app.log);
  app.addHook('onClose', () => shared.close());
  const services = await buildServices(config, database, clock, app.log, shared);
  const workers: Worker[] = [];
  workers.push(...services.payments.workers);
  // Pending uploads untouched for a week are aborted and their parts dropped.
  workers.push({ name: 'uploads-cleanup', intervalMs: 3_600_000, tick: () => services.uploads.abortStale(7 * 24 * 3_600_000) });
  const routes: RegisteredRoute[] = [];
  const runner = createWorkerRunner(workers, app.log);
  app.decorate('ctx', { config, database, clock, services, workers, runner, routes });
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routes.push({ method, url: r.url, bodySchema: r.schema?.body });
  });
  app.addHook('onClose', async () => {
    await services.accounts.mailSettled();
    await services.mail.close();
    await services.payments.close();
  });

  await app.register(errorHandlerPlugin);
  // Operations (docs/operations.md): /metrics with its request hooks first, so they see every route; /healthz, /readyz.
  await app.register(metricsPlugin, { config, database, clock });
  await app.register(probesPlugin, { database, workersEnabled: config.WORKERS, workers: () => runner.state() });
  // Helmet's headers, computed once (plugins/security-headers.ts).
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // wasm-unsafe-eval lets the web app compile WebAssembly (hash-wasm MD5 of passwords and files, SPEC 5); it does not allow eval.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
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
    errorResponseBuilder: () => ({ ...ERROR_TABLE.RATE_LIMITED, statusCode: 429, msg: 'Too many attempts. Please try again later.', reason: 'RATE_LIMITED' }),
  });
  await app.register(authPlugin, { resolve: (token) => services.accounts.resolveSession(token) });
  await app.register(swagger, openApiOptions());
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(async (api) => {
    accountRoutes(api, services.accounts, { registrationsPerIpPerHour: config.REGISTRATIONS_PER_IP_PER_HOUR });
    recordRoutes(api, services.records);
    await services.payments.routes(api);
    uploadsRoutes(api, services.uploads, services.images);
    collectionsRoutes(api, services.collections);
    ordersRoutes(api, services.orders);
  });
  await app.register(async (files) => {
    await storageRoutes(files, { storage: services.storage, images: services.images });
  });

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    const isApi = url.startsWith('/api/') || url.startsWith('/sl/') || url === '/api';
    if (!isApi && req.method === 'GET' && config.SERVE_WEB && existsSync(path.join(webDist, 'index.html'))) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html', webDist);
    }
    const { code, status } = ERROR_TABLE.NOT_FOUND;
    return reply.status(status).send({ code, msg: 'The requested resource was not found.', reason: 'NOT_FOUND' });
  });

  if (config.SERVE_WEB && existsSync(webDist)) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      // The web build writes .br and .gz beside each asset (vite-plugin-compression2).
      preCompressed: true,
      setHeaders(res, filePath) {
        res.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    // sendFile is used by the not-found handler; keep the decorator available.
    await app.register(fastifyStatic, { root: path.resolve('.'), serve: false });
  }

  // Workers stop between passes before the database closes (server.ts starts stopping them on SIGTERM already).
  app.addHook('onClose', async () => {
    await runner.stop();
    if (ownsDatabase) await database.close();
  });
  return app;
}

/**
 * Entry point (`npm start` runs the compiled `dist/server.js`; `npm run dev` this file through tsx):
 * parse configuration, build the app (migrations run there, under an advisory lock on PostgreSQL),
 * listen, start the background workers when `WORKERS` is on, and shut down gracefully.
 *
 * Shutdown on SIGTERM or SIGINT (docs/operations.md "Graceful shutdown"): the listener closes (no new
 * connections; new requests on kept-alive connections get 503), requests in flight — an upload part
 * included — are answered, workers stop between passes, the database closes, and the process exits 0.
 * Should that take longer than {@link SHUTDOWN_TIMEOUT_MS}, the process logs it and exits 1.
 */
import { buildApp } from './app';
import { ConfigError, loadConfig } from './env';

/** Milliseconds a shutdown may take before the process exits anyway (orchestrators send SIGKILL at 10 s or later). */
export const SHUTDOWN_TIMEOUT_MS = 9_000;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const app = await buildApp({ config });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    try {
      // Workers start stopping now, in parallel with the HTTP drain; app.close awaits them before closing the database.
      void app.ctx.runner.stop();
      await app.close();
      app.log.info('shut down');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.PORT, host: config.HOST });
  if (config.WORKERS) app.ctx.runner.start();
  app.log.info(
    `Coffer is running at ${config.publicUrl} (database: ${app.ctx.database.kind}, payments: ${config.PAYMENTS}, storage: ${config.STORAGE})`,
  );
}

main().catch((err) => {
  // A refused start (payments-mode.ts) is one line for the operator, not a stack.
  console.error(err instanceof Error && err.name === 'StartupRefusal' ? err.message : err);
  process.exit(1);
});

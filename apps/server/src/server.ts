/**
 * Entry point: parse configuration, build the app, listen, run the background workers, and shut
 * down gracefully on SIGINT/SIGTERM.
 */
import { buildApp } from './app';
import { ConfigError, loadConfig } from './env';

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
  const timers: NodeJS.Timeout[] = [];
  if (config.WORKERS) {
    for (const worker of app.ctx.workers) {
      let running = false;
      timers.push(
        setInterval(() => {
          if (running) return;
          running = true;
          worker
            .tick()
            .catch((err) => app.log.error({ err, worker: worker.name }, 'worker failed'))
            .finally(() => {
              running = false;
            });
        }, worker.intervalMs).unref(),
      );
    }
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    timers.forEach(clearInterval);
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`Coffer is running at ${config.publicUrl} (database: ${app.ctx.database.kind}, payments: ${config.PAYMENTS}, storage: ${config.STORAGE})`);
}

main().catch((err) => {
  // A refused start (payments-mode.ts) is one line for the operator, not a stack.
  console.error(err instanceof Error && err.name === 'StartupRefusal' ? err.message : err);
  process.exit(1);
});

/**
 * `npm run admin -- <command>`: reports, takedowns and suspensions (product §27; commands in
 * admin-commands.ts, docs/operations.md). Runs against the configured database — `DATABASE_URL`, or
 * the PGlite database in `DATA_DIR` (stop the server first: PGlite allows one process) — with the
 * server's configuration (command-config.ts). A suspension's revoked sessions reach running
 * instances through the revocation bus (Redis with `REDIS_URL`, else PostgreSQL NOTIFY).
 * Exits 0 when done, 1 when refused, 2 when it cannot run.
 */
import { openDatabase } from '../db/client';
import { systemClock } from '../lib/clock';
import { openSharedState } from '../lib/shared-state';
import * as collectionsRepo from '../modules/collections/collections.repository';
import { createEventsService } from '../modules/events/events.service';
import { createModerationService } from '../modules/moderation/moderation.service';
import { buildServices } from '../services';
import { runAdmin } from './admin-commands';
import { cannotRun, commandConfig, runCommand } from './command-config';

const quietLog = {
  warn: (obj: unknown, msg?: string) => console.error(`warning: ${msg ?? ''}`, obj instanceof Error ? obj.message : ''),
  error: (obj: unknown, msg?: string) => console.error(`error: ${msg ?? ''}`),
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  fatal: () => undefined,
  child: () => quietLog,
  level: 'warn',
  silent: () => undefined,
};

async function main(): Promise<number> {
  const config = commandConfig();
  if (!config) return 2;
  const database = await openDatabase(config.DATABASE_URL, config.dataDir);
  const log = quietLog as never;
  try {
    const shared = await openSharedState(config, database, systemClock, log);
    try {
      const db = database.db;
      const events = createEventsService({ db, clock: systemClock, log, allowPrivate: false, timeoutMs: 10_000 });
      const moderation = createModerationService({
        db,
        clock: systemClock,
        // The collection writes without the app's read caches (a running app's caches age out within 2 s).
        collections: {
          detail: () => Promise.reject(new Error('not used by the admin command')),
          lock: (id, tx) => collectionsRepo.lockCollection(tx, id),
          setTakedown: (id, takedown, tx) => collectionsRepo.setTakedown(tx, id, takedown),
          forget: () => undefined,
        },
        events: events.writer,
        revocations: shared.revocations,
      });
      // The dispute commands refund through the refunds service: the app's services, built on demand.
      const disputes = async () => {
        const { services } = await buildServices({ config, database, clock: systemClock, log, shared });
        return { refunds: services.refunds, revokeAllSessions: (userId: string) => services.sessions.revokeAllSessions(userId) };
      };
      return await runAdmin(
        process.argv.slice(2),
        moderation,
        { out: (line) => console.log(line), err: (line) => console.error(line) },
        disputes,
      );
    } finally {
      await shared.close();
    }
  } catch (err) {
    console.error(cannotRun('admin', err));
    return 2;
  } finally {
    await database.close();
  }
}

runCommand(main);

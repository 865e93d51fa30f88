import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { createTestApp, type TestApp } from '../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SERVE_WEB: 'true' });
});
afterAll(() => t.close());

describe('probes', () => {
  it('GET /healthz answers plain JSON, never the web app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz is ready on a migrated database when workers are off', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  it('GET /readyz answers 503 while the workers are not running, ready once they run', async () => {
    const w = await createTestApp({ WORKERS: 'true' });
    try {
      const before = await w.app.inject({ method: 'GET', url: '/readyz' });
      expect(before.statusCode).toBe(503);
      expect(before.json()).toEqual({ status: 'unavailable', reason: 'workers not running' });
      w.app.ctx.runner.start();
      expect((await w.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      await w.app.ctx.runner.stop();
      expect((await w.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({
        status: 'unavailable',
        reason: 'workers stopping',
      });
    } finally {
      await w.close();
    }
  });

  it('GET /readyz answers 503 when the database is not migrated or not reachable', async () => {
    // An app over a database of its own, so the migrations table can be emptied and the database closed.
    const database = await openDatabase('memory://', t.dataDir);
    const { buildApp } = await import('../app');
    const app = await buildApp({ config: t.app.ctx.config, database, logger: false });
    try {
      await database.db.execute(
        sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
      );
      const pending = await app.inject({ method: 'GET', url: '/readyz' });
      expect(pending.statusCode).toBe(503);
      expect(pending.json()).toEqual({ status: 'unavailable', reason: 'database not migrated (1 pending)' });
      await database.close();
      const down = await app.inject({ method: 'GET', url: '/readyz' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'unavailable', reason: 'database unreachable' });
    } finally {
      await app.close();
    }
  });
});

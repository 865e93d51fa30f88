/**
 * Backup and restore (issue 17, docs/operations.md): the demo store seeded on the embedded PGlite in
 * a data dir, or on a fresh PostgreSQL database when DATABASE_URL is set, is backed up, restored into
 * an empty data dir / database, and then the ledger verifies and every resource downloads with its MD5.
 * Generous per-test timeouts: each creates on-disk PGlite databases (initdb in WebAssembly), which
 * takes tens of seconds on a loaded machine.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { resources, users } from '../db/schema/index';
import { loadConfig, type Config } from '../env';
import { ManualClock } from '../lib/clock';
import { verifyLedger } from '../modules/ledger/ledger.verify';
import { createScratchDatabase } from '../test/scratch-database';
import { backup, BackupError, restore } from './backup';
import { seedDemo } from './demo-seed';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

/** undefined (PGlite in the data dir), or a new empty database on DATABASE_URL's server (dropped after). */
async function emptyDatabaseUrl(): Promise<string | undefined> {
  const scratch = await createScratchDatabase('coffer_backup');
  if (scratch) cleanups.push(scratch.drop);
  return scratch?.url;
}

async function storeConfig(): Promise<Config> {
  const url = await emptyDatabaseUrl();
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'coffer-backup-store-')),
    ...(url ? { DATABASE_URL: url } : {}),
    LOG_LEVEL: 'silent',
    WORKERS: 'false',
    SERVE_WEB: 'false',
    PUBLIC_URL: 'http://127.0.0.1:8080',
  });
}

const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

/** MD5 of each resource as downloaded through its presigned link, by resource id. */
async function downloads(app: FastifyInstance): Promise<Map<string, { expected: string; got: string }>> {
  const out = new Map<string, { expected: string; got: string }>();
  for (const r of await app.ctx.database.db.select().from(resources)) {
    const link = await app.ctx.services.storage.presignGet(r.storageKey, {
      fileName: r.name,
      contentType: r.contentType,
      expiresInSec: 600,
    });
    const u = new URL(link.url);
    const res = await app.inject({ method: 'GET', url: u.pathname + u.search });
    out.set(r.id, { expected: r.md5, got: res.statusCode === 200 ? md5(res.rawPayload) : `HTTP ${res.statusCode}` });
  }
  return out;
}

describe('npm run backup / restore', () => {
  it('round-trips a seeded store: the ledger verifies and every download has its MD5', async () => {
    const source = await storeConfig();
    const clock = new ManualClock(Date.now());
    const app = await buildApp({ config: source, clock, logger: false });
    await app.ready();
    await seedDemo(app, { clock, imageScale: 0.2 });
    const userCount = (await app.ctx.database.db.select().from(users)).length;
    const before = await downloads(app);
    await app.close();
    expect(before.size).toBeGreaterThan(0);

    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'coffer-backup-')), 'snapshot');
    const manifest = await backup(source, dir);
    expect(manifest).toMatchObject({ format: 1, database: source.DATABASE_URL ? 'postgres' : 'pglite' });
    expect(manifest.files).toBeGreaterThanOrEqual(before.size);
    expect(readFileSync(path.join(dir, 'files.md5'), 'utf8').trim().split('\n')).toHaveLength(manifest.files);
    await expect(backup(source, dir)).rejects.toThrow(/not empty/);

    const target = await storeConfig();
    await restore(target, dir);
    const restored = await buildApp({ config: target, clock: new ManualClock(clock.now()), logger: false });
    try {
      await restored.ready();
      const report = await verifyLedger(restored.ctx.database.db);
      expect(report.violations).toEqual([]);
      expect(report.ok).toBe(true);
      expect((await restored.ctx.database.db.select().from(users)).length).toBe(userCount);
      const after = await downloads(restored);
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [, d] of after) expect(d.got).toBe(d.expected);
      // The generated signing secret came back: a link signed before the backup still verifies.
      expect(readFileSync(path.join(target.dataDir, 'storage-signing-secret'), 'utf8')).toBe(
        readFileSync(path.join(source.dataDir, 'storage-signing-secret'), 'utf8'),
      );
    } finally {
      await restored.close();
    }
    // A second restore into the same store is refused.
    await expect(restore(target, dir)).rejects.toBeInstanceOf(BackupError);
  }, 600_000);

  it('refuses a snapshot whose file does not match its MD5, before writing anything', async () => {
    const source = await storeConfig();
    const app = await buildApp({ config: source, logger: false });
    await app.close();
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'coffer-backup-')), 'snapshot');
    await backup(source, dir);
    mkdirSync(path.join(dir, 'files'), { recursive: true });
    writeFileSync(path.join(dir, 'files/forged.bin'), 'x');
    writeFileSync(path.join(dir, 'files.md5'), `${md5('other')}  forged.bin\n`);
    const target = await storeConfig();
    await expect(restore(target, dir)).rejects.toThrow('files/forged.bin is damaged (MD5 differs); nothing was restored');
    expect(existsSync(path.join(target.dataDir, 'db'))).toBe(false);
    if (target.DATABASE_URL) {
      const client = new pg.Client({ connectionString: target.DATABASE_URL });
      await client.connect();
      const tables = await client.query(`select 1 from information_schema.tables where table_schema = 'public'`);
      await client.end();
      expect(tables.rowCount).toBe(0);
    }
  }, 300_000);
});

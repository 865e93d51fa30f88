/**
 * What a server on the embedded defaults loads (bench/README.md "bench:rss", issue 42's memory goal):
 * the chain libraries of the payment rails (viem, tronweb and ethers under it, @ton/ton, and the
 * @ton/core, @ton/crypto and @scure/bip32/bip39 their configuration checks use), sharp, archiver,
 * nodemailer, undici (webhook deliveries) and file-type (image checks) are imported only by a
 * server that uses them (providers/payments/index.ts, ton/config.ts, evm/config.ts, app.ts,
 * thumbnails.ts, downloads.service.ts, mail/smtp.ts, events/webhook-target.ts, images.service.ts).
 * One child process builds and starts the app with `PAYMENTS=sandbox` and PGlite under a
 * module-resolution hook that lists every package resolved, then imports the TRON rail's module,
 * which must list tronweb: so the check can fail.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { onPostgres } from './test/on-postgres';


const LAZY = [
  'viem',
  'tronweb',
  'ethers',
  '@ton/ton',
  'sharp',
  'archiver',
  'nodemailer',
  // The ton and evm rails' configuration checks (ton/config.ts, evm/config.ts), webhook deliveries
  // (events/webhook-target.ts) and image checks (uploads/images.service.ts): loaded on first use.
  '@ton/core',
  '@ton/crypto',
  '@scure/bip32',
  '@scure/bip39',
  'undici',
  'file-type',
];

/**
 * The packages a fresh process resolves while building and starting the app with `env` (then
 * closing it), and those it resolves after that when it imports the TRON rail's module (the control).
 */
function packagesLoaded(env: Record<string, string>): { boot: Set<string>; tron: Set<string> } {
  const dir = mkdtempSync(path.join(tmpdir(), 'coffer-boot-'));
  const list = path.join(dir, 'loaded.txt');
  writeFileSync(
    path.join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(spec, ctx, next) {
  const r = await next(spec, ctx);
  const m = r.url.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)/);
  if (m) appendFileSync(${JSON.stringify(list)}, m[1] + '\\n');
  return r;
}`,
  );
  writeFileSync(path.join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
  writeFileSync(list, '');
  const script = `
    const { appendFileSync } = await import('node:fs');
    const { loadConfig } = await import('./src/env.ts');
    const { buildApp } = await import('./src/app.ts');
    const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATABASE_URL: 'memory://', DATA_DIR: ${JSON.stringify(dir)},
      LOG_LEVEL: 'silent', SERVE_WEB: 'false', PUBLIC_URL: 'http://127.0.0.1:8080' });
    const app = await buildApp({ config, logger: false });
    await app.ready();
    await app.close();
    appendFileSync(${JSON.stringify(list)}, '--\\n');
    await import('./src/providers/payments/tron/index.ts');`;
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--import', path.join(dir, 'register.mjs'), '--input-type=module', '-e', script], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (res.status !== 0) throw new Error(`the app did not build (exit ${res.status}): ${res.stderr.slice(-2000)}`);
  const [boot = '', after = ''] = readFileSync(list, 'utf8').split('--\n');
  const set = (text: string) => new Set(text.split('\n').filter(Boolean));
  return { boot: set(boot), tron: set(after) };
}

describe('packages a server loads', () => {
  // PGlite whatever DATABASE_URL says: the PostgreSQL pass (.ci/run) skips it, as it would repeat the PGlite pass's run.
  it.skipIf(onPostgres)('on the embedded defaults: none of the rails, images, zips or SMTP libraries; the TRON rail loads tronweb (the check can fail)', { timeout: 180_000 }, () => {
    const { boot, tron } = packagesLoaded({ PAYMENTS: 'sandbox' });
    expect(boot.has('fastify')).toBe(true);
    expect(LAZY.filter((p) => boot.has(p))).toEqual([]);
    expect(tron.has('tronweb')).toBe(true);
  });
});

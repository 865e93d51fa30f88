/**
 * What a server on the embedded defaults loads (bench/README.md "bench:rss", issue 42's memory goal):
 * the chain libraries of the payment rails (viem, tronweb and ethers under it, @ton/ton), sharp,
 * archiver and nodemailer are imported only by a server that uses them (providers/payments/index.ts,
 * app.ts, thumbnails.ts, downloads.service.ts, mail/smtp.ts). A child process builds the app with
 * workers on, `PAYMENTS=sandbox` and PGlite, with a module-resolution hook that lists every package
 * resolved; the same with `PAYMENTS=tron` must list tronweb, so the check can fail.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const LAZY = ['viem', 'tronweb', 'ethers', '@ton/ton', 'sharp', 'archiver', 'nodemailer'];

/** The packages a fresh process resolves while building and starting the app with `env` (then closing it). */
function packagesLoaded(env: Record<string, string>): Set<string> {
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
    const { loadConfig } = await import('./src/env.ts');
    const { buildApp } = await import('./src/app.ts');
    const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATABASE_URL: 'memory://', DATA_DIR: ${JSON.stringify(dir)},
      LOG_LEVEL: 'silent', SERVE_WEB: 'false', PUBLIC_URL: 'http://127.0.0.1:8080' });
    const app = await buildApp({ config, logger: false });
    await app.ready();
    await app.close();`;
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--import', path.join(dir, 'register.mjs'), '--input-type=module', '-e', script], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (res.status !== 0) throw new Error(`the app did not build (exit ${res.status}): ${res.stderr.slice(-2000)}`);
  return new Set(readFileSync(list, 'utf8').split('\n').filter(Boolean));
}

describe('packages a server loads', () => {
  it('on the embedded defaults: none of the rails, images, zips or SMTP libraries', { timeout: 180_000 }, () => {
    const loaded = packagesLoaded({ PAYMENTS: 'sandbox' });
    expect(loaded.has('fastify')).toBe(true);
    expect(LAZY.filter((p) => loaded.has(p))).toEqual([]);
  });

  it('with the TRON rail: tronweb (the check above can fail)', { timeout: 180_000 }, () => {
    const loaded = packagesLoaded({
      PAYMENTS: 'tron',
      TRON_NODE_URL: 'http://127.0.0.1:9',
      TRON_SEED: 'test test test test test test test test test test test junk',
      TRON_HOT_WALLET_KEY: '1'.repeat(64),
      TRON_TRX_USD_PRICE: '0.25',
      WORKERS: 'false',
    });
    expect(loaded.has('tronweb')).toBe(true);
  });
});

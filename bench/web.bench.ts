/**
 * npm run bench:web — what a phone pays to open Coffer:
 * 1. the gzip size of the JavaScript the home route needs: the entry chunk of apps/web/dist, its
 *    modulepreloads and static imports, plus the home page's chunks (dist/route-preloads.json, as the
 *    server links them in the document of `/`) and their static imports;
 * 2. Lighthouse 12 (mobile preset: simulated slow 4G and 4x CPU slowdown) in Debian's Chromium on
 *    /, /collection/{id} and /mycollections, served by the real server (the built app, as `npm
 *    start` serves it) on a fresh data dir with demo data: a seller with 8 published collections,
 *    each with a PNG banner and a file. /mycollections runs signed in as that seller.
 * Prints the sizes, each page's performance score and LCP. Targets (issue 16): home route JS
 * <= 150 kB as served (the precompressed .br; gzip -9 printed too), performance >= 95, LCP <= 2.0 s. Needs the web build (`npm run build -w @coffer/web`).
 * BENCH_RUNS=n runs each page n times (medians printed); BENCH_LHR_DIR keeps each Lighthouse report;
 * BENCH_TRACE_DIR keeps each run's trace and network log, which `node bench/lantern-graph.mjs` reads
 * to show what the simulated FCP and LCP waited for (ADR 0044); BENCH_SCREENSHOTS=<dir> also saves
 * each page at 390 and 1280 px.
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { makePng } from '../e2e/fixtures/files';
import { call, registerUser } from '../e2e/support/api';
import { freePort, startServer } from '../e2e/support/server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist');

// ---------------------------------------------------------------------------------------------
// 1. JavaScript of the home route

async function homeRouteJs(): Promise<{
  files: { name: string; raw: number; gzip: number; br: number }[];
  raw: number;
  gzip: number;
  br: number;
}> {
  const html = await readFile(path.join(dist, 'index.html'), 'utf8');
  const entry = /<script[^>]+type="module"[^>]+src="\/([^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error('no module entry in dist/index.html');
  const seen = new Set<string>();
  const queue = [entry, ...[...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g)].map((m) => m[1]!)];
  const staticImports = (code: string, from: string) =>
    [...code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)].map((m) =>
      path.posix.join(path.posix.dirname(from), m[1]!),
    );
  // The home page's chunks, as the server links them in the document of `/` (ADR 0035).
  const preloads = JSON.parse(await readFile(path.join(dist, 'route-preloads.json'), 'utf8')) as Record<string, string[]>;
  // An empty list is valid: the home page's modules may all travel in the entry chunk (ADR 0044).
  if (!preloads['/']) throw new Error('dist/route-preloads.json has no entry for /');
  queue.push(...preloads['/'].map((f) => f.replace(/^\//, '')));
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = await readFile(path.join(dist, file), 'utf8');
    queue.push(...staticImports(code, file));
  }
  const files: { name: string; raw: number; gzip: number; br: number }[] = [];
  for (const f of seen) {
    const buf = await readFile(path.join(dist, f));
    const gzip = gzipSync(buf, { level: 9 }).length;
    // As served: the server sends the build's precompressed .br to a browser that accepts br (all do).
    const br = existsSync(path.join(dist, `${f}.br`)) ? statSync(path.join(dist, `${f}.br`)).size : gzip;
    files.push({ name: f, raw: buf.length, gzip, br });
  }
  files.sort((a, b) => b.gzip - a.gzip);
  const sum = (k: 'raw' | 'gzip' | 'br') => files.reduce((s, f) => s + f[k], 0);
  return { files, raw: sum('raw'), gzip: sum('gzip'), br: sum('br') };
}

// ---------------------------------------------------------------------------------------------
// 2. Demo data through the API

async function seed(url: string) {
  const seller = await registerUser(url, { nickname: 'Studio Mira' });
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    const png = makePng(640, 360);
    const b = (
      await call<{ url: string; banner: string }>(
        url,
        '/sl/v1/create/banner/url',
        { content_type: 'image/png', size: png.length },
        seller.token,
      )
    ).data;
    const put = await fetch(b.url, { method: 'PUT', body: new Uint8Array(png), headers: { 'Content-Type': 'image/png' } });
    if (!put.ok) throw new Error(`banner PUT ${put.status}`);
    const c = (
      await call<{ id: string }>(
        url,
        '/sl/v1/collection/create',
        { title: `Demo collection ${i + 1}`, desc: 'Sample files for the benchmark.', amount: 50 + i * 25, banner: b.banner },
        seller.token,
      )
    ).data;
    const body = Buffer.from(`demo file ${i}\n`.repeat(1000));
    const md5 = createHash('md5').update(body).digest('hex');
    const up = (
      await call<{ upload_id: string; url: string }>(
        url,
        '/sl/v1/upload/resource/url',
        { file_name: `demo-${i + 1}.txt`, size: body.length, md5, content_type: 'text/plain' },
        seller.token,
      )
    ).data;
    const filePut = await fetch(up.url, { method: 'PUT', body, headers: { 'Content-Type': 'text/plain' } });
    if (!filePut.ok) throw new Error(`file PUT ${filePut.status}`);
    const r = (await call<{ id: string }>(url, '/sl/v1/complete/upload', { upload_id: up.upload_id, parts: [] }, seller.token))
      .data;
    await call(url, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, seller.token);
    await call(url, '/sl/v1/collection/publish', { collection_id: c.id }, seller.token);
    ids.push(c.id);
  }
  const me = (await call<{ id: string }>(url, '/api/uc/v1/account/get/me', {}, seller.token)).data;
  return { seller, me, ids };
}

// ---------------------------------------------------------------------------------------------
// 3. Lighthouse

interface Score {
  page: string;
  performance: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
}

async function audit(url: string, label: string, session?: { token: string; state: unknown }): Promise<Score> {
  const port = await freePort();
  const profile = await mkdtemp(path.join(os.tmpdir(), 'coffer-lh-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', `--remote-debugging-port=${port}`],
  });
  try {
    if (session) {
      // Put the session in localStorage from a page of the origin that loads no JavaScript.
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(new URL('/favicon.svg', url).href);
      await page.evaluate(({ token, state }) => {
        localStorage.setItem('accessToken', token);
        localStorage.setItem('coffer-auth', JSON.stringify({ state, version: 0 }));
      }, session);
    }
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      // Keep the session in localStorage; the HTTP cache is still cold (nothing else was loaded).
      disableStorageReset: Boolean(session),
    });
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    const { lhr } = result;
    if (process.env.BENCH_LHR_DIR) {
      await mkdir(process.env.BENCH_LHR_DIR, { recursive: true });
      await writeFile(
        path.join(process.env.BENCH_LHR_DIR, `${label.replace(/[^a-z]+/gi, '_')}-${Date.now()}.json`),
        JSON.stringify(lhr),
      );
    }
    if (process.env.BENCH_TRACE_DIR) {
      await mkdir(process.env.BENCH_TRACE_DIR, { recursive: true });
      await writeFile(
        path.join(process.env.BENCH_TRACE_DIR, `${label.replace(/[^a-z]+/gi, '_')}-${Date.now()}.trace.json`),
        JSON.stringify((result.artifacts as { Trace?: unknown }).Trace ?? null),
      );
      const a = result.artifacts as unknown as Record<string, unknown>;
      await writeFile(
        path.join(process.env.BENCH_TRACE_DIR, `${label.replace(/[^a-z]+/gi, '_')}-${Date.now()}.artifacts.json`),
        JSON.stringify({ DevtoolsLog: a.DevtoolsLog, GatherContext: a.GatherContext, URL: a.URL, settings: lhr.configSettings }),
      );
    }
    if (lhr.runtimeError) throw new Error(`${label}: ${lhr.runtimeError.message}`);
    if (process.env.BENCH_VERBOSE) {
      for (const id of [
        'layout-shifts',
        'largest-contentful-paint-element',
        'render-blocking-resources',
        'uses-text-compression',
      ]) {
        const items = ((lhr.audits[id]?.details as { items?: unknown[] } | undefined)?.items ?? []) as Record<string, any>[];
        console.log(
          `  [${label}] ${id}: ${items.map((i) => i.node?.selector ?? i.url ?? JSON.stringify(i.items?.[0]?.node?.selector ?? i).slice(0, 120)).join(' | ')}`,
        );
      }
    }
    return {
      page: label,
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? NaN,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
    };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/**
 * BENCH_SCREENSHOTS=<dir>: each page at 390 and 1280 px wide, full page, 2 s after load (the font
 * and the banners below the first arrive after the first screen, ADR 0044), as PNG files.
 */
async function screenshots(dir: string, pages: [string, string, { token: string; state: unknown } | undefined][]) {
  await mkdir(dir, { recursive: true });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    for (const [url, label, session] of pages) {
      for (const width of [390, 1280]) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        if (session) {
          await page.goto(new URL('/favicon.svg', url).href);
          await page.evaluate(({ token, state }) => {
            localStorage.setItem('accessToken', token);
            localStorage.setItem('coffer-auth', JSON.stringify({ state, version: 0 }));
          }, session);
        }
        await page.goto(url, { waitUntil: 'load' });
        await page.waitForTimeout(2000);
        const file = path.join(dir, `${label.replace(/[^a-z]+/gi, '_')}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        const font = await page.evaluate(() => document.fonts.check('16px "Inter Variable"'));
        const images = await page.evaluate(() => Array.from(document.images).filter((i) => i.complete && i.naturalWidth > 0).length);
        console.log(`  screenshot ${file} (Inter loaded: ${font}, images shown: ${images})`);
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------

if (!existsSync(path.join(dist, 'index.html'))) {
  console.error('apps/web/dist is missing: run `npm run build -w @coffer/web` first.');
  process.exit(1);
}

const js = await homeRouteJs();
console.log(
  `${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (Lighthouse scores from a loaded machine are low)`,
);
console.log(
  `Home route JavaScript: ${(js.br / 1000).toFixed(1)} kB as served (br; target <= 150 kB), ${(js.gzip / 1000).toFixed(1)} kB gzip -9, ${(js.raw / 1000).toFixed(1)} kB raw, in ${js.files.length} files`,
);
for (const f of js.files)
  console.log(
    `  ${f.name.padEnd(48)} ${(f.br / 1000).toFixed(1).padStart(7)} kB br ${(f.gzip / 1000).toFixed(1).padStart(7)} kB gzip`,
  );

const server = await startServer({ PAYMENTS: 'sandbox', LOG_LEVEL: 'error' });
try {
  const { seller, me, ids } = await seed(server.url);
  // BENCH_RUNS audits per page (default 1); with several, each run is printed and the median decides.
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 1) || 1);
  const session = { token: seller.token, state: { user: me, token: seller.token, isAuthenticated: true } };
  const pages: [string, string, typeof session | undefined][] = [
    [`${server.url}/`, '/', undefined],
    [`${server.url}/collection/${ids[0]}`, '/collection/{id}', undefined],
    [`${server.url}/mycollections`, '/mycollections', session],
  ];
  if (process.env.BENCH_SCREENSHOTS) await screenshots(process.env.BENCH_SCREENSHOTS, pages);
  const rows: Score[][] = [];
  for (const [url, label, s] of pages) {
    const page: Score[] = [];
    for (let i = 0; i < runs; i += 1) page.push(await audit(url, label, s));
    rows.push(page);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const line = (s: Score, label: string) =>
    `  ${label.padEnd(24)} ${String(s.performance).padStart(4)}  ${(s.lcpMs / 1000).toFixed(2).padStart(5)} s  ${(s.fcpMs / 1000).toFixed(2).padStart(5)} s  ${s.tbtMs.toFixed(0).padStart(4)} ms  ${s.cls.toFixed(3)}`;
  console.log(`\nLighthouse 12 mobile preset, ${runs} run(s) per page (targets: performance >= 95, LCP <= 2.0 s)`);
  console.log('  page                     perf    LCP      FCP      TBT     CLS');
  for (const page of rows) {
    if (runs > 1) page.forEach((s, i) => console.log(line(s, `${s.page} #${i + 1}`)));
    const m: Score = {
      page: page[0]!.page,
      performance: median(page.map((s) => s.performance)),
      lcpMs: median(page.map((s) => s.lcpMs)),
      fcpMs: median(page.map((s) => s.fcpMs)),
      tbtMs: median(page.map((s) => s.tbtMs)),
      cls: median(page.map((s) => s.cls)),
    };
    console.log(line(m, runs > 1 ? `${m.page} median` : m.page));
  }
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await server.stop();
}

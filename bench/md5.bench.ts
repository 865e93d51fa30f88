/**
 * npm run bench:md5 — MD5 throughput in Debian's Chromium (/usr/bin/chromium): Coffer's own hashing
 * code (the shipped MD5 worker from apps/web/dist, hash-wasm, incremental over 4 MiB chunks, the
 * digest posted back) against spark-md5 (incremental SparkMD5.ArrayBuffer over the same chunks on
 * the main thread), on the same 50 MB buffer in the same page. Prints MB/s of each and the ratio.
 * Both digests must agree. Needs the web build (`npm run build -w @coffer/web`).
 *
 * Env: MD5_BENCH_MB (default 50), MD5_BENCH_RUNS (default 5; the best run of each is reported).
 */
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const assets = path.join(root, 'apps/web/dist/assets');
const MB = Number(process.env.MD5_BENCH_MB ?? 50);
const RUNS = Number(process.env.MD5_BENCH_RUNS ?? 5);

const workerFile = (await readdir(assets).catch(() => [] as string[])).find((f) => /^md5\.worker-.*\.js$/.test(f));
if (!workerFile) {
  console.error('No MD5 worker in apps/web/dist/assets: run `npm run build -w @coffer/web` first.');
  process.exit(1);
}
const spark = await readFile(path.join(root, 'node_modules/spark-md5/spark-md5.min.js'));
const worker = await readFile(path.join(assets, workerFile));

const page = `<!doctype html><meta charset="utf-8"><title>md5 bench</title><script src="/spark-md5.js"></script><body></body>`;
const server = createServer((req, res) => {
  if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  if (req.url === '/spark-md5.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(spark);
  if (req.url === '/md5.worker.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
  res.writeHead(404).end();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const { port } = server.address() as { port: number };

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const tab = await browser.newPage();
  await tab.goto(`http://127.0.0.1:${port}/`);
  // Plain JavaScript run in the page (a string, so that no transpiler helper leaks into it).
  const inPage = `(async ({ mb, runs }) => {
      const size = mb * 1024 * 1024;
      const bytes = new Uint8Array(size);
      for (let i = 0; i < size; i += 65536) crypto.getRandomValues(bytes.subarray(i, Math.min(size, i + 65536)));
      const blob = new Blob([bytes]);
      const CHUNK = 4 * 1024 * 1024;

      const worker = new Worker('/md5.worker.js');
      let id = 0;
      const viaWorker = () =>
        new Promise((resolve, reject) => {
          const job = ++id;
          worker.onmessage = (e) => {
            if (e.data.id !== job) return;
            if (e.data.type === 'done') resolve(e.data.digest);
            else if (e.data.type === 'error') reject(new Error(e.data.message));
          };
          worker.postMessage({ type: 'file', id: job, blob, format: 'hex' });
        });
      const viaSpark = async () => {
        const s = new window.SparkMD5.ArrayBuffer();
        for (let o = 0; o < size; o += CHUNK) s.append(await blob.slice(o, Math.min(size, o + CHUNK)).arrayBuffer());
        return s.end();
      };
      const time = async (fn) => {
        const t0 = performance.now();
        const digest = await fn();
        return { ms: performance.now() - t0, digest };
      };
      await viaWorker(); // warm-up: worker start and WebAssembly compile
      const coffer = [];
      const sparkMs = [];
      let d1 = '';
      let d2 = '';
      for (let i = 0; i < runs; i++) {
        const a = await time(viaWorker);
        const b = await time(viaSpark);
        coffer.push(a.ms);
        sparkMs.push(b.ms);
        d1 = a.digest;
        d2 = b.digest;
      }
      worker.terminate();
      return { coffer, spark: sparkMs, d1, d2, ua: navigator.userAgent };
    })`;
  const result = (await tab.evaluate(`${inPage}(${JSON.stringify({ mb: MB, runs: RUNS })})`)) as { coffer: number[]; spark: number[]; d1: string; d2: string; ua: string };
  if (result.d1 !== result.d2) throw new Error(`digests differ: coffer ${result.d1}, spark-md5 ${result.d2}`);
  const best = (xs: number[]) => Math.min(...xs);
  const mbps = (ms: number) => MB / (ms / 1000);
  const c = mbps(best(result.coffer));
  const s = mbps(best(result.spark));
  console.log(`MD5 of ${MB} MB in ${result.ua.match(/(Headless)?Chrom(e|ium)\/[\d.]+/)?.[0] ?? 'Chromium'}, best of ${RUNS} runs (digest ${result.d1})`);
  console.log(`  Coffer worker (hash-wasm, 4 MiB chunks): ${c.toFixed(0)} MB/s  (runs ms: ${result.coffer.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`  spark-md5 (main thread, 4 MiB chunks):   ${s.toFixed(0)} MB/s  (runs ms: ${result.spark.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`  ratio: ${(c / s).toFixed(2)}x  (target >= 4x)`);
} finally {
  await browser.close();
  server.close();
}

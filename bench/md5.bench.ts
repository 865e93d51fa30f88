/**
 * npm run bench:md5 — MD5 throughput in Debian's Chromium (/usr/bin/chromium): Coffer's own hashing
 * code (the shipped MD5 worker from apps/web/dist, hash-wasm, incremental over the Blob's stream, the
 * digest posted back) against spark-md5 (incremental SparkMD5.ArrayBuffer over 4 MiB chunks on
 * the main thread) and against hash-wasm alone on the main thread (4 MiB chunks read from
 * the Blob one after the other; and, to show what the File read costs, over bytes already in
 * memory), on the same 50 MB buffer in the same page. Prints MB/s of each, the ratios with their
 * targets (issue 16: worker >= 80 % of hash-wasm alone, >= 5x spark-md5) and the load average.
 * All digests must agree. Needs the web build (`npm run build -w @coffer/web`).
 *
 * Env: MD5_BENCH_MB (default 50), MD5_BENCH_RUNS (default 5; the best run of each is reported).
 */
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
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
const hashWasm = await readFile(path.join(root, 'node_modules/hash-wasm/dist/md5.umd.min.js'));

const page = `<!doctype html><meta charset="utf-8"><title>md5 bench</title><script src="/spark-md5.js"></script><script src="/hash-wasm-md5.js"></script><body></body>`;
const server = createServer((req, res) => {
  if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  if (req.url === '/spark-md5.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(spark);
  if (req.url === '/hash-wasm-md5.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(hashWasm);
  if (req.url === '/md5.worker.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
  res.writeHead(404).end();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const { port } = server.address() as { port: number };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
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
      let readBy = '';
      const viaWorker = () =>
        new Promise((resolve, reject) => {
          const job = ++id;
          worker.onmessage = (e) => {
            if (e.data.id !== job) return;
            if (e.data.type === 'done') {
              readBy = e.data.read ?? 'this thread';
              resolve(e.data.digest);
            }
            else if (e.data.type === 'error') reject(new Error(e.data.message));
          };
          worker.postMessage({ type: 'file', id: job, blob, format: 'hex' });
        });
      const viaSpark = async () => {
        const s = new window.SparkMD5.ArrayBuffer();
        for (let o = 0; o < size; o += CHUNK) s.append(await blob.slice(o, Math.min(size, o + CHUNK)).arrayBuffer());
        return s.end();
      };
      // hash-wasm alone on the main thread: chunks read from the Blob one after the other ...
      const viaHashWasm = async () => {
        const h = await window.hashwasm.createMD5();
        h.init();
        for (let o = 0; o < size; o += CHUNK) h.update(new Uint8Array(await blob.slice(o, Math.min(size, o + CHUNK)).arrayBuffer()));
        return h.digest('hex');
      };
      // ... and over bytes already in memory (no File read at all: the hashing ceiling).
      const viaHashWasmMem = async () => {
        const h = await window.hashwasm.createMD5();
        h.init();
        for (let o = 0; o < size; o += CHUNK) h.update(bytes.subarray(o, Math.min(size, o + CHUNK)));
        return h.digest('hex');
      };
      const time = async (fn) => {
        const t0 = performance.now();
        const digest = await fn();
        return { ms: performance.now() - t0, digest };
      };
      await viaWorker(); // warm-up: worker start and WebAssembly compile
      await viaHashWasm();
      const coffer = [];
      const sparkMs = [];
      const hw = [];
      const hwMem = [];
      const digests = new Set();
      let d1 = '';
      for (let i = 0; i < runs; i++) {
        const a = await time(viaWorker);
        const b = await time(viaSpark);
        const c = await time(viaHashWasm);
        const d = await time(viaHashWasmMem);
        coffer.push(a.ms);
        sparkMs.push(b.ms);
        hw.push(c.ms);
        hwMem.push(d.ms);
        d1 = a.digest;
        for (const x of [a, b, c, d]) digests.add(x.digest);
      }
      worker.terminate();
      return { coffer, spark: sparkMs, hw, hwMem, d1, digests: [...digests], ua: navigator.userAgent, readBy };
    })`;
  const result = (await tab.evaluate(`${inPage}(${JSON.stringify({ mb: MB, runs: RUNS })})`)) as {
    coffer: number[];
    spark: number[];
    hw: number[];
    hwMem: number[];
    d1: string;
    digests: string[];
    ua: string;
    readBy: string;
  };
  if (result.digests.length !== 1) throw new Error(`digests differ: ${result.digests.join(', ')}`);
  const best = (xs: number[]) => Math.min(...xs);
  const mbps = (ms: number) => MB / (ms / 1000);
  const c = mbps(best(result.coffer));
  const s = mbps(best(result.spark));
  const h = mbps(best(result.hw));
  const hm = mbps(best(result.hwMem));
  const ms = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(
    `MD5 of ${MB} MB in ${result.ua.match(/(Headless)?Chrom(e|ium)\/[\d.]+/)?.[0] ?? 'Chromium'}, best of ${RUNS} runs (digest ${result.d1})`,
  );
  console.log(
    `  ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (figures from a loaded machine are low)`,
  );
  console.log(
    `  Coffer worker (hash-wasm; file read by ${result.readBy}): ${c.toFixed(0)} MB/s  (runs ms: ${result.coffer.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(
    `  spark-md5 (main thread, 4 MiB chunks):   ${s.toFixed(0)} MB/s  (runs ms: ${result.spark.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(`  hash-wasm alone (main thread, Blob read): ${h.toFixed(0)} MB/s  (runs ms: ${ms(result.hw)})`);
  console.log(`  hash-wasm alone (main thread, in memory): ${hm.toFixed(0)} MB/s  (runs ms: ${ms(result.hwMem)})`);
  console.log(`  worker vs hash-wasm alone (Blob read): ${((c / h) * 100).toFixed(0)} %  (target >= 80 %)`);
  console.log(`  worker vs hash-wasm in memory:         ${((c / hm) * 100).toFixed(0)} %`);
  console.log(`  worker vs spark-md5: ${(c / s).toFixed(2)}x  (target >= 5x)`);
} finally {
  await browser.close();
  server.close();
}

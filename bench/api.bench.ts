/**
 * `npm run bench:api`: load figures of the API's hot calls, printed, never asserted.
 *
 * In one run it starts
 * - the Coffer app in-process on a temp data dir (embedded PGlite, as `npm start` runs it) on a free
 *   127.0.0.1 port, and
 * - a bare Fastify route on another free port that answers a fixed success envelope (the ceiling:
 *   HTTP, routing and JSON with no auth, validation or database),
 * then loads each call with autocannon (50 connections, BENCH_SECONDS seconds, default 10; the load
 * generator runs in a worker thread so it does not share the server's event loop) and prints
 * requests/s, p50/p99 latency in ms and the ratio to the bare route.
 *
 * Calls: `get/me` signed in, and the hot public reads `/sl/v1/collection/detail` and
 * `/sl/v1/market/collections` when the app has them (skipped with a note when they answer 404).
 * Figures depend on the machine (the header prints its CPUs and load average); bench/README.md
 * records measured ones. `BENCH_DATABASE_URL=postgres://...` runs the app on PostgreSQL instead.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/env';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

interface Target {
  name: string;
  url: string;
  body: unknown;
  token?: string;
}

async function load(target: Target, seconds = SECONDS): Promise<Figures> {
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    workers: 1,
    headers: { 'content-type': 'application/json', ...(target.token ? { authorization: `Bearer ${target.token}` } : {}) },
    body: JSON.stringify(target.body),
  });
  return {
    name: target.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function post(base: string, url: string, body: unknown, token?: string) {
  const res = await fetch(base + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; reason?: string; data: any } };
}

/** True when the app has no such call (the not-found handler's answer, not a record's NOT_FOUND). */
const missingRoute = (res: { status: number; body: { msg: string } }) =>
  res.status === 404 && res.body.msg === 'The requested resource was not found.';

/**
 * Publishes one collection with one small resource through the public calls (DESIGN 8), so that
 * collection/detail reads a real row. Returns its id, or a note saying which step failed.
 */
async function publishedCollection(base: string, token: string): Promise<{ id?: string; note?: string }> {
  const file = Buffer.from('Coffer bench resource\n');
  const md5 = createHash('md5').update(file).digest('hex');
  const collection = await post(
    base,
    '/sl/v1/collection/create',
    { title: 'Bench collection', desc: 'Made by npm run bench:api', amount: 10 },
    token,
  );
  if (collection.body.code !== 10000) return { note: `collection/create answered ${collection.body.msg}` };
  const id = collection.body.data.id as string;
  const upload = await post(
    base,
    '/sl/v1/upload/resource/url',
    { file_name: 'bench.txt', size: file.length, md5, content_type: 'text/plain' },
    token,
  );
  if (upload.body.code !== 10000) return { id, note: `upload/resource/url answered ${upload.body.msg}` };
  const put = await fetch(upload.body.data.url, { method: 'PUT', body: file, headers: { 'content-type': 'text/plain' } });
  if (!put.ok) return { id, note: `the presigned PUT answered ${put.status}` };
  const done = await post(base, '/sl/v1/complete/upload', { upload_id: upload.body.data.upload_id, parts: [] }, token);
  if (done.body.code !== 10000) return { id, note: `complete/upload answered ${done.body.msg}` };
  const added = await post(base, '/sl/v1/collection/resource/add', { collection_id: id, resource_id: done.body.data.id }, token);
  if (added.body.code !== 10000) return { id, note: `collection/resource/add answered ${added.body.msg}` };
  const published = await post(base, '/sl/v1/collection/publish', { collection_id: id }, token);
  if (published.body.code !== 10000) return { id, note: `collection/publish answered ${published.body.msg}` };
  return { id };
}

function print(rows: Figures[], bare: Figures) {
  const pad = (s: string, n: number) => s.padEnd(n);
  const num = (n: number, d = 0) => n.toFixed(d).padStart(9);
  console.log(
    `\n${pad('call', 34)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'vs bare'.padStart(9)}  non-2xx/errors`,
  );
  for (const r of [bare, ...rows]) {
    const ratio = r === bare ? '' : `${((r.rps / bare.rps) * 100).toFixed(0)}%`;
    console.log(`${pad(r.name, 34)}${num(r.rps)}${num(r.p50, 1)}${num(r.p99, 1)}${ratio.padStart(9)}  ${r.non2xx}/${r.errors}`);
  }
}

/** A port that was free a moment ago (the app's presigned links need it before it listens). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function main() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-bench-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
    WORKERS: 'false',
    SERVE_WEB: 'false',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  });
  const app = await buildApp({ config, logger: false });
  await app.listen({ host: '127.0.0.1', port });
  const base = `http://127.0.0.1:${port}`;

  const bare = Fastify({ logger: false });
  const fixed = {
    code: 10000,
    msg: 'success',
    data: { id: '0193e4c2-0000-7000-8000-000000000000', username: 'bench', asset: { available: '0.00', freeze: '0.00' } },
  };
  bare.post('/bare', async () => fixed);
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/bare`;

  try {
    const name = `bench_${randomBytes(4).toString('hex')}`;
    const reg = await post(base, '/api/uc/v1/account/register', {
      username: name,
      email: `${name}@example.com`,
      password: createHash('md5').update('Bench#1234').digest('hex'),
    });
    if (reg.body.code !== 10000) throw new Error(`register failed: ${reg.body.msg}`);
    const token = reg.body.data.access_token as string;

    const targets: Target[] = [{ name: 'get/me (signed in)', url: `${base}/api/uc/v1/account/get/me`, body: {}, token }];
    const notes: string[] = [];

    const market = {
      name: 'sl/v1/market/collections',
      url: `${base}/sl/v1/market/collections`,
      body: { paginator: { page: 0, size: 20 } },
    };
    const detailProbe = await post(base, '/sl/v1/collection/detail', { collection_id: '00000000-0000-7000-8000-000000000000' });
    if (missingRoute(detailProbe)) {
      notes.push('skipped /sl/v1/collection/detail: the app has no such route yet (404)');
    } else {
      const made = await publishedCollection(base, token);
      if (made.note) notes.push(`collection/detail reads ${made.id ? 'an unpublished' : 'no'} collection: ${made.note}`);
      targets.push({
        name: 'sl/v1/collection/detail',
        url: `${base}/sl/v1/collection/detail`,
        body: { collection_id: made.id ?? '00000000-0000-7000-8000-000000000000' },
      });
    }
    if (missingRoute(await post(base, '/sl/v1/market/collections', market.body))) {
      notes.push('skipped /sl/v1/market/collections: the app has no such route yet (404)');
    } else {
      targets.push(market);
    }

    console.log(
      `Coffer bench:api — ${CONNECTIONS} connections, ${SECONDS} s per call, database ${app.ctx.database.kind}, node ${process.version}, ` +
        `${cpus().length} CPUs, load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );
    for (const note of notes) console.log(`note: ${note}`);

    // Short warm-ups so that JIT and caches are hot before measuring.
    await load({ name: 'warm-up', url: bareUrl, body: {} }, 1);
    const bareFigures = await load({ name: 'bare Fastify (fixed envelope)', url: bareUrl, body: {} });
    const rows: Figures[] = [];
    for (const target of targets) {
      await load(target, 1);
      rows.push(await load(target));
    }
    print(rows, bareFigures);
  } finally {
    await bare.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * `npm run bench:upload`: multipart upload throughput into local storage, printed, never asserted.
 *
 * In one run:
 * - Coffer as `npm start` runs it (lib/harness.ts `startCoffer`: the compiled server, request logs at
 *   info, workers on; PGlite in its fresh DATA_DIR, or with DATABASE_URL a scratch PostgreSQL
 *   database next to that one, dropped after), local storage. A client (this process) registers, starts a multipart upload of
 *   BENCH_UPLOAD_MB MiB (default 1024) and sends every part as a client would: ask
 *   `upload/part/url`, PUT the part to the presigned URL, keep the ETag — 4 parts in flight —
 *   then `complete/upload` (which assembles the parts and verifies size and MD5).
 * - The ceiling: a bare Node HTTP server (this file with `--bare`, also a child process) that
 *   streams each PUT to disk through MD5 and answers the ETag, loaded with the same parts, 4 in
 *   flight, and no presign call.
 *
 * BENCH_ROUNDS rounds (default 3) alternate the two, with `sync` before each run; the best round of
 * each is compared, and every figure's median and spread (min-max) are printed beside each round's
 * figure and the 1-minute load average of that round (lib/harness.ts `Figures`), with the goal: end to
 * end >= 70 % of the ceiling. BENCH_HISTORY=1 appends them to bench/history.md. Prints MB/s of the part PUTs for both, the ratio, the completion time, Coffer's
 * end to end MB/s (parts + completion, timed as one) and its ratio to the ceiling, each server's peak
 * RSS (VmHWM from /proc) and `os.loadavg()` after each round. Part bodies are slices of a 16 MiB random pool, so the client holds no
 * whole file in memory either.
 *
 * Also printed per round: the CPU seconds (user + system, from /proc) each server and the client
 * used for the upload, and the share of Coffer's event loop; less sensitive than MB/s to other work
 * on a shared machine.
 *
 * BENCH_UPLOAD_SETTLE_S lets Coffer idle that many seconds after start-up and registration before the
 * first round (default 0; see {@link SETTLE_S}).
 *
 * BENCH_SERVER_NODE_ARGS adds Node options to the Coffer server only, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` (the profile is written when the server exits).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer as createHttpServer, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { appendHistory, Figures, load1, scratchDatabase, startCoffer, Summary, type ScratchDatabase } from './lib/harness';

const MiB = 1024 * 1024;
const TOTAL = Number(process.env.BENCH_UPLOAD_MB ?? 1024) * MiB;
const IN_FLIGHT = 4;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Goal: Coffer end to end >= 70 % of the ceiling. */
const GOAL_RATIO = 0.7;
/** Goal: the Coffer server's peak RSS while it takes an upload, MB. */
const GOAL_RSS_MB = 150;
/**
 * Seconds Coffer idles after start-up and registration before the first round (BENCH_UPLOAD_SETTLE_S,
 * default 0). After about 10 s of low allocation V8's memory reducer collects and shrinks the young
 * generation start-up grew (to 2 x 16 MB before npm start took `--max-semi-space-size=8`, ADR 0074;
 * 2026-11-29: 121-125 MB after registration, 93 MB 25 s later),
 * and an upload then grows it only to 2 x 8 MB: a lower peak (151 MB on the first round) for more
 * scavenges (server CPU per GiB 7.7-8.3 s against 5.5-6.7 s, end to end 55 % of the limit against
 * 72-80 %; bench/history.md 2026-11-29 21:22). The default measures the server straight after
 * start-up, as the rounds after the first do in either case.
 */
const SETTLE_S = Number(process.env.BENCH_UPLOAD_SETTLE_S ?? 0);

// ---------------------------------------------------------------------------------------------
// The bare ceiling server (child process)

if (process.argv[2] === '--bare') {
  const dir = process.argv[3]!;
  const server = createHttpServer(async (req, res) => {
    const hash = createHash('md5');
    const file = path.join(dir, randomUUID());
    try {
      await pipeline(
        req,
        new Transform({
          transform(chunk, _enc, cb) {
            hash.update(chunk);
            cb(null, chunk);
          },
        }),
        createWriteStream(file, { highWaterMark: MiB }),
      );
      res.writeHead(200, { ETag: `"${hash.digest('hex')}"` }).end();
    } catch {
      res.writeHead(500).end();
    }
  });
  // Fastify's default: with Node's 5 s the idle sockets of the client's pool are closed during the
  // Coffer half of a round, and the next round's first PUTs can hit a closed socket (EPIPE).
  server.keepAliveTimeout = 72_000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`listening ${port}\n`);
  });
}

// ---------------------------------------------------------------------------------------------

/** Current resident set size of a process in MB (VmRSS). */
function currentRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * CPU time (user + system) in seconds from /proc: the whole process, or with `tid` one of its
 * threads (`tid === pid` is the event loop).
 */
function cpuSeconds(pid: number, tid?: number): number {
  const file = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds this process (the client) has used. */
const clientCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Peak resident set size of a process in MB (VmHWM). */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/**
 * Resets a process's peak RSS (VmHWM) to its current RSS (`5` to /proc/<pid>/clear_refs, Linux >= 4.0),
 * so that the next {@link peakRssMb} is the peak since now. @returns false when the kernel refused
 */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

const pool = randomBytes(16 * MiB);
/** The bytes of part `n` (1-based) of `partSize`: a deterministic slice of the pool. */
function partBody(n: number, partSize: number): Buffer {
  const size = Math.min(partSize, TOTAL - (n - 1) * partSize);
  const offset = ((n * 7_919 * 4_096) % (pool.length - partSize + 1)) & ~4095;
  return pool.subarray(offset, offset + size);
}

const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT + 2 });

function put(url: string, body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'PUT', agent, headers: { 'content-type': 'application/octet-stream', 'content-length': body.length } },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve(String(res.headers.etag)) : reject(new Error(`PUT ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A JSON call to Coffer through the same keep-alive agent as the PUTs (node:http, not fetch: on the
 * 2 cores the servers share, fetch cost this client about 3 ms of CPU per call, charged to Coffer only).
 */
function post(base: string, url: string, body: unknown, token?: string): Promise<any> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      base + url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': payload.length,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code: number; msg: string; data: any };
            if (json.code !== 10000) reject(new Error(`${url}: ${json.msg}`));
            else resolve(json.data);
          } catch (err) {
            reject(err as Error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Runs `count` jobs with `IN_FLIGHT` at a time. */
async function inFlight(count: number, job: (n: number) => Promise<void>) {
  let next = 1;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next <= count) await job(next++);
    }),
  );
}

async function main() {
  const partSize = 5 * MiB;
  const partCount = Math.ceil(TOTAL / partSize);
  const whole = createHash('md5');
  for (let n = 1; n <= partCount; n++) whole.update(partBody(n, partSize));
  const md5 = whole.digest('hex');
  const mb = TOTAL / MiB;
  console.log(`bench:upload — ${mb} MiB in ${partCount} parts of 5 MiB, ${IN_FLIGHT} in flight`);

  // The ceiling: a bare Node server in a child process.
  const bareDir = mkdtempSync(path.join(tmpdir(), 'coffer-bench-bare-'));
  const bare = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--bare', bareDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const barePort = await new Promise<number>((resolve) => {
    bare.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
  });

  // Coffer. With DATABASE_URL the server uses a scratch PostgreSQL database (the RSS is then the
  // Node process alone); without it, embedded PGlite, whose WASM heap dominates the RSS.
  let db: ScratchDatabase | undefined;
  if (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) db = await scratchDatabase(process.env.DATABASE_URL!, 'upload');
  const coffer = await startCoffer({
    databaseUrl: db?.url,
    nodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
    // The default MAX_UPLOAD_BYTES (2 GiB) holds the default 1 GiB; only a larger BENCH_UPLOAD_MB needs more.
    ...(TOTAL > 2 * 1024 * MiB ? { env: { MAX_UPLOAD_BYTES: String(TOTAL) } } : {}),
  });
  const base = coffer.base;
  const server = { pid: coffer.pid };
  const databaseUrl = db?.url ?? '';
  const figures = new Figures();
  try {
    const startRss = currentRssMb(server.pid!);
    const u = `bench_${randomBytes(4).toString('hex')}`;
    const { access_token: token } = await post(base, '/api/uc/v1/account/register', {
      username: u,
      email: `${u}@example.com`,
      password: createHash('md5').update('Secret#123').digest('hex'),
    });

    // Rounds alternate ceiling and Coffer; dirty pages are flushed (sync) before each run so that
    // neither pays for the other's writeback. The best round of each is compared.
    const bareRuns: number[] = [];
    const cofferRuns: number[] = [];
    const completions: number[] = [];
    const endToEnd: number[] = [];
    const loads: string[] = [];
    const cpus: string[] = [];
    // The lifetime peak so far (start, the migrations, registration's argon2id); each Coffer run then
    // measures its own peak from a reset one.
    let lifetimeRss = peakRssMb(server.pid!);
    const setupRss = lifetimeRss;
    const registeredRss = currentRssMb(server.pid!);
    if (SETTLE_S > 0) await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
    const idleRss = currentRssMb(server.pid!);
    let perRunPeak = true;
    for (let round = 1; round <= ROUNDS; round++) {
      spawnSync('sync');
      const bareLoad = load1();
      let t0 = performance.now();
      const bareCpu0 = [cpuSeconds(bare.pid!), clientCpu()];
      await inFlight(partCount, async (n) => {
        await put(`http://127.0.0.1:${barePort}/part/${n}`, partBody(n, partSize));
      });
      bareRuns.push(mb / ((performance.now() - t0) / 1000));
      const bareCpu = [cpuSeconds(bare.pid!) - bareCpu0[0]!, clientCpu() - bareCpu0[1]!];
      for (const f of readdirSync(bareDir)) rmSync(path.join(bareDir, f));

      spawnSync('sync');
      const cofferLoad = load1();
      const start = await post(
        base,
        '/sl/v1/multipart/upload',
        { file_name: 'big.bin', size: TOTAL, md5, content_type: 'application/octet-stream' },
        token,
      );
      if (start.part_size !== partSize) throw new Error(`unexpected part size ${start.part_size}`);
      const etags: { part_number: number; etag: string }[] = [];
      lifetimeRss = Math.max(lifetimeRss, peakRssMb(server.pid!));
      const rssBefore = currentRssMb(server.pid!);
      perRunPeak &&= resetPeakRss(server.pid!);
      const cofferCpu0 = [cpuSeconds(server.pid!), cpuSeconds(server.pid!, server.pid!), clientCpu()];
      t0 = performance.now();
      const e2e0 = t0;
      await inFlight(partCount, async (n) => {
        const { url } = await post(base, '/sl/v1/upload/part/url', { upload_id: start.upload_id, part_number: n }, token);
        etags.push({ part_number: n, etag: await put(url, partBody(n, partSize)) });
      });
      cofferRuns.push(mb / ((performance.now() - t0) / 1000));
      t0 = performance.now();
      const resource = await post(base, '/sl/v1/complete/upload', { upload_id: start.upload_id, parts: etags }, token);
      completions.push((performance.now() - t0) / 1000);
      endToEnd.push(mb / ((performance.now() - e2e0) / 1000));
      const runRss = peakRssMb(server.pid!);
      lifetimeRss = Math.max(lifetimeRss, runRss);
      const cofferCpu = [
        cpuSeconds(server.pid!) - cofferCpu0[0]!,
        cpuSeconds(server.pid!, server.pid!) - cofferCpu0[1]!,
        clientCpu() - cofferCpu0[2]!,
      ];
      cpus.push(
        `ceiling server ${bareCpu[0]!.toFixed(2)} s (client ${bareCpu[1]!.toFixed(2)} s), Coffer server ${cofferCpu[0]!.toFixed(2)} s, of which its event loop ${cofferCpu[1]!.toFixed(2)} s (client ${cofferCpu[2]!.toFixed(2)} s)`,
      );
      if (resource.md5 !== md5 || resource.size !== TOTAL) throw new Error('completion answered a different file');
      figures.record('Coffer end to end (parts + complete/upload)', 'MB/s', endToEnd.at(-1)!, cofferLoad);
      figures.record('Coffer part PUTs', 'MB/s', cofferRuns.at(-1)!, cofferLoad);
      figures.record('complete/upload', 's', completions.at(-1)!, cofferLoad);
      figures.record('Coffer server CPU', 's', cofferCpu[0]!, cofferLoad);
      figures.record('Coffer RSS before the run', 'MB', rssBefore, cofferLoad);
      if (perRunPeak) figures.record('Coffer peak RSS during the run (parts + complete/upload)', 'MB', runRss, cofferLoad);
      figures.record('ceiling: streaming PUT + MD5 (bare Node)', 'MB/s', bareRuns.at(-1)!, bareLoad);
      figures.record('ceiling server CPU', 's', bareCpu[0]!, bareLoad);
      figures.record('Coffer end to end / ceiling', '%', endToEnd.at(-1)! / bareRuns.at(-1)!, cofferLoad);
      loads.push(
        loadavg()
          .map((l) => l.toFixed(2))
          .join(' '),
      );
      console.log(
        `round ${round}: ceiling ${bareRuns.at(-1)!.toFixed(0)} MB/s, Coffer parts ${cofferRuns.at(-1)!.toFixed(0)} MB/s, complete/upload ${completions.at(-1)!.toFixed(2)} s, Coffer end to end ${endToEnd.at(-1)!.toFixed(0)} MB/s (${((endToEnd.at(-1)! / bareRuns.at(-1)!) * 100).toFixed(0)} % of this round's ceiling); load average ${loads.at(-1)}`,
      );
      console.log(`  CPU: ${cpus.at(-1)}`);
    }
    const cofferRss = Math.max(lifetimeRss, peakRssMb(server.pid!));
    const bareRss = peakRssMb(bare.pid!);
    const bareMbs = Math.max(...bareRuns);
    const cofferMbs = Math.max(...cofferRuns);
    const completeSeconds = Math.min(...completions);
    const e2eMbs = Math.max(...endToEnd);

    console.log('');
    console.log('| server | part PUTs MB/s (best round) | peak RSS MB |');
    console.log('|---|---:|---:|');
    console.log(`| bare Node HTTP -> disk + MD5 (ceiling) | ${bareMbs.toFixed(0)} | ${bareRss.toFixed(0)} |`);
    console.log(`| Coffer (presign call + PUT per part) | ${cofferMbs.toFixed(0)} | ${cofferRss.toFixed(0)} |`);
    console.log('');
    console.log(
      `Coffer database: ${databaseUrl ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite (its WASM heap is part of the RSS)'}; RSS when started ${startRss.toFixed(0)} MB, after registration ${registeredRss.toFixed(0)} MB${SETTLE_S ? `, after ${SETTLE_S} s idle` : ''} (before the uploads) ${idleRss.toFixed(0)} MB, growth during them: ${(cofferRss - idleRss).toFixed(0)} MB`,
    );
    console.log(
      `Coffer peak RSS: ${cofferRss.toFixed(0)} MB over its life (${setupRss.toFixed(0)} MB by the end of start-up and registration); ` +
        (perRunPeak
          ? `during the upload runs (the peak reset before each): median ${figures.medianText('Coffer peak RSS during the run (parts + complete/upload)')}, ` +
            `spread ${figures.spread('Coffer peak RSS during the run (parts + complete/upload)')}`
          : 'the peak of each run could not be measured (/proc/<pid>/clear_refs refused)'),
    );
    const rssMet = perRunPeak && figures.median('Coffer peak RSS during the run (parts + complete/upload)') <= GOAL_RSS_MB;
    console.log(`goal: peak RSS during an upload <= ${GOAL_RSS_MB} MB: ${rssMet ? 'met' : 'NOT met'}`);
    console.log(`ratio Coffer / ceiling: ${((cofferMbs / bareMbs) * 100).toFixed(0)} %`);
    console.log(
      `complete/upload (assemble ${mb} MiB + MD5 verify): ${completeSeconds.toFixed(2)} s (best round); end to end (parts + completion, best round): ${e2eMbs.toFixed(0)} MB/s`,
    );
    console.log(`ratio Coffer end to end / ceiling: ${((e2eMbs / bareMbs) * 100).toFixed(0)} %`);
    console.log(`load average (1 5 15 min) after each round: ${loads.join(' | ')}`);
    console.log(`CPU time per round (the database server's own not counted): ${cpus.join(' | ')}`);
    const summary = new Summary(figures, [
      {
        what: `${mb} MiB upload end to end, limit: streaming PUT + MD5`,
        coffer: 'Coffer end to end (parts + complete/upload)',
        limit: 'ceiling: streaming PUT + MD5 (bare Node)',
        ratio: 'Coffer end to end / ceiling',
        goalRatio: GOAL_RATIO,
      },
    ]);
    console.log(`\nEvery round (value, and the 1-minute load average when its run started):\n\n${figures.table()}`);
    console.log(`\nMedians of ${ROUNDS} rounds against the limit and the goal:\n\n${summary.table()}`);
    appendHistory(
      'bench:upload',
      `${mb} MiB, ${IN_FLIGHT} parts in flight, database ${databaseUrl ? 'PostgreSQL' : 'PGlite'}, Coffer as \`npm start\` runs it. ` +
        `Best rounds: ceiling ${bareMbs.toFixed(0)} MB/s, Coffer end to end ${e2eMbs.toFixed(0)} MB/s (${((e2eMbs / bareMbs) * 100).toFixed(0)} %). ` +
        `Coffer peak RSS during an upload run (reset before each): median ${perRunPeak ? figures.medianText('Coffer peak RSS during the run (parts + complete/upload)') : 'not measured'} ` +
        `(goal <= ${GOAL_RSS_MB} MB: **${rssMet ? 'met' : 'not met'}**); over the server's life ${cofferRss.toFixed(0)} MB ` +
        `(${setupRss.toFixed(0)} MB by the end of start-up and registration, before any upload); ` +
        `${SETTLE_S ? `the first round after ${SETTLE_S} s idle` : 'the first round straight after registration'} (${idleRss.toFixed(0)} MB then).\n\n` +
        `${summary.table()}\n\n<details><summary>every round</summary>\n\n${figures.table()}\n\n</details>`,
    );
  } finally {
    bare.kill();
    agent.destroy();
    await coffer.stop();
    rmSync(bareDir, { recursive: true, force: true });
    await db?.drop();
  }
}

if (process.argv[2] !== '--bare') await main();

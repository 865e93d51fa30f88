/**
 * The one bench harness (issue "Figures a user gets, against limits that are limits"): what every
 * bench that loads Coffer over HTTP shares, so that each measures the same server the same way.
 *
 * - {@link startCoffer}: Coffer exactly as `npm start` starts it (the root script: `scripts/start.mjs`,
 *   which builds only when the build is stale, then `cd apps/server && node <its flags>
 *   dist/server.js`, the flags read from package.json by {@link npmStartNodeArgs}), with every
 *   Coffer variable at its default (request logs at `info` through the asynchronous stdout destination, workers on, the web app served)
 *   except those a user would set to run it here: `PORT`, `DATABASE_URL`, and `DATA_DIR` (a fresh
 *   directory on the same file system as the default `./data`) and `API_RATE_LIMIT_MAX` (see
 *   {@link CHANGED_FOR_LOAD}). It prints the command and each variable it set. The server's stdout
 *   (its request log) goes to a file, as a user's redirected log would, and waits on `GET /readyz`.
 * - {@link LoadGenerator}: autocannon in its own process (lib/loadgen.ts), apart from the servers.
 * - {@link startLimitServer}: a bare Fastify limit server in its own process (lib/limit-server.ts).
 * - {@link runSqlPurchaseLimit}: the SQL half of the purchase limit in its own process (lib/sql-limit.ts).
 * - Accounting: {@link cpuMs} (a process's user + system CPU from /proc), {@link postgresCpuMs},
 *   {@link load1} (the 1-minute load average), {@link freePort}, {@link scratchDatabase}
 *   (PostgreSQL database create/drop).
 * - Reporting: {@link Figures} (per-round figures with the load average of the same run, their
 *   median and spread), {@link Summary} (Coffer, limit, ratio, goal), {@link appendHistory}
 *   (bench/history.md when `BENCH_HISTORY=1`).
 *
 * Linux only (/proc). Durations come from the benches' `BENCH_SECONDS`, rounds from `BENCH_ROUNDS`.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { LimitConfig } from './limit-server';
import type { LoadJob, LoadResult } from './loadgen';
import type { SqlLimitConfig, SqlLimitResult } from './sql-limit';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const ROOT = path.resolve(here, '../..');

/** Seconds of each measured run (`BENCH_SECONDS`, default `fallback`). */
export const benchSeconds = (fallback: number) => Number(process.env.BENCH_SECONDS ?? fallback);
/** Rounds of Coffer-then-limit (`BENCH_ROUNDS`, default 3). */
export const benchRounds = () => Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 3)) || 1);

/** The 1-minute load average now. */
export const load1 = () => loadavg()[0]!;
/** The 1/5/15-minute load averages as text. */
export const loadText = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** A line describing the machine: Node, CPUs, load average. */
export const machineLine = () => `node ${process.version}, ${cpus().length} CPUs, load average ${loadText()}`;

/** CPU time (user + system) process `pid` has used, in ms, from /proc/<pid>/stat; 0 when it is gone. */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** CPU time (ms) used so far by every PostgreSQL process on this machine (backends and background workers). */
export function postgresCpuMs(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuMs(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * Runs `work` and measures around it: the 1-minute load average when it started, and the CPU time
 * (ms) each of `pids` used meanwhile (`postgres` counts every PostgreSQL process).
 */
export async function measured<T>(
  pids: Record<string, number | 'postgres'>,
  work: () => Promise<T>,
): Promise<{ result: T; load: number; cpu: Record<string, number> }> {
  const read = (p: number | 'postgres') => (p === 'postgres' ? postgresCpuMs() : cpuMs(p));
  const before = Object.fromEntries(Object.entries(pids).map(([k, p]) => [k, read(p)]));
  const load = load1();
  const result = await work();
  const cpu = Object.fromEntries(Object.entries(pids).map(([k, p]) => [k, read(p) - before[k]!]));
  return { result, load, cpu };
}

/** A port that was free a moment ago (Coffer's presigned links need it before it listens). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A PostgreSQL database made for one bench run, next to the one `adminUrl` names. */
export interface ScratchDatabase {
  name: string;
  url: string;
  /** Drops it, unless `BENCH_KEEP_DB=1` (then prints its name). */
  drop: () => Promise<void>;
}

/**
 * Creates a fresh database on the server of `adminUrl` (a postgres:// URL whose user may create
 * databases), named `coffer_bench_<prefix>_<pid>_<random>`.
 * @throws when the server refuses
 */
export async function scratchDatabase(adminUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `coffer_bench_${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    drop: async () => {
      if (process.env.BENCH_KEEP_DB === '1') {
        console.log(`kept database ${name}`);
        return;
      }
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Polls `GET <base>/readyz` until it answers 200 (or `child` exits, or `timeoutMs` pass). */
export async function waitReady(base: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${base}: the server exited (${child.exitCode})`);
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${base}/readyz did not answer 200 within ${timeoutMs} ms`);
}

/** Stops a child with SIGTERM and waits for it to exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Variables of the user's environment the server inherits (no Coffer variable, no NODE_OPTIONS). */
const INHERITED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'];

/**
 * The one Coffer variable the harness sets beyond where Coffer listens and stores: the per-client
 * API budget (default 600 requests a minute per client, docs/api.md "Rate limits"). The load comes
 * from one address and one or a few accounts and stands for many clients, each with a budget of its
 * own; at the default the budget would answer 429 within a second. The budget is still counted on
 * every call (its cost is in the figures), just never reached.
 */
export const CHANGED_FOR_LOAD = { API_RATE_LIMIT_MAX: '100000000' } as const;

/**
 * The arguments of `npm start`'s server command, read from the root package.json's `start` script
 * (`node scripts/start.mjs && cd apps/server && exec node <arguments>`), so that a bench runs the
 * node flags npm start runs (e.g. `--max-semi-space-size=8`, ADR 0074).
 * @returns e.g. `['--max-semi-space-size=8', '--conditions=coffer-compiled', 'dist/server.js']`
 * @throws Error when the script no longer has that shape
 */
export function npmStartNodeArgs(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const match = /&& cd apps\/server && exec node (.+)$/.exec(pkg.scripts.start);
  if (!match) throw new Error(`package.json's start script no longer ends in "cd apps/server && exec node ...": ${pkg.scripts.start}`);
  return match[1]!.trim().split(/\s+/);
}

/** A running Coffer server. */
export interface Coffer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  pid: number;
  child: ChildProcess;
  dataDir: string;
  /** The file the server's stdout (its request log) goes to. */
  logFile: string;
  /** SIGTERM, wait, print the log's size, remove the data dir (unless BENCH_KEEP_DATA=1). */
  stop: () => Promise<void>;
}

/**
 * Starts Coffer as `npm start` does (see the module comment): `scripts/start.mjs` first (builds when
 * stale), then `node <npm start's flags> dist/server.js` in apps/server, waits for
 * `/readyz`. Prints the command and the variables it set.
 * @param options.databaseUrl PostgreSQL URL (unset: the embedded PGlite in DATA_DIR, as npm start)
 * @param options.nodeArgs extra node flags for the server (`BENCH_SERVER_NODE_ARGS`, e.g. `--cpu-prof`);
 *   printed, and not what npm start runs
 * @param options.env further Coffer variables a bench needs set (e.g. `MAX_UPLOAD_BYTES` for an
 *   upload above the default limit); printed with the others
 * @throws when the build fails or the server does not become ready
 */
export async function startCoffer(
  options: { databaseUrl?: string; nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<Coffer> {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('scripts/start.mjs (the build) failed');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'coffer-bench-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'stdout.log');
  const changed: Record<string, string> = {
    PORT: String(port),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    DATA_DIR: dataDir,
    ...CHANGED_FOR_LOAD,
    ...options.env,
  };
  const env: Record<string, string> = {};
  for (const k of INHERITED) if (process.env[k] !== undefined) env[k] = process.env[k]!;
  Object.assign(env, changed);
  const nodeArgs = [...(options.nodeArgs ?? []), ...npmStartNodeArgs()];
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, nodeArgs, {
    cwd: path.join(ROOT, 'apps/server'),
    env,
    stdio: ['ignore', out, 'inherit'],
  });
  closeSync(out);
  const shown = Object.entries(changed)
    .map(([k, v]) => `${k}=${k === 'DATABASE_URL' ? v.replace(/\/\/([^:@/]+):[^@]*@/, '//$1:***@') : v}`)
    .join(' ');
  console.log(
    `Coffer started as npm start does: node scripts/start.mjs && cd apps/server && exec node ${nodeArgs.join(' ')}` +
      (options.nodeArgs?.length ? `  (extra node flags: ${options.nodeArgs.join(' ')})` : ''),
  );
  console.log(
    `  env set: ${shown}; inherited: ${INHERITED.filter((k) => env[k] !== undefined).join(' ')}; every other variable unset ` +
      `(Coffer's defaults: LOG_LEVEL info, async stdout log destination, WORKERS on, SERVE_WEB on, PAYMENTS sandbox)`,
  );
  console.log(`  stdout (request log) -> ${logFile}`);
  await waitReady(base, child);
  return {
    base,
    port,
    pid: child.pid!,
    child,
    dataDir,
    logFile,
    stop: async () => {
      await stopChild(child);
      let bytes = 0;
      try {
        bytes = statSync(logFile).size;
      } catch {
        // no log
      }
      console.log(`Coffer stopped; its request log held ${(bytes / 1e6).toFixed(1)} MB`);
      if (process.env.BENCH_KEEP_DATA !== '1') rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A running limit server (lib/limit-server.ts). */
export interface LimitServer {
  base: string;
  pid: number;
  stop: () => Promise<void>;
}

/** Starts a bare Fastify limit server in its own process with `config`'s routes; resolves once it listens. */
export async function startLimitServer(config: Omit<LimitConfig, 'port'>): Promise<LimitServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...process.execArgv, path.join(here, 'limit-server.ts')], {
    env: { ...process.env, LIMIT_CONFIG: JSON.stringify({ ...config, port }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the limit server exited (${code})`)));
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('listening')) resolve();
    });
  });
  child.removeAllListeners('exit');
  return { base: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child) };
}

/** autocannon in its own process (lib/loadgen.ts); one job at a time. */
export class LoadGenerator {
  private child: ChildProcess;
  private next = 1;
  private waiting = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  private ready: Promise<void>;

  constructor() {
    this.child = fork(path.join(here, 'loadgen.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.ready = new Promise((resolve) => {
      this.child.on('message', (msg: { ready?: boolean; id?: number; result?: LoadResult; error?: string }) => {
        if (msg.ready) return resolve();
        const w = this.waiting.get(msg.id!);
        if (!w) return;
        this.waiting.delete(msg.id!);
        if (msg.error) w.reject(new Error(msg.error));
        else w.resolve(msg.result!);
      });
    });
    // A load generator that dies fails the runs it had (instead of leaving the bench waiting).
    this.child.once('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`the load generator exited (${code})`));
      this.waiting.clear();
    });
  }

  /** The load generator's pid (for its CPU time). */
  get pid(): number {
    return this.child.pid!;
  }

  /** Runs one load job and resolves to autocannon's figures. */
  async run(job: LoadJob): Promise<LoadResult> {
    await this.ready;
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, job });
    });
  }

  async stop(): Promise<void> {
    if (this.child.connected) this.child.disconnect();
    await stopChild(this.child);
  }
}

/**
 * Runs the SQL half of the purchase limit (lib/sql-limit.ts) in its own process and resolves to its
 * figures, with the 1-minute load average when its timed run started and the CPU (ms) every
 * PostgreSQL process used during it (read before its connections close).
 * @throws when the process fails
 */
export async function runSqlPurchaseLimit(
  config: SqlLimitConfig,
): Promise<SqlLimitResult & { load: number; postgresCpuMs: number }> {
  const child = fork(path.join(here, 'sql-limit.ts'), [], {
    env: { ...process.env, SQL_LIMIT_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let pg0 = 0;
  let load = 0;
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  const result = await new Promise<SqlLimitResult & { load: number; postgresCpuMs: number }>((resolve, reject) => {
    child.on('message', (msg: { started?: boolean; result?: SqlLimitResult }) => {
      if (msg.started) {
        pg0 = postgresCpuMs();
        load = load1();
      } else if (msg.result) {
        resolve({ ...msg.result, load, postgresCpuMs: postgresCpuMs() - pg0 });
        child.send('end');
      }
    });
    void exited.then((code) => reject(new Error(`sql-limit exited with ${code} before its result`)));
  });
  await exited;
  return result;
}

/** The median of `xs` (the mean of the middle two for an even count); NaN when empty. */
export function median(xs: number[]): number {
  const v = [...xs].sort((a, b) => a - b);
  if (!v.length) return NaN;
  return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
}

/** One figure of one run, with the 1-minute load average when that run started. */
export interface Sample {
  value: number;
  load: number;
}

/** Formats a figure: thousands separators, `digits` decimals. */
export const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '-';

/** A series' unit decides its format: `%` and `x` ratios, `ms` with 3 decimals under 1 ms, `s` with 2, rates whole. */
function num(value: number, unit: string): string {
  if (unit === '%') return fmt(value * 100);
  if (unit === 'x') return value.toFixed(2);
  if (unit === 'ms') return fmt(value, value < 1 ? 3 : 1);
  if (unit === 's') return fmt(value, 2);
  return fmt(value);
}

function show(value: number, unit: string): string {
  return unit === 'x' ? `${num(value, unit)}x` : `${num(value, unit)} ${unit}`;
}

/** Per-round figures by name (each with the load of its own run), their median and spread. */
export class Figures {
  private series = new Map<string, { unit: string; samples: Sample[] }>();

  /** Records `value` (in `unit`: `req/s`, `purchases/s`, `ms`, `%`, `x`...) for this round. */
  record(name: string, unit: string, value: number, load: number): void {
    const s = this.series.get(name) ?? { unit, samples: [] };
    s.samples.push({ value, load });
    this.series.set(name, s);
  }

  samples(name: string): Sample[] {
    return this.series.get(name)?.samples ?? [];
  }

  median(name: string): number {
    return median(this.samples(name).map((s) => s.value));
  }

  /** `min-max` of the series, formatted. */
  spread(name: string): string {
    const v = this.samples(name).map((s) => s.value);
    const unit = this.series.get(name)?.unit ?? '';
    return v.length ? `${num(Math.min(...v), unit)}-${show(Math.max(...v), unit)}` : '-';
  }

  /** The median, formatted with its unit. */
  medianText(name: string): string {
    return show(this.median(name), this.series.get(name)?.unit ?? '');
  }

  /** `lo-hi` of the loads of the series' runs. */
  loads(name: string): string {
    const l = this.samples(name).map((s) => s.load);
    return l.length ? `${Math.min(...l).toFixed(1)}-${Math.max(...l).toFixed(1)}` : '-';
  }

  /** A markdown table: one row per series, one column per round (value and load), the median and the spread. */
  table(): string {
    const rounds = Math.max(0, ...[...this.series.values()].map((s) => s.samples.length));
    const head = ['figure', ...Array.from({ length: rounds }, (_, i) => `round ${i + 1} (load)`), 'median', 'spread (min-max)', 'load'];
    const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
    for (const [name, s] of this.series) {
      const cells = Array.from({ length: rounds }, (_, i) => {
        const x = s.samples[i];
        return x ? `${show(x.value, s.unit)} (${x.load.toFixed(1)})` : '';
      });
      lines.push(`| ${[name, ...cells, this.medianText(name), this.spread(name), this.loads(name)].join(' | ')} |`);
    }
    return lines.join('\n');
  }
}

/** One line of a bench's summary: Coffer, its limit, the ratio, the goal. */
export interface SummaryRow {
  what: string;
  /** Series names in the bench's {@link Figures}. */
  coffer: string;
  limit: string;
  ratio: string;
  /** Optional latency series (p99 ms) the goal also bounds. */
  p99?: string;
  /** Lowest ratio the goal asks (0.6 = 60 %). */
  goalRatio: number;
  /** Highest p99 the goal allows (ms), if any. */
  goalP99?: number;
}

/** Builds the summary of a bench: medians of Coffer, limit and ratio, spreads, loads, goals. */
export class Summary {
  constructor(
    private figures: Figures,
    private rows: SummaryRow[],
  ) {}

  /** Whether row `r`'s goal is met by the medians. */
  met(r: SummaryRow): boolean {
    const ratioOk = this.figures.median(r.ratio) >= r.goalRatio;
    const p99Ok = r.p99 === undefined || r.goalP99 === undefined || this.figures.median(r.p99) <= r.goalP99;
    return ratioOk && p99Ok;
  }

  goalText(r: SummaryRow): string {
    const parts = [`>= ${fmt(r.goalRatio * 100)} % of the limit`];
    if (r.goalP99 !== undefined) parts.push(`p99 <= ${r.goalP99} ms`);
    return parts.join(', ');
  }

  /** A markdown table of medians (with spreads) and goals. */
  table(): string {
    const f = this.figures;
    const lines = [
      '| what | Coffer, median (spread) | p99 | limit, median (spread) | ratio, median (spread) | goal | load |',
      '|---|---|---|---|---|---|---|',
    ];
    for (const r of this.rows) {
      lines.push(
        `| ${r.what} | ${f.medianText(r.coffer)} (${f.spread(r.coffer)}) | ${r.p99 ? f.medianText(r.p99) : '-'} | ` +
          `${f.medianText(r.limit)} (${f.spread(r.limit)}) | ${f.medianText(r.ratio)} (${f.spread(r.ratio)}) | ` +
          `${this.goalText(r)}: **${this.met(r) ? 'met' : 'not met'}** | ${f.loads(r.coffer)} |`,
      );
    }
    return lines.join('\n');
  }
}

/** The commit of the working tree (short hash, `+dirty` when it has changes). */
export function gitCommit(): string {
  const rev = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() || 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  return dirty ? `${rev}+dirty` : rev;
}

/** bench/history.md */
export const HISTORY_FILE = path.join(ROOT, 'bench/history.md');

/**
 * With `BENCH_HISTORY=1`, inserts a section into bench/history.md above the newest one (the file is
 * newest first): `## <UTC date time> — <bench>` then a line with the commit, the machine and the
 * load, then `body` (markdown). Without it, does nothing. Returns whether it wrote.
 */
export function appendHistory(bench: string, body: string): boolean {
  if (process.env.BENCH_HISTORY !== '1') return false;
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const section =
    `## ${when} UTC — ${bench}\n\nCommit ${gitCommit()}, ${machineLine()} (at the end of the run). ` +
    `\`BENCH_SECONDS=${process.env.BENCH_SECONDS ?? 'default'}\`, \`BENCH_ROUNDS=${benchRounds()}\`.\n\n${body.trim()}\n\n`;
  const text = readFileSync(HISTORY_FILE, 'utf8');
  const at = text.indexOf('\n## ');
  const next = at < 0 ? `${text.trimEnd()}\n\n${section}` : `${text.slice(0, at + 1)}${section}${text.slice(at + 1)}`;
  writeFileSync(HISTORY_FILE, next);
  console.log(`appended to ${path.relative(process.cwd(), HISTORY_FILE)}`);
  return true;
}

/** Prints a goal line: `label: value against goal — met|not met`. */
export function printGoal(label: string, text: string, met: boolean): void {
  console.log(`goal ${label}: ${text}: ${met ? 'met' : 'NOT met'}`);
}

/** One JSON API answer: the HTTP status, the envelope, and the body's exact bytes as text. */
export interface Answer {
  status: number;
  body: { code: number; msg: string; reason?: string; data: any };
  text: string;
}

/** POSTs `body` as JSON to `base + url` (Bearer `token` when given) and reads the envelope. */
export async function postJson(base: string, url: string, body: unknown, token?: string): Promise<Answer> {
  const res = await fetch(base + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Answer['body'], text };
}

/** Like {@link postJson}, but throws unless the envelope's code is 10000; resolves to its `data`. */
export async function mustPost(base: string, url: string, body: unknown, token?: string): Promise<any> {
  const out = await postJson(base, url, body, token);
  if (out.body.code !== 10000) throw new Error(`${url}: ${out.body.msg}`);
  return out.body.data;
}

/**
 * Publishes one collection with one small file through the public calls (collection/create,
 * upload/resource/url + the presigned PUT, complete/upload, collection/resource/add,
 * collection/publish), as a seller would. Resolves to its id.
 * @throws when a step answers anything but success
 */
export async function publishCollection(base: string, token: string, title: string, price: number): Promise<string> {
  const { createHash } = await import('node:crypto');
  const file = Buffer.from(`${title}\n`);
  const md5 = createHash('md5').update(file).digest('hex');
  const c = await mustPost(base, '/sl/v1/collection/create', { title, desc: 'Made by a Coffer bench', amount: price }, token);
  const up = await mustPost(
    base,
    '/sl/v1/upload/resource/url',
    { file_name: 'bench.txt', size: file.length, md5, content_type: 'text/plain' },
    token,
  );
  const put = await fetch(up.url as string, { method: 'PUT', body: file, headers: { 'content-type': 'text/plain' } });
  if (!put.ok) throw new Error(`the presigned PUT answered ${put.status}`);
  const r = await mustPost(base, '/sl/v1/complete/upload', { upload_id: up.upload_id, parts: [] }, token);
  await mustPost(base, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, token);
  await mustPost(base, '/sl/v1/collection/publish', { collection_id: c.id }, token);
  return c.id as string;
}

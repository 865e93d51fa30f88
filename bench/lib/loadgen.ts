/**
 * The load generator process (spawned by harness.ts `LoadGenerator`, never run by hand): autocannon
 * in this process's main thread, apart from the servers it loads and from the bench that reports.
 *
 * Protocol (Node IPC): the parent sends `{ id, job }` where `job` is a {@link LoadJob}; this process
 * answers `{ id, result }` (a {@link LoadResult}) or `{ id, error }` (a message). Jobs run one at a
 * time in the order received; a mixed run uses two load generator processes.
 *
 * A job is either fixed requests (`url`, `method`, `headers`, `body`) or a scenario module
 * (`scenario`: a file path whose `scenario(args)` returns autocannon `requests` and a `summary()`),
 * for requests that depend on earlier answers (buy, then pay the order it answered).
 */
import autocannon from 'autocannon';
import { pathToFileURL } from 'node:url';

/** One load run, as the parent asks it. */
export interface LoadJob {
  url: string;
  connections: number;
  /** Seconds of load. */
  duration: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** A module path exporting `scenario(args)` (see {@link Scenario}). */
  scenario?: string;
  /** Passed to the scenario (plain JSON). */
  args?: unknown;
}

/** What a scenario module's `scenario(args)` returns. */
export interface Scenario {
  /** autocannon's `requests` (with `setupRequest` / `onResponse`). */
  requests: unknown[];
  /** Figures of the scenario's own (e.g. purchases done, their latencies), read after the run. */
  summary: () => Record<string, unknown>;
}

/** autocannon's figures of one run, with the scenario's own when there was one. */
export interface LoadResult {
  /** Responses per second (mean over the run). */
  rps: number;
  /** Responses in all. */
  total: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Response bytes per second (mean). */
  bytesPerSecond: number;
  /** Seconds the run lasted. */
  seconds: number;
  scenario?: Record<string, unknown>;
}

async function run(job: LoadJob): Promise<LoadResult> {
  let scenario: Scenario | undefined;
  if (job.scenario) {
    const mod = (await import(pathToFileURL(job.scenario).href)) as { scenario: (args: unknown) => Scenario };
    scenario = mod.scenario(job.args);
  }
  const result = await autocannon({
    url: job.url,
    method: job.method ?? 'POST',
    connections: job.connections,
    duration: job.duration,
    headers: job.headers ?? { 'content-type': 'application/json' },
    body: job.body,
    ...(scenario ? { requests: scenario.requests } : {}),
  });
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytesPerSecond: result.throughput.average,
    seconds: result.duration,
    ...(scenario ? { scenario: scenario.summary() } : {}),
  };
}

let chain: Promise<unknown> = Promise.resolve();
process.on('message', (msg: { id: number; job: LoadJob }) => {
  chain = chain.then(() =>
    run(msg.job).then(
      (result) => process.send!({ id: msg.id, result }),
      (err: unknown) => process.send!({ id: msg.id, error: err instanceof Error ? err.stack ?? err.message : String(err) }),
    ),
  );
});
process.on('disconnect', () => process.exit(0));
process.send!({ ready: true });

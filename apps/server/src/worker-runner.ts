/**
 * Runs the app's background workers (payout worker, deposit watchers, sweepers...) on their
 * intervals, one pass at a time per worker, and stops them between passes (docs/operations.md
 * "Graceful shutdown"). A worker with `wake` also runs a pass as soon as it is woken (the payout
 * worker, on a confirmed bill); a wake-up during a pass starts one more pass right after it, so
 * work queued while a pass was finishing is not left for the next interval. On stop, passes in
 * progress see their `signal` aborted (a draining worker ends after its current batch). `server.ts` starts it when `WORKERS` is on; `/readyz` reads {@link WorkerRunner.state}.
 */
import type { FastifyBaseLogger } from 'fastify';

/** A background job the server runs on an interval (payout worker, expiry sweeper...). */
export interface Worker {
  name: string;
  /** Milliseconds between runs. */
  intervalMs: number;
  /** One pass; must be safe to run on several instances at once. `signal` aborts on shutdown (end the pass early). */
  tick(signal?: AbortSignal): Promise<unknown>;
  /** Optional: registers `run`, which starts a pass now (or right after the one in progress). */
  wake?(run: () => void): void;
}

export interface WorkerRunnerState {
  /** `start()` was called and `stop()` was not. */
  running: boolean;
  /** `stop()` was called (possibly still waiting for a pass to end). */
  stopping: boolean;
  /** Names of the workers whose pass is in progress. */
  busy: string[];
}

export interface WorkerRunner {
  /** Schedules every worker every `intervalMs` (first pass after one interval). Idempotent. */
  start(): void;
  /**
   * No new pass starts; resolves when the passes in progress have ended (a pass is never cut in
   * the middle: each is one or more DB transactions plus provider calls that time out on their own).
   * Idempotent: every call returns the same promise.
   */
  stop(): Promise<void>;
  state(): WorkerRunnerState;
}

/** Creates a stopped runner over `workers`; a failing pass is logged and the next one runs as usual. */
export function createWorkerRunner(workers: readonly Worker[], log: FastifyBaseLogger): WorkerRunner {
  const timers: NodeJS.Timeout[] = [];
  const inFlight = new Map<Worker, Promise<void>>();
  /** Workers woken during a pass: they run again right after it. */
  const again = new Set<Worker>();
  const abort = new AbortController();
  let started = false;
  let stopped: Promise<void> | undefined;

  /** Starts a pass of `worker` unless stopped or one is in progress (then `rerun` asks for another after it). */
  const run = (worker: Worker, rerun: boolean) => {
    if (stopped) return;
    if (inFlight.has(worker)) {
      if (rerun) again.add(worker);
      return;
    }
    const pass = worker
      .tick(abort.signal)
      .then(
        () => undefined,
        (err: unknown) => log.error({ err, worker: worker.name }, 'worker failed'),
      )
      .finally(() => {
        inFlight.delete(worker);
        if (again.delete(worker)) run(worker, false);
      });
    inFlight.set(worker, pass);
  };

  return {
    start() {
      if (started || stopped) return;
      started = true;
      for (const worker of workers) {
        const timer = setInterval(() => run(worker, false), worker.intervalMs);
        timer.unref();
        timers.push(timer);
        worker.wake?.(() => run(worker, true));
      }
    },
    stop() {
      stopped ??= (async () => {
        timers.forEach(clearInterval);
        again.clear();
        abort.abort();
        // A pass may start another on its way out (`again`): wait until none is left.
        while (inFlight.size) await Promise.all(inFlight.values());
      })();
      return stopped;
    },
    state() {
      return { running: started && !stopped, stopping: Boolean(stopped), busy: [...inFlight.keys()].map((w) => w.name) };
    },
  };
}

/**
 * Runs the app's background workers (payout worker, deposit watchers, sweepers...) on their
 * intervals, one pass at a time per worker, and stops them between passes (docs/operations.md
 * "Graceful shutdown"). `server.ts` starts it when `WORKERS` is on; `/readyz` reads {@link WorkerRunner.state}.
 */
import type { FastifyBaseLogger } from 'fastify';

/** A background job the server runs on an interval (payout worker, expiry sweeper...). */
export interface Worker {
  name: string;
  /** Milliseconds between runs. */
  intervalMs: number;
  /** One pass; must be safe to run on several instances at once. */
  tick(): Promise<unknown>;
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
  let started = false;
  let stopped: Promise<void> | undefined;

  return {
    start() {
      if (started || stopped) return;
      started = true;
      for (const worker of workers) {
        const timer = setInterval(() => {
          if (stopped || inFlight.has(worker)) return;
          const pass = worker
            .tick()
            .then(
              () => undefined,
              (err: unknown) => log.error({ err, worker: worker.name }, 'worker failed'),
            )
            .finally(() => inFlight.delete(worker));
          inFlight.set(worker, pass);
        }, worker.intervalMs);
        timer.unref();
        timers.push(timer);
      }
    },
    stop() {
      stopped ??= (async () => {
        timers.forEach(clearInterval);
        await Promise.all(inFlight.values());
      })();
      return stopped;
    },
    state() {
      return { running: started && !stopped, stopping: Boolean(stopped), busy: [...inFlight.keys()].map((w) => w.name) };
    },
  };
}

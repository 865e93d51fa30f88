/**
 * The worker runner (worker-runner.ts): a woken worker runs at once, a wake-up during a pass runs
 * one more pass right after it (never two at once), and stop aborts the pass's signal and waits for it.
 */
import { describe, expect, it } from 'vitest';
import type { Worker } from './worker-runner';
import { createWorkerRunner } from './worker-runner';

const log = { error: () => undefined } as unknown as Parameters<typeof createWorkerRunner>[1];

describe('worker runner', () => {
  it('runs a woken worker at once, and once more after a pass it was woken during', async () => {
    let wake: () => void = () => undefined;
    let running = 0;
    let peak = 0;
    let passes = 0;
    let release: () => void = () => undefined;
    const worker: Worker = {
      name: 'w',
      intervalMs: 3_600_000,
      async tick() {
        passes++;
        peak = Math.max(peak, ++running);
        await new Promise<void>((r) => (release = r));
        running--;
      },
      wake(run) {
        wake = run;
      },
    };
    const runner = createWorkerRunner([worker], log);
    runner.start();
    expect(passes).toBe(0);
    wake();
    expect(passes).toBe(1);
    // Woken twice during the pass: one more pass after it, not two, and never beside it.
    wake();
    wake();
    expect(passes).toBe(1);
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect(passes).toBe(2);
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect(passes).toBe(2);
    expect(peak).toBe(1);
    await runner.stop();
  });

  it('stop aborts the signal of the pass in progress and waits for it to end', async () => {
    let wake: () => void = () => undefined;
    let seen: AbortSignal | undefined;
    let ended = false;
    const worker: Worker = {
      name: 'w',
      intervalMs: 3_600_000,
      async tick(signal) {
        seen = signal;
        await new Promise<void>((r) => signal?.addEventListener('abort', () => r()));
        ended = true;
      },
      wake(run) {
        wake = run;
      },
    };
    const runner = createWorkerRunner([worker], log);
    runner.start();
    wake();
    expect(seen?.aborted).toBe(false);
    await runner.stop();
    expect(seen?.aborted).toBe(true);
    expect(ended).toBe(true);
    wake();
    expect(runner.state().busy).toEqual([]);
  });
});

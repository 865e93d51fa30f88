/** Work after the first screen (docs/decisions/0044-first-screen-before-the-font.md). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstScreen } from './after-first-screen';

/** A window whose PerformanceObserver reports entries only when `report()` is called. */
function fakeWindow(supported: string[] = ['largest-contentful-paint']) {
  const observers: { cb: () => void; types: string[]; disconnected: boolean }[] = [];
  class FakeObserver {
    static supportedEntryTypes = supported;
    entry: { cb: () => void; types: string[]; disconnected: boolean };
    constructor(cb: () => void) {
      this.entry = { cb, types: [], disconnected: false };
      observers.push(this.entry);
    }
    observe(o: { type: string; buffered?: boolean }) {
      expect(o.buffered).toBe(true);
      this.entry.types.push(o.type);
    }
    disconnect() {
      this.entry.disconnected = true;
    }
  }
  const win = { PerformanceObserver: FakeObserver, setTimeout, clearTimeout } as unknown as Window & typeof globalThis;
  const report = () =>
    observers.filter((o) => !o.disconnected && o.types.includes('largest-contentful-paint')).forEach((o) => o.cb());
  return { win, observers, report };
}

describe('afterFirstScreen', () => {
  afterEach(() => vi.useRealTimers());

  it('loads nothing before the first largest-contentful-paint entry, then loads once', async () => {
    vi.useFakeTimers();
    const { win, observers, report } = fakeWindow();
    const load = vi.fn();
    afterFirstScreen(load, { win, fallbackMs: 3000 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(load).not.toHaveBeenCalled();
    report();
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    expect(observers[0]!.disconnected).toBe(true);
    // Neither a later entry nor the fallback timer loads it again.
    report();
    await vi.advanceTimersByTimeAsync(5000);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads after the fallback delay when no entry comes or the browser has no such entry type', async () => {
    vi.useFakeTimers();
    for (const supported of [['largest-contentful-paint'], []]) {
      const { win } = fakeWindow(supported);
      const load = vi.fn();
      afterFirstScreen(load, { win, fallbackMs: 3000 });
      await vi.advanceTimersByTimeAsync(2999);
      expect(load).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(load).toHaveBeenCalledTimes(1);
    }
  });

  it('loads nothing once cancelled, and a failing load is not thrown', async () => {
    vi.useFakeTimers();
    const { win, report } = fakeWindow();
    const load = vi.fn();
    const cancel = afterFirstScreen(load, { win, fallbackMs: 3000 });
    cancel();
    report();
    await vi.advanceTimersByTimeAsync(5000);
    expect(load).not.toHaveBeenCalled();

    const failing = vi.fn(() => Promise.reject(new Error('offline')));
    afterFirstScreen(failing, { win: fakeWindow().win, fallbackMs: 10 });
    await vi.advanceTimersByTimeAsync(10);
    expect(failing).toHaveBeenCalledTimes(1);
  });
});

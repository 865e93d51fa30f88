/**
 * The shared limit on part PUTs in flight over all files of a queue, and the abort helpers the
 * upload steps share.
 */
import { Md5Error } from './file-md5';

/** At most `size` holders at once; the others wait in order. */
export class PartSlots {
  private free: number;
  private waiters: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  /** Waits for a free slot. @throws DOMException AbortError when `signal` aborted while waiting */
  async acquire(signal: AbortSignal): Promise<void> {
    while (this.free === 0) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
      if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
    }
    this.free--;
  }

  /** Gives a slot back and wakes the first waiter. */
  release(): void {
    this.free++;
    this.waiters.shift()?.();
  }
}

/** Waits `ms`; rejects with an AbortError as soon as `signal` aborts. */
export const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
  });

/** Whether a failure is a cancellation (an aborted fetch/PUT or an aborted hash). */
export const isAbort = (err: unknown) =>
  (err instanceof DOMException && err.name === 'AbortError') || (err instanceof Md5Error && err.kind === 'aborted');

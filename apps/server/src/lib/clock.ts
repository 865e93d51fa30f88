/**
 * An injectable clock so that expiry rules are tested by moving time, never by sleeping.
 * `now()` returns milliseconds since the epoch.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests can move: `advance(ms)` and `set(ms)`. */
export class ManualClock implements Clock {
  constructor(private current = Date.now()) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

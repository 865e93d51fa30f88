/**
 * The shared-state pieces against the real Redis (REDIS_TEST_URL, default redis://127.0.0.1:6379),
 * under a key prefix unique to the run: atomic reservations, the pub/sub bus between two
 * connections, and a bus pointed at an unreachable Redis that closes cleanly (no unhandled
 * rejection: vitest fails the file on one).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryCounters, redisBus, redisCounters, REDIS_OPTIONS, type Revocation } from './shared-state';

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const prefix = `coffer-test-${randomBytes(6).toString('hex')}:`;
const log = { warn: () => undefined, error: () => undefined };

let redis: Redis;
beforeAll(() => {
  redis = new Redis(REDIS_URL, REDIS_OPTIONS);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

async function until(probe: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !probe(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(probe()).toBe(true);
}

describe('counters', () => {
  it('Redis: 30 parallel reservations of a budget of 10 allow exactly 10; a release gives one back', async () => {
    const counters = redisCounters(redis, prefix);
    const results = await Promise.all(Array.from({ length: 30 }, () => counters.reserve('k1', 10, 60_000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(results.every((r) => r.resetInMs > 0 && r.resetInMs <= 60_000)).toBe(true);
    await counters.release('k1');
    expect((await counters.reserve('k1', 10, 60_000)).allowed).toBe(true);
    expect((await counters.reserve('k1', 10, 60_000)).allowed).toBe(false);
  });

  it('memory: the window resets after windowMs of the clock', async () => {
    let now = 0;
    const counters = memoryCounters(() => now);
    for (let i = 0; i < 3; i++) expect((await counters.reserve('k', 3, 1000)).allowed).toBe(true);
    expect(await counters.reserve('k', 3, 1000)).toEqual({ allowed: false, resetInMs: 1000 });
    now = 1000;
    expect((await counters.reserve('k', 3, 1000)).allowed).toBe(true);
  });
});

describe('revocation bus', () => {
  it('carries a revocation from one connection to the subscribers of another', async () => {
    const a = redisBus(redis, REDIS_URL, prefix, log);
    const b = redisBus(redis, REDIS_URL, prefix, log);
    await Promise.all([a.ready, b.ready]);
    const got: Revocation[] = [];
    b.subscribe((e) => got.push(e));
    await a.publish({ kind: 'session', sessionId: 's1' });
    await a.publish({ kind: 'user', userId: 'u1' });
    await until(() => got.length === 2);
    expect(got).toEqual([
      { kind: 'session', sessionId: 's1' },
      { kind: 'user', userId: 'u1' },
    ]);
    await a.close();
    await b.close();
  });

  it('keeps retrying against an unreachable Redis and closes cleanly', async () => {
    const dead = new Redis('redis://127.0.0.1:1', { ...REDIS_OPTIONS, lazyConnect: true, retryStrategy: () => 200 });
    dead.on('error', () => undefined);
    const bus = redisBus(dead, 'redis://127.0.0.1:1', prefix, log);
    let ready = false;
    void bus.ready.then(() => (ready = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(ready).toBe(false);
    await bus.close();
    await bus.ready;
    dead.disconnect();
  });
});

import { describe, expect, it } from 'vitest';
import { createReadCache } from './read-cache';

describe('read cache', () => {
  it('serves a value for the TTL, then reads again', async () => {
    let t = 0;
    let reads = 0;
    const cache = createReadCache<number>({ now: () => t, ttlMs: 2_000 });
    const load = async () => ++reads;
    expect(await cache.get('k', load)).toBe(1);
    t = 1_999;
    expect(await cache.get('k', load)).toBe(1);
    t = 2_000;
    expect(await cache.get('k', load)).toBe(2);
  });

  it('forgets everything on clear, and a read that started before it is not put back', async () => {
    let reads = 0;
    let release!: () => void;
    const cache = createReadCache<number>({ now: () => 0 });
    const slow = cache.get('k', () => new Promise<number>((r) => (release = () => r(++reads))));
    cache.clear();
    const fresh = cache.get('k', async () => 100);
    release();
    expect(await slow).toBe(1);
    expect(await fresh).toBe(100);
    expect(await cache.get('k', async () => 200)).toBe(100);
  });

  it('forgets one key on delete and keeps the others', async () => {
    let reads = 0;
    const cache = createReadCache<number>({ now: () => 0 });
    const load = async () => ++reads;
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('b', load)).toBe(2);
    cache.delete('a');
    expect(await cache.get('a', load)).toBe(3);
    expect(await cache.get('b', load)).toBe(2);
  });

  it('shares one read between concurrent misses and does not keep a failed one', async () => {
    let reads = 0;
    const cache = createReadCache<number>({ now: () => 0 });
    const failing = async () => {
      reads++;
      throw new Error('down');
    };
    const both = await Promise.allSettled([cache.get('k', failing), cache.get('k', failing)]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(reads).toBe(1);
    await Promise.resolve();
    expect(await cache.get('k', async () => 7)).toBe(7);
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const cache = createReadCache<string>({ now: () => 0, maxEntries: 2 });
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => k);
    expect(cache.size).toBe(2);
    expect(await cache.get('a', async () => 'again')).toBe('again');
    expect(await cache.get('c', async () => 'again')).toBe('c');
  });
});

import { describe, expect, it } from 'vitest';
import { validate, version } from 'uuid';
import { newId } from './ids';

describe('newId', () => {
  it('makes valid, distinct UUIDv7s that sort in the order they were made, across many pool refills', () => {
    // 20,000 ids use the 4 KiB random pool 78 times over and many share a millisecond.
    const ids = Array.from({ length: 20_000 }, () => newId());
    for (const id of ids.slice(0, 300)) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
      expect(id[19]).toMatch(/[89ab]/); // RFC 9562 variant bits
    }
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
  });

  it('carries the current time in its first 48 bits', () => {
    const before = Date.now();
    const id = newId();
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 1);
  });
});

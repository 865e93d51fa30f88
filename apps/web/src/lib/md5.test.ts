import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword } from './md5';

describe('hashPassword (product §5)', () => {
  it('returns the lower-case MD5 hex digest', async () => {
    expect(await hashPassword('password')).toBe('5f4dcc3b5aa765d61d8327deb882cf99');
    const text = 'Coffer#2026 ünïcode';
    expect(await hashPassword(text)).toBe(createHash('md5').update(text, 'utf8').digest('hex'));
  });

  it("rejects an empty or non-string password with 'Invalid password: must be a non-empty string'", async () => {
    for (const bad of ['', undefined, null, 42]) {
      await expect(hashPassword(bad)).rejects.toThrow('Invalid password: must be a non-empty string');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { TOKEN_LENGTH, TOKEN_PREFIX } from './token-scopes';
import { TokenCreateRequestSchema } from './tokens';

const digest = '0123456789abcdef0123456789abcdef';

describe('TokenCreateRequestSchema', () => {
  it('trims the name, orders the scopes as the table and drops repeats', () => {
    const out = TokenCreateRequestSchema.parse({
      name: '  CI  ',
      scopes: ['orders:read', 'account:read', 'orders:read'],
      expires_in_days: 90,
      password: digest,
    });
    expect(out).toMatchObject({ name: 'CI', scopes: ['account:read', 'orders:read'], expires_in_days: 90 });
  });

  it('refuses an unknown scope, no scope, an expiry not offered (no "never") and a long name', () => {
    const base = { name: 'x', scopes: ['orders:read'], expires_in_days: 30 };
    for (const bad of [
      { ...base, scopes: ['wallet:write'] },
      { ...base, scopes: [] },
      { ...base, expires_in_days: 0 },
      { ...base, expires_in_days: null },
      { ...base, expires_in_days: 31 },
      { ...base, name: 'n'.repeat(101) },
    ]) {
      expect(TokenCreateRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('spells the token length from its parts', () => {
    expect(TOKEN_LENGTH).toBe(TOKEN_PREFIX.length + 36);
  });
});

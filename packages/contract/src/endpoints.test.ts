import { describe, expect, it } from 'vitest';
import { ENDPOINT_SCHEMAS } from './endpoint-schemas';
import { ENDPOINT_KEYS, ENDPOINTS, endpointPath } from './endpoints';
import { MIN_PART_BYTES } from './constants';
import { MAX_UPLOAD_PARTS, partSizeFor } from './upload-rules';
import { TOKEN_SCOPE_KEYS, TOKEN_SCOPES } from './token-scopes';
import { ERROR_TABLE } from './envelope-codes';

const MiB = 1024 * 1024;

describe('endpoint table', () => {
  it('has the same keys in both halves', () => {
    expect(Object.keys(ENDPOINT_SCHEMAS).sort()).toEqual([...ENDPOINT_KEYS].sort());
  });

  it('uses camelCase operationIds and gives every path to one call only', () => {
    const seen = new Map<string, string>();
    for (const key of ENDPOINT_KEYS) {
      expect(key).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      for (const path of ENDPOINTS[key].paths) {
        expect(seen.get(path), path).toBeUndefined();
        seen.set(path, key);
      }
    }
  });

  it('answers collection calls on both spellings and the web calls the first', () => {
    expect(ENDPOINTS.collectionBuy.paths).toEqual(['/sl/v1/collection/buy', '/api/sl/v1/collection/buy']);
    expect(endpointPath('collectionBuy')).toBe('/sl/v1/collection/buy');
    expect(endpointPath('getMe')).toBe('/api/uc/v1/account/get/me');
    expect(endpointPath('publicConfig')).toBe('/api/uc/v1/config');
  });
});

describe('token scopes (ADR 0059)', () => {
  it('every call declares a scope: a known one, or null; public calls read no credential and carry null', () => {
    for (const key of ENDPOINT_KEYS) {
      const row = ENDPOINTS[key];
      expect(Object.hasOwn(row, 'scope'), key).toBe(true);
      if (row.scope !== null) expect(TOKEN_SCOPE_KEYS, key).toContain(row.scope);
      if (row.auth === 'none') expect(row.scope, key).toBeNull();
    }
  });

  it('keeps cash-out, token management, password, email, two-factor, sessions and account changes session only', () => {
    const sessionOnly = ENDPOINT_KEYS.filter((k) => ENDPOINTS[k].auth !== 'none' && ENDPOINTS[k].scope === null);
    for (const key of ENDPOINT_KEYS) {
      const path = ENDPOINTS[key].paths[0];
      if (ENDPOINTS[key].auth !== 'none' && /^\/api\/uc\/v1\/account\/(withdraw|token|password|2fa|session|delete|change|logout|avatar|notifications)(\/|$)/.test(path)) {
        expect(sessionOnly, key).toContain(key);
      }
    }
    expect(sessionOnly).toEqual(
      expect.arrayContaining(['withdrawCreate', 'withdrawConfirm', 'tokenCreate', 'tokenList', 'tokenRevoke', 'accountDelete']),
    );
  });

  it('gives every scope to at least one call, read scopes only to calls that change nothing', () => {
    const used = new Set(ENDPOINT_KEYS.map((k) => ENDPOINTS[k].scope).filter(Boolean));
    expect([...used].sort()).toEqual([...TOKEN_SCOPE_KEYS].sort());
    for (const key of ENDPOINT_KEYS) {
      const row = ENDPOINTS[key];
      if (row.scope?.endsWith(':read')) expect('idempotent' in row, key).toBe(false);
    }
    for (const scope of TOKEN_SCOPE_KEYS) expect(TOKEN_SCOPES[scope].length, scope).toBeGreaterThan(10);
  });

  it('answers a missing scope with INSUFFICIENT_SCOPE, 403, a code of its own', () => {
    expect(ERROR_TABLE.INSUFFICIENT_SCOPE).toEqual({ code: 10018, status: 403 });
    const codes = Object.values(ERROR_TABLE).map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('partSizeFor', () => {
  it('is 5 MiB up to 10,000 such parts, then the next whole MiB', () => {
    expect(partSizeFor(0)).toBe(MIN_PART_BYTES);
    expect(partSizeFor(1024 * MiB)).toBe(5 * MiB);
    expect(partSizeFor(5 * MiB * MAX_UPLOAD_PARTS)).toBe(5 * MiB);
    expect(partSizeFor(5 * MiB * MAX_UPLOAD_PARTS + 1)).toBe(6 * MiB);
    expect(partSizeFor(100 * 1024 * MiB)).toBe(11 * MiB);
  });

  it('never needs more than MAX_UPLOAD_PARTS parts', () => {
    for (const size of [1, 52_428_800_001, 1024 ** 4, 3 * 1024 ** 4 + 7]) {
      expect(Math.ceil(size / partSizeFor(size))).toBeLessThanOrEqual(MAX_UPLOAD_PARTS);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { ENDPOINT_SCHEMAS } from './endpoint-schemas';
import { ENDPOINT_KEYS, ENDPOINTS, endpointPath } from './endpoints';
import { MIN_PART_BYTES } from './constants';
import { MAX_UPLOAD_PARTS, partSizeFor } from './upload-rules';

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

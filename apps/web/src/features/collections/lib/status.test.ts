/** product §4 "Collection status": Created is the default when the value is unknown, including names of Object.prototype. */
import { CollectionStatus } from '@coffer/contract/constants';
import { describe, expect, it } from 'vitest';
import { collectionStatusMeta } from './status';

describe('collectionStatusMeta', () => {
  it('gives each of the five statuses its own badge', () => {
    for (const status of Object.values(CollectionStatus)) {
      expect(collectionStatusMeta(status)).toMatchObject({ status, label: status });
    }
    expect(collectionStatusMeta('Published').tone).toBe('green');
  });

  it('reads unknown values as Created, including inherited property names', () => {
    for (const odd of [
      'toString',
      'constructor',
      '__proto__',
      'hasOwnProperty',
      'valueOf',
      'Whatever',
      '',
      null,
      undefined,
      42,
      {},
    ]) {
      const meta = collectionStatusMeta(odd);
      expect(meta, String(odd)).toMatchObject({ status: 'Created', label: 'Created', tone: 'slate' });
      expect(typeof meta.icon, String(odd)).not.toBe('undefined');
    }
  });
});

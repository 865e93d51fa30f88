/**
 * `npm run reserves:publish` end to end: on a PGlite data directory the script prints the root, the
 * total, the user count and the reserves, exits 0, and the app then serves that publication; it
 * exits 1 when a reserve address cannot be read, and 2 on a bad RESERVE_ADDRESSES.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, onPostgres } from '../test/harness';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');

function publish(dataDir: string, reserves: string) {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, RESERVE_ADDRESSES: reserves };
  const res = spawnSync(tsx, ['src/scripts/reserves-publish.ts'], { cwd: serverDir, env, encoding: 'utf8' });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

describe('reserves:publish script', () => {
  // PGlite whatever DATABASE_URL says: the PostgreSQL pass (.ci/run) skips it, as it would repeat the PGlite pass's run.
  it.skipIf(onPostgres)('publishes and prints root, total, users and reserves; exits 1 on an unreadable reserve, 2 on bad config', async () => {
    const t = await createTestApp({ DATABASE_URL: '' });
    const a = await createUser(t);
    const b = await createUser(t);
    await fund(t, a.id, '12.34');
    await fund(t, b.id, '0.66');
    const dataDir = t.dataDir;
    await t.close();

    const bad = publish(dataDir, 'TRX-usdttrc20');
    expect(bad.out).toContain('RESERVE_ADDRESSES');
    expect(bad.code).toBe(2);

    const ok = publish(dataDir, 'TRX:usdttrc20:TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
    expect(ok.out).toMatch(/root [0-9a-f]{64}/);
    expect(ok.out).toContain('total 13.00 points over 2 users');
    expect(ok.out).toContain('reserve TRX:usdttrc20:TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE 0 (0.00 USD)');
    expect(ok.code).toBe(0);

    const failed = publish(dataDir, 'ETH:nosuch:0x01');
    expect(failed.out).toContain('reserve ETH:nosuch:0x01 FAILED');
    expect(failed.code).toBe(1);

    // The app serves the newest publication (the one with the failed read).
    const again = await createTestApp({ DATABASE_URL: '', DATA_DIR: dataDir });
    try {
      const latest = await again.call('/api/uc/v1/reserves/latest', {});
      expect(latest.body.data.publication).toMatchObject({ total: '13.00', user_count: 2 });
      expect(latest.body.data.publication.reserves[0]).toMatchObject({ address: '0x01', balance: null });
      const root = /root ([0-9a-f]{64})/.exec(ok.out)![1];
      // A fresh salt and order per publication: the same balances give another root.
      expect(latest.body.data.publication.root_hash).not.toBe(root);
    } finally {
      await again.close();
    }
    // PGlite start-ups from disk in child processes: slow on a busy machine, so a generous limit.
  }, 300_000);
});

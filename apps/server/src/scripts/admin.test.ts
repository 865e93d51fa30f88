/**
 * `npm run admin`: the commands through {@link runAdmin} against the app's moderation service, and
 * the script itself spawned on a PGlite data directory (the configured database, as in production).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyAndPay, ok, publishedCollection } from '../modules/collections/collections.fixtures';
import { createTestApp, createUser, fund, onPostgres, type TestApp } from '../test/harness';
import { runAdmin } from './admin-commands';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, t.app.ctx.services.moderation, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('admin commands', () => {
  it('lists open reports, hides with the report resolved, unhides, and shows the audit log', async () => {
    const seller = await createUser(t);
    const reporter = await createUser(t);
    const c = await publishedCollection(t, seller, 5, 'Reported pack');
    const sent = await ok(
      t,
      '/sl/v1/collection/report',
      { collection_id: c.id, reason: 'copyright', details: 'my photos' },
      reporter.token,
    );

    const listed = await admin('reports');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(sent.report_id);
    expect(listed.out).toContain(`copyright  collection ${c.id} "Reported pack"  by ${reporter.username}`);
    expect(listed.out).toContain('my photos');

    const hidden = await admin('hide', c.id, '--reason', 'DMCA 7', '--by', 'ana', '--remove-files', '--report', sent.report_id);
    expect(hidden).toMatchObject({ code: 0, err: '' });
    expect(hidden.out).toContain(`collection.hide collection:${c.id} by ana`);
    expect(hidden.out).toContain('the stored files are kept');
    expect((await admin('reports')).out).not.toContain(sent.report_id);
    expect((await admin('reports', '--all')).out).toMatch(new RegExp(`${sent.report_id}.*resolved[\\s\\S]*resolved by ana`));

    expect((await admin('unhide', c.id, '--reason', 'counter-notice', '--by', 'ana')).code).toBe(0);
    const audit = await admin('audit', '--limit', '5');
    expect(audit.out).toMatch(/ana {2}collection\.unhide {2}collection:\S+ {2}counter-notice/);
    expect(audit.out).toContain('"remove_files":true');
  });

  it('suspends and lifts by username, and resolves or dismisses reports', async () => {
    const user = await createUser(t);
    await fund(t, user.id, '1');
    expect((await admin('suspend', user.username, '--reason', 'fraud', '--by', 'ana')).out).toContain(
      `user.suspend user:${user.id}`,
    );
    expect((await admin('unsuspend', user.email, '--reason', 'appeal', '--by', 'ana')).code).toBe(0);

    const seller = await createUser(t);
    const buyer = await createUser(t);
    const c = await publishedCollection(t, seller, 1, 'Another');
    await fund(t, buyer.id, '10');
    await buyAndPay(t, buyer, c.id);
    const sent = await ok(t, '/sl/v1/collection/report', { collection_id: c.id, reason: 'spam' }, buyer.token);
    const dismissed = await admin('report', 'dismiss', sent.report_id, '--reason', 'not spam', '--by', 'ana');
    expect(dismissed.out).toContain(`report.dismiss report:${sent.report_id}`);
    const again = await admin('report', 'resolve', sent.report_id, '--reason', 'x', '--by', 'ana');
    expect(again).toMatchObject({ code: 1 });
    expect(again.err).toContain(`Refused: Report ${sent.report_id} is already dismissed`);
  });

  it('exits 1 with the usage on bad arguments and with the reason on refusals', async () => {
    expect((await admin()).code).toBe(1);
    expect((await admin('help')).code).toBe(0);
    const unknown = await admin('explode');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('Unknown command "explode"');
    expect(unknown.err).toContain('Usage: npm run admin');
    const badFlag = await admin('reports', '--colour');
    expect(badFlag.code).toBe(1);
    expect(badFlag.err).toContain("Unknown option '--colour'");
    expect((await admin('audit', '--limit', 'many')).err).toContain('--limit must be a whole number');
    const noBy = await admin('hide', 'whatever', '--reason', 'x');
    expect([noBy.code, noBy.err]).toEqual([1, 'Refused: Say who you are: --by <operator>']);
    expect((await admin('hide', 'no-such-id', '--reason', 'x', '--by', 'ana')).err).toBe('Refused: No collection no-such-id');
    expect((await admin('suspend', '--reason', 'x', '--by', 'ana')).err).toContain('Give exactly one user');
  });
});

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');

describe("disputes ('This wasn't me')", () => {
  const disputes = async () => ({
    refunds: t.app.ctx.services.refunds,
    revokeAllSessions: (userId: string) => t.app.ctx.services.sessions.revokeAllSessions(userId),
  });
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, t.app.ctx.services.moderation, { out: (l) => out.push(l), err: (l) => err.push(l) }, disputes);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('lists a reported purchase, reverses it from pending and signs the buyer out everywhere', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    const c = await publishedCollection(t, seller, 25, 'Stolen token');
    await fund(t, buyer.id, '25');
    const paid = (await buyAndPay(t, buyer, c.id)).body.data as { id: string };
    await ok(t, '/api/uc/v1/account/order/report', { order_id: paid.id, details: 'I never bought this' }, buyer.token);

    const listed = await run('disputes');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(paid.id);
    expect(listed.out).toContain('I never bought this');
    expect((await run('dispute', 'reverse', paid.id, '--reason', 'token stolen')).code).toBe(1); // --by is required

    const reversed = await run('dispute', 'reverse', paid.id, '--reason', 'token stolen', '--by', 'ana', '--revoke-sessions');
    expect(reversed.code).toBe(0);
    expect(reversed.out).toMatch(/reversed order .* 25 points back to the buyer/);
    expect(reversed.out).toMatch(/revoked [1-9]\d* session\(s\)/);
    expect(await t.app.ctx.services.ledger.balances(buyer.id)).toMatchObject({ available: 2500n });
    expect(await t.app.ctx.services.ledger.balances(seller.id)).toMatchObject({ available: 0n, pending: 0n });
    expect((await t.call('/api/uc/v1/account/get/me', {}, buyer.token)).body.reason).toBe('UNAUTHORIZED');
    expect((await run('disputes')).out).not.toContain(paid.id);
    // A second reversal is refused: the dispute is closed.
    expect((await run('dispute', 'dismiss', paid.id, '--reason', 'x', '--by', 'ana')).code).toBe(1);
  });
});

describe('npm run admin (the script)', () => {
  // PGlite whatever DATABASE_URL says: the PostgreSQL pass (.ci/run) skips it, as it would repeat the PGlite pass's run.
  it.skipIf(onPostgres)('runs against the configured database and exits 0, 1 or 2', async () => {
    const app = await createTestApp({ DATABASE_URL: '' });
    const seller = await createUser(app);
    const reporter = await createUser(app);
    const c = await publishedCollection(app, seller, 5, 'Script pack');
    await ok(app, '/sl/v1/collection/report', { collection_id: c.id, reason: 'illegal' }, reporter.token);
    const dataDir = app.dataDir;
    // While the server holds its built-in database, the script refuses to open it (PGlite is one process).
    const beside = spawnSync(tsx, ['src/scripts/admin.ts', 'reports'], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(`${beside.stdout}${beside.stderr}`).toContain(`is open in another process (pid ${process.pid}, e.g. a running server)`);
    expect(beside.status).toBe(2);
    await app.close();

    const run = (...args: string[]) => {
      const env: Record<string, string> = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir };
      const res = spawnSync(tsx, ['src/scripts/admin.ts', ...args], { cwd: serverDir, env, encoding: 'utf8' });
      return { code: res.status, out: `${res.stdout}${res.stderr}` };
    };
    const hidden = run('hide', c.id, '--reason', 'court order', '--by', 'ana');
    expect(hidden.out).toContain(`collection.hide collection:${c.id} by ana`);
    expect(hidden.code).toBe(0);
    const refused = run('unsuspend', seller.username, '--reason', 'x', '--by', 'ana');
    expect(refused.out).toContain(`Refused: User ${seller.username} is not suspended`);
    expect(refused.code).toBe(1);
    const broken = spawnSync(tsx, ['src/scripts/admin.ts', 'reports'], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: 'not-a-port' },
      encoding: 'utf8',
    });
    expect(broken.status).toBe(2);
    // PGlite start-ups from disk in child processes: slow on a busy machine.
  }, 240_000);
});

/**
 * Personal access tokens on two instances of the app sharing one PostgreSQL database (ADR 0058):
 * a token cached on one instance stops there at once when the other revokes it or Coffer suspends
 * its user, through the revocation bus (Redis pub/sub, then PostgreSQL LISTEN/NOTIFY without
 * Redis). The clocks are frozen, so the 5 s cache alone would trust the token for ever: only the
 * bus can make the second instance refuse it.
 *
 * PostgreSQL only (PGlite belongs to one process): skipped, with a message, without DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, md5, onPostgres, PASSWORD, type TestApp, type TestUser } from '../../test/harness';

if (!onPostgres) console.warn('tokens.pg.test.ts: skipped — two instances need a shared PostgreSQL database (set DATABASE_URL)');

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const uc = (p: string) => `/api/uc/v1/account${p}`;

/** Polls `probe` (every 20 ms, up to 10 s) until it answers true. */
async function until(probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not reached within 10 s');
}

async function tokenOf(app: TestApp, user: TestUser): Promise<{ id: string; token: string }> {
  const res = await app.call(
    uc('/token/create'),
    { name: 'two instances', scopes: ['account:read'], expires_in_days: 7, password: md5(PASSWORD) },
    user.token,
  );
  expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
  return res.body.data;
}

for (const redis of [true, false]) {
  describe.skipIf(!onPostgres)(`two instances, ${redis ? 'Redis pub/sub' : 'PostgreSQL LISTEN/NOTIFY'}: tokens`, () => {
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      const env: Record<string, string> = redis
        ? { REDIS_URL, REDIS_KEY_PREFIX: `coffer-test-${randomBytes(6).toString('hex')}:` }
        : {};
      a = await createTestApp(env);
      b = await createTestApp(env);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('a suspension on one instance stops the token cached on the other', async () => {
      const user = await createUser(a);
      const { token } = await tokenOf(a, user);
      expect((await b.call(uc('/get/me'), {}, token)).body.code).toBe(10000);
      expect((await b.call(uc('/get/me'), {}, token)).body.code).toBe(10000); // served from b's cache
      await a.app.ctx.services.moderation.suspend(user.id, { by: 'ops', reason: 'Fraud' });
      await until(async () => (await b.call(uc('/get/me'), {}, token)).status === 401);
      expect((await a.call(uc('/get/me'), {}, token)).status).toBe(401);
    });

    it('token/revoke on one instance stops the token cached on the other', async () => {
      const user = await createUser(a);
      const { id, token } = await tokenOf(a, user);
      expect((await b.call(uc('/get/me'), {}, token)).body.code).toBe(10000);
      expect((await a.call(uc('/token/revoke'), { token_id: id }, user.token)).body.code).toBe(10000);
      await until(async () => (await b.call(uc('/get/me'), {}, token)).status === 401);
      // The session that revoked it still works on both.
      expect((await b.call(uc('/get/me'), {}, user.token)).body.code).toBe(10000);
    });
  });
}

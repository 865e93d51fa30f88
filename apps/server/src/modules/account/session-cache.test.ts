import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../env';
import { ManualClock } from '../../lib/clock';
import { createTestApp, createUser, md5, PASSWORD } from '../../test/harness';
import { createSessionCache, SESSION_CACHE_TTL_MS } from './session-cache';

describe('session cache', () => {
  const session = { userId: 'u1', sessionId: 's1', steppedUpAt: null };

  it('trusts an entry for the TTL only, and never past the session expiry', () => {
    const clock = new ManualClock(1_000_000);
    const cache = createSessionCache({ now: () => clock.now(), ttlMs: 5_000 });
    cache.set('h1', { ...session, expiresAt: 1_003_000 });
    expect(cache.get('h1')).toEqual(session);
    clock.advance(2_999);
    expect(cache.get('h1')).toEqual(session);
    clock.advance(1);
    expect(cache.get('h1')).toBeNull();

    cache.set('h2', { ...session, expiresAt: 9_000_000 });
    clock.advance(4_999);
    expect(cache.get('h2')).toEqual(session);
    clock.advance(1);
    expect(cache.get('h2')).toBeNull();
  });

  it('distrusts entries when the clock moved back', () => {
    const clock = new ManualClock(1_000_000);
    const cache = createSessionCache({ now: () => clock.now() });
    cache.set('h', { ...session, expiresAt: 9_000_000 });
    clock.set(999_000);
    expect(cache.get('h')).toBeNull();
  });

  it('drops by session and by user, and keeps at most maxEntries', () => {
    const clock = new ManualClock(0);
    const cache = createSessionCache({ now: () => clock.now(), maxEntries: 2 });
    cache.set('a', { userId: 'u1', sessionId: 's1', expiresAt: 1e12 });
    cache.set('b', { userId: 'u1', sessionId: 's2', expiresAt: 1e12 });
    cache.set('c', { userId: 'u2', sessionId: 's3', expiresAt: 1e12 });
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeNull();
    cache.dropSession('s3');
    expect(cache.get('c')).toBeNull();
    expect(cache.get('b')).not.toBeNull();
    cache.dropUser('u1');
    expect(cache.get('b')).toBeNull();
  });
});

describe('sessions across two instances on one database', () => {
  it(`accept a token revoked elsewhere for at most ${SESSION_CACHE_TTL_MS} ms (the revocation delay)`, async () => {
    const t = await createTestApp();
    const clockB = new ManualClock(t.clock.now());
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: t.dataDir,
      LOG_LEVEL: 'silent',
      WORKERS: 'false',
      SERVE_WEB: 'false',
    });
    const b = await buildApp({ config, clock: clockB, database: t.app.ctx.database, logger: false });
    try {
      const user = await createUser(t);
      const meOnB = async () =>
        (
          await b.inject({
            method: 'POST',
            url: '/api/uc/v1/account/get/me',
            headers: { authorization: `Bearer ${user.token}` },
            payload: {},
          })
        ).json();

      expect((await meOnB()).code).toBe(10000);
      // Logged out on instance A: A refuses at once...
      expect((await t.call('/api/uc/v1/account/logout', {}, user.token)).body.code).toBe(10000);
      expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.reason).toBe('UNAUTHORIZED');
      // ...B, which read the session a moment ago, until its cache entry ages out.
      clockB.advance(SESSION_CACHE_TTL_MS - 1);
      expect((await meOnB()).code).toBe(10000);
      clockB.advance(1);
      expect((await meOnB()).reason).toBe('UNAUTHORIZED');

      // The instance that changes the password drops its cached sessions at once.
      const again = await createUser(t);
      const login = (
        await b.inject({
          method: 'POST',
          url: '/api/uc/v1/account/login',
          payload: { account: again.username, password: md5(PASSWORD) },
        })
      ).json();
      const token = login.data.access_token as string;
      const me = () =>
        b.inject({
          method: 'POST',
          url: '/api/uc/v1/account/get/me',
          headers: { authorization: `Bearer ${token}` },
          payload: {},
        });
      expect((await me()).json().code).toBe(10000);
      const changed = await b.inject({
        method: 'POST',
        url: '/api/uc/v1/account/password/change',
        headers: { authorization: `Bearer ${token}` },
        payload: { password_old: md5(PASSWORD), password_new: md5('Newer#5678') },
      });
      expect(changed.json().code).toBe(10000);
      expect((await me()).json().reason).toBe('UNAUTHORIZED');
    } finally {
      await b.close();
      await t.close();
    }
  });
});

/**
 * Personal access tokens through the real app (docs/decisions/0058, 0059, docs/api.md "Personal
 * access tokens"): create, list and revoke on a signed-in session with re-authentication; the token
 * shown once and stored hashed; the checksum; expiry; scopes on a read and a write call; calls that
 * take a session only; suspension; `last_used_at` written at most once a minute; idempotency keys.
 */
import { createHash, randomUUID } from 'node:crypto';
import { MAX_LIVE_TOKENS, TOKEN_PREFIX } from '@coffer/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokens } from '../../db/schema/index';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp, type TestUser } from '../../test/harness';
import { publishedCollection } from '../collections/collections.fixtures';
import { SESSION_CACHE_TTL_MS } from '../account/session-cache';
import { totpCode } from '../account/two-factor';
import { base62Checksum, isWellFormedAccessToken, newAccessToken } from './token-format';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const uc = (p: string) => `/api/uc/v1/account${p}`;
const db = () => t.app.ctx.database.db;
const rowOf = async (id: string) => (await db().select().from(accessTokens).where(eq(accessTokens.id, id)))[0]!;

/** Creates a token for `user` with its password; @returns the answer's data. */
async function create(user: TestUser, scopes: string[], extra: Record<string, unknown> = {}) {
  const res = await t.call(
    uc('/token/create'),
    { name: 'CI export', scopes, expires_in_days: 30, password: md5(PASSWORD), ...extra },
    user.token,
  );
  expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
  return res.body.data as {
    id: string;
    token: string;
    name: string;
    scopes: string[];
    expires_at: number;
    created_at: number;
    last_used_at: number | null;
  };
}

/** Moves the clock past the token cache, so the next call reads the database again. */
const pastCache = () => t.clock.advance(SESSION_CACHE_TTL_MS + 1);

describe('token format', () => {
  it('is coffer_pat_ + 30 base62 + a 6-character CRC-32 checksum, and a typo fails the checksum', () => {
    const token = newAccessToken();
    expect(token).toMatch(/^coffer_pat_[0-9A-Za-z]{36}$/);
    expect(isWellFormedAccessToken(token)).toBe(true);
    const i = TOKEN_PREFIX.length + 5;
    const typo = token.slice(0, i) + (token[i] === 'a' ? 'b' : 'a') + token.slice(i + 1);
    expect(isWellFormedAccessToken(typo)).toBe(false);
    expect(isWellFormedAccessToken(token.slice(0, -1))).toBe(false);
    expect(base62Checksum(0)).toBe('000000');
    expect(base62Checksum(0xffffffff)).toBe('4gfFC3');
  });
});

describe('token/create, token/list, token/revoke', () => {
  it('creates a token after the password, shows it once and stores only its SHA-256', async () => {
    const user = await createUser(t);
    const created = await create(user, ['orders:read', 'collections:read']);
    expect(created.token.startsWith(TOKEN_PREFIX)).toBe(true);
    expect(created.scopes).toEqual(['collections:read', 'orders:read']);
    expect(created.expires_at - created.created_at).toBe(30 * 86_400_000);
    expect(created.last_used_at).toBeNull();

    const row = await rowOf(created.id);
    expect(row.tokenHash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(TOKEN_PREFIX.length));

    const list = await t.call(uc('/token/list'), {}, user.token);
    expect(list.body.data.tokens).toEqual([
      {
        id: created.id,
        name: 'CI export',
        scopes: ['collections:read', 'orders:read'],
        created_at: created.created_at,
        last_used_at: null,
        expires_at: created.expires_at,
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(created.token);
    // The new token works at once.
    expect((await t.call('/sl/v1/my/orders', {}, created.token)).body.code).toBe(10000);
  });

  it('asks for the password (STEP_UP_REQUIRED) and refuses a wrong one, creating nothing', async () => {
    const user = await createUser(t);
    const body = { name: 'x', scopes: ['orders:read'], expires_in_days: 7 };
    const none = await t.call(uc('/token/create'), body, user.token);
    expect(none.status).toBe(403);
    expect(none.body).toMatchObject({ reason: 'STEP_UP_REQUIRED', data: { method: 'password' } });
    const wrong = await t.call(uc('/token/create'), { ...body, password: md5('Wrong#1234') }, user.token);
    expect(wrong.body.reason).toBe('INVALID_CREDENTIALS');
    expect((await t.call(uc('/token/list'), {}, user.token)).body.data.tokens).toEqual([]);
  });

  it('asks for a two-factor code when two-factor sign-in is on', async () => {
    const user = await createUser(t);
    const secret = (await t.call(uc('/2fa/setup'), {}, user.token)).body.data.secret as string;
    expect((await t.call(uc('/2fa/enable'), { code: totpCode(secret, t.clock.now()) }, user.token)).body.code).toBe(10000);
    t.clock.advance(30_000);
    const body = { name: 'x', scopes: ['orders:read'], expires_in_days: 7 };
    const passwordOnly = await t.call(uc('/token/create'), { ...body, password: md5(PASSWORD) }, user.token);
    expect(passwordOnly.body).toMatchObject({ reason: 'STEP_UP_REQUIRED', data: { method: 'code' } });
    const withCode = await t.call(uc('/token/create'), { ...body, code: totpCode(secret, t.clock.now()) }, user.token);
    expect(withCode.body.code).toBe(10000);
  });

  it('refuses bad input in the envelope: no scope, an unknown scope, an expiry not offered, an empty name', async () => {
    const user = await createUser(t);
    const base = { name: 'x', scopes: ['orders:read'], expires_in_days: 30, password: md5(PASSWORD) };
    for (const bad of [
      { ...base, scopes: [] },
      { ...base, scopes: ['wallet:write'] },
      { ...base, expires_in_days: 0 },
      { ...base, expires_in_days: 10_000 },
      { ...base, name: '   ' },
    ]) {
      const res = await t.call(uc('/token/create'), bad, user.token);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.reason).toBe('VALIDATION_FAILED');
    }
    expect((await t.call(uc('/token/list'), {}, user.token)).body.data.tokens).toEqual([]);
  });

  it(`holds at most ${MAX_LIVE_TOKENS} live tokens per user`, async () => {
    const user = await createUser(t);
    const now = new Date(t.clock.now());
    await db()
      .insert(accessTokens)
      .values(
        Array.from({ length: MAX_LIVE_TOKENS }, (_, i) => ({
          id: randomUUID(),
          userId: user.id,
          name: `t${i}`,
          tokenHash: `seed-${user.id}-${i}`,
          scopes: ['orders:read'],
          createdAt: now,
          expiresAt: new Date(now.getTime() + 86_400_000),
        })),
      );
    const over = await t.call(
      uc('/token/create'),
      { name: 'one more', scopes: ['orders:read'], expires_in_days: 7, password: md5(PASSWORD) },
      user.token,
    );
    expect(over.status).toBe(409);
    expect(over.body.reason).toBe('CONFLICT');
    const first = (await t.call(uc('/token/list'), {}, user.token)).body.data.tokens[0];
    expect((await t.call(uc('/token/revoke'), { token_id: first.id }, user.token)).body.code).toBe(10000);
    await create(user, ['orders:read']);
  });

  it('revokes a token: 401 at once, gone from the list; another user cannot revoke it', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const created = await create(user, ['orders:read']);
    expect((await t.call('/sl/v1/my/orders', {}, created.token)).body.code).toBe(10000);
    const foreign = await t.call(uc('/token/revoke'), { token_id: created.id }, other.token);
    expect(foreign.body.reason).toBe('NOT_FOUND');
    expect((await t.call('/sl/v1/my/orders', {}, created.token)).body.code).toBe(10000);

    expect((await t.call(uc('/token/revoke'), { token_id: created.id }, user.token)).body.code).toBe(10000);
    const after = await t.call('/sl/v1/my/orders', {}, created.token);
    expect(after.status).toBe(401);
    expect(after.body.reason).toBe('UNAUTHORIZED');
    expect((await t.call(uc('/token/list'), {}, user.token)).body.data.tokens).toEqual([]);
    expect((await t.call(uc('/token/revoke'), { token_id: created.id }, user.token)).body.reason).toBe('NOT_FOUND');
  });
});

describe('a token as bearer', () => {
  it('refuses a mistyped, unknown or expired token with 401 like a bad session', async () => {
    const user = await createUser(t);
    const created = await create(user, ['orders:read'], { expires_in_days: 7 });
    const i = TOKEN_PREFIX.length + 3;
    const typo = created.token.slice(0, i) + (created.token[i] === 'Z' ? 'Y' : 'Z') + created.token.slice(i + 1);
    for (const bad of [typo, newAccessToken()]) {
      const res = await t.call('/sl/v1/my/orders', {}, bad);
      expect(res.status).toBe(401);
      expect(res.body.reason).toBe('UNAUTHORIZED');
    }
    t.clock.advance(7 * 86_400_000 + 1);
    const expired = await t.call('/sl/v1/my/orders', {}, created.token);
    expect(expired.status).toBe(401);
    expect((await t.call(uc('/token/list'), {}, user.token)).status).toBe(401); // the session expired too (7 days)
  });

  it('needs the scope: a read and a write call answer 403 INSUFFICIENT_SCOPE naming it, and work with it', async () => {
    const user = await createUser(t);
    const reader = await create(user, ['collections:read']);
    const writer = await create(user, ['collections:write', 'orders:read']);

    const noRead = await t.call('/sl/v1/my/orders', {}, reader.token);
    expect(noRead.status).toBe(403);
    expect(noRead.body).toMatchObject({ code: 10018, reason: 'INSUFFICIENT_SCOPE', data: { scope: 'orders:read' } });
    expect(noRead.body.msg).toContain('orders:read');
    expect((await t.call('/sl/v1/my/orders', {}, writer.token)).body.code).toBe(10000);

    const body = { title: 'By token', desc: 'Made with an access token', amount: 5 };
    const noWrite = await t.call('/sl/v1/collection/create', body, reader.token);
    expect(noWrite.status).toBe(403);
    expect(noWrite.body).toMatchObject({ reason: 'INSUFFICIENT_SCOPE', data: { scope: 'collections:write' } });
    expect((await t.call('/sl/v1/my/collections', {}, reader.token)).body.data.collections).toEqual([]);

    const made = await t.call('/sl/v1/collection/create', body, writer.token);
    expect(made.body.code).toBe(10000);
    const mine = await t.call('/sl/v1/my/collections', {}, reader.token);
    expect(mine.body.data.collections.map((c: { id: string }) => c.id)).toEqual([made.body.data.id]);
  });

  it('is refused on calls that take a session only: cash-out, token management, password, deletion', async () => {
    const user = await createUser(t);
    const all = await create(user, [
      'account:read',
      'wallet:read',
      'collections:read',
      'collections:write',
      'orders:read',
      'orders:write',
      'sales:read',
      'sales:write',
      'events:read',
      'webhooks:read',
      'webhooks:write',
    ]);
    const calls: [string, unknown][] = [
      [uc('/withdraw/create'), { user_id: user.id, currency: 'usdttrc20', amount: '10', address: 'TXYZ', network: 'TRX' }],
      [uc('/withdraw/confirm'), { bill_id: randomUUID(), password: md5(PASSWORD) }],
      [uc('/token/create'), { name: 'child', scopes: ['orders:read'], expires_in_days: 7, password: md5(PASSWORD) }],
      [uc('/token/list'), {}],
      [uc('/token/revoke'), { token_id: all.id }],
      [uc('/password/change'), { password_old: md5(PASSWORD), password_new: md5('Other#1234') }],
      [uc('/delete'), { password: md5(PASSWORD) }],
      [uc('/logout'), {}],
    ];
    for (const [url, body] of calls) {
      const res = await t.call(url, body, all.token);
      expect(res.status, url).toBe(403);
      expect(res.body, url).toMatchObject({ reason: 'INSUFFICIENT_SCOPE', data: { scope: null } });
    }
    // Nothing happened: the token and the account still work, one token only.
    expect((await t.call(uc('/get/me'), {}, all.token)).body.code).toBe(10000);
    expect((await t.call(uc('/token/list'), {}, user.token)).body.data.tokens).toHaveLength(1);
    expect((await t.call(uc('/login'), { account: user.username, password: md5(PASSWORD) })).body.code).toBe(10000);
  });

  it('stops at once when Coffer suspends the user (and stays revoked after the suspension is lifted)', async () => {
    const user = await createUser(t);
    const created = await create(user, ['account:read']);
    expect((await t.call(uc('/get/me'), {}, created.token)).body.code).toBe(10000); // now cached
    await t.app.ctx.services.moderation.suspend(user.id, { by: 'ops', reason: 'Fraud' });
    const res = await t.call(uc('/get/me'), {}, created.token);
    expect(res.status).toBe(401);
    expect((await rowOf(created.id)).revokedAt).not.toBeNull();
    await t.app.ctx.services.moderation.unsuspend(user.id, { by: 'ops', reason: 'Cleared' });
    expect((await t.call(uc('/get/me'), {}, created.token)).status).toBe(401);
  });

  it('survives a password change, and stops when the account is deleted', async () => {
    const user = await createUser(t);
    const created = await create(user, ['account:read']);
    const changed = await t.call(
      uc('/password/change'),
      { password_old: md5(PASSWORD), password_new: md5('Other#1234') },
      user.token,
    );
    expect(changed.body.code).toBe(10000);
    expect((await t.call(uc('/get/me'), {}, created.token)).body.code).toBe(10000);
    const session = changed.body.data.access_token as string;
    expect((await t.call(uc('/delete'), { password: md5('Other#1234') }, session)).body.code).toBe(10000);
    expect((await t.call(uc('/get/me'), {}, created.token)).status).toBe(401);
  });

  it('writes last_used_at at most once a minute per token', async () => {
    const user = await createUser(t);
    const created = await create(user, ['orders:read']);
    const get = () => t.call('/sl/v1/my/orders', {}, created.token);
    expect((await get()).body.code).toBe(10000);
    const first = (await rowOf(created.id)).lastUsedAt!.getTime();
    expect(first).toBe(t.clock.now());
    for (let i = 0; i < 5; i++) {
      pastCache();
      expect((await get()).body.code).toBe(10000);
    }
    expect((await rowOf(created.id)).lastUsedAt!.getTime()).toBe(first);
    t.clock.advance(60_000);
    expect((await get()).body.code).toBe(10000);
    expect((await rowOf(created.id)).lastUsedAt!.getTime()).toBe(t.clock.now());
    const listed = (await t.call(uc('/token/list'), {}, user.token)).body.data.tokens[0];
    expect(listed.last_used_at).toBe(t.clock.now());
  });

  it('pays an order with orders:write only with the proof in the body, every time (no step-up to lean on)', async () => {
    const seller = await createUser(t);
    const buyer = await createUser(t);
    await fund(t, buyer.id, '100');
    const created = await create(buyer, ['orders:write']);
    for (const title of ['First', 'Second']) {
      const c = await publishedCollection(t, seller, 10, title);
      const order = await t.call('/sl/v1/collection/buy', { collection_id: c.id }, created.token);
      expect(order.body.code).toBe(10000);
      const bare = await t.call(uc('/order/pay'), { order_id: order.body.data.id }, created.token);
      expect(bare.body).toMatchObject({ reason: 'STEP_UP_REQUIRED', data: { method: 'password' } });
      const paid = await t.call(uc('/order/pay'), { order_id: order.body.data.id, password: md5(PASSWORD) }, created.token);
      expect(paid.body.code, JSON.stringify(paid.body)).toBe(10000);
    }
  });

  it('honours an Idempotency-Key on a token-authenticated POST, keyed per user', async () => {
    const user = await createUser(t);
    const created = await create(user, ['collections:write', 'collections:read']);
    const key = `pat-${randomUUID()}`;
    const post = async (token: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/sl/v1/collection/create',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': key },
        payload: JSON.stringify({ title: 'Once', desc: 'Created once', amount: 3 }),
      });
      return { body: res.json(), replayed: res.headers['idempotent-replayed'] };
    };
    const first = await post(created.token);
    const again = await post(created.token);
    expect(first.body.code).toBe(10000);
    expect(first.replayed).toBeUndefined();
    expect(again.replayed).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    // The same key from the user's session is the same user's key: answered again, not run twice.
    const bySession = await post(user.token);
    expect(bySession.replayed).toBe('true');
    expect((await t.call('/sl/v1/my/collections', {}, created.token)).body.data.collections).toHaveLength(1);
  });
});

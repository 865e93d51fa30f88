import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index';
import { createTestApp, createUser, fund, md5, PASSWORD, uniq, type TestApp } from '../../test/harness';
import { USER_ROW_CACHE_TTL_MS } from './profile.service';
import { createCredentials } from './credentials';
import { createProfileService } from './profile.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('register', () => {
  it('creates the account and answers data.access_token', async () => {
    const u = uniq();
    const res = await t.call('/api/uc/v1/account/register', {
      username: `reg_${u}`,
      email: `Reg_${u}@Example.com`,
      password: md5(PASSWORD),
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(10000);
    expect(res.body.data.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await t.call('/api/uc/v1/account/get/me', {}, res.body.data.access_token);
    expect(me.body.data).toMatchObject({
      username: `reg_${u}`,
      email: `reg_${u}@example.com`,
      nickname: `reg_${u}`,
      asset: { available: '0.00', freeze: '0.00' },
    });
  });

  it('refuses a taken username or email with CONFLICT', async () => {
    const user = await createUser(t);
    const again = await t.call('/api/uc/v1/account/register', {
      username: user.username.toUpperCase(),
      email: `other_${uniq()}@example.com`,
      password: md5(PASSWORD),
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ reason: 'CONFLICT', msg: 'This username is already taken' });
    const sameEmail = await t.call('/api/uc/v1/account/register', {
      username: `u_${uniq()}`,
      email: user.email,
      password: md5(PASSWORD),
    });
    expect(sameEmail.body).toMatchObject({ reason: 'CONFLICT', msg: 'This email is already registered' });
  });

  it('refuses a clear-text password, naming the rule', async () => {
    const res = await t.call('/api/uc/v1/account/register', {
      username: `u_${uniq()}`,
      email: `${uniq()}@example.com`,
      password: PASSWORD,
    });
    expect(res.status).toBe(400);
    expect(res.body.reason).toBe('VALIDATION_FAILED');
    expect(res.body.msg).toContain('MD5 hex digest');
  });

  it('names the field of a bad username', async () => {
    const res = await t.call('/api/uc/v1/account/register', {
      username: 'a!',
      email: `${uniq()}@example.com`,
      password: md5(PASSWORD),
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Username must be 3-32 letters, digits or underscores');
  });
});

describe('login', () => {
  it('accepts the username or the email', async () => {
    const user = await createUser(t);
    for (const account of [user.username, user.email.toUpperCase()]) {
      const res = await t.call('/api/uc/v1/account/login', { account, password: md5(PASSWORD) });
      expect(res.body.code).toBe(10000);
      expect(typeof res.body.data.access_token).toBe('string');
    }
  });

  it('refuses a wrong password without the UNAUTHORIZED reason', async () => {
    const user = await createUser(t);
    const res = await t.call('/api/uc/v1/account/login', { account: user.username, password: md5('Wrong#1234') });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ reason: 'INVALID_CREDENTIALS', msg: 'Incorrect username or password' });
  });
});

describe('sessions', () => {
  it('answers UNAUTHORIZED for no token, a bad token and a revoked token', async () => {
    expect((await t.call('/api/uc/v1/account/get/me', {})).body.reason).toBe('UNAUTHORIZED');
    const bad = await t.call('/api/uc/v1/account/get/me', {}, 'nope');
    expect(bad.status).toBe(401);
    expect(bad.body.reason).toBe('UNAUTHORIZED');
    const user = await createUser(t);
    expect((await t.call('/api/uc/v1/account/logout', {}, user.token)).body.code).toBe(10000);
    expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.reason).toBe('UNAUTHORIZED');
  });

  it('expires after SESSION_TTL_HOURS', async () => {
    const user = await createUser(t);
    t.clock.advance(168 * 3_600_000 + 1);
    const res = await t.call('/api/uc/v1/account/get/me', {}, user.token);
    expect(res.body.reason).toBe('UNAUTHORIZED');
    t.clock.set(Date.now());
  });

  it('accepts a bare token as well as Bearer', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uc/v1/account/get/me',
      headers: { authorization: user.token },
      payload: {},
    });
    expect(res.json().code).toBe(10000);
  });
});

describe('password/change', () => {
  it('changes the password, revokes old sessions and returns a fresh token', async () => {
    const user = await createUser(t);
    const res = await t.call(
      '/api/uc/v1/account/password/change',
      { password_old: md5(PASSWORD), password_new: md5('Newer#5678') },
      user.token,
    );
    expect(res.body.code).toBe(10000);
    expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.reason).toBe('UNAUTHORIZED');
    expect((await t.call('/api/uc/v1/account/get/me', {}, res.body.data.access_token)).body.code).toBe(10000);
    expect((await t.call('/api/uc/v1/account/login', { account: user.username, password: md5('Newer#5678') })).body.code).toBe(
      10000,
    );
    expect((await t.call('/api/uc/v1/account/login', { account: user.username, password: md5(PASSWORD) })).body.reason).toBe(
      'INVALID_CREDENTIALS',
    );
  });

  it('refuses a wrong current password and changes nothing', async () => {
    const user = await createUser(t);
    const res = await t.call(
      '/api/uc/v1/account/password/change',
      { password_old: md5('Wrong#1234'), password_new: md5('Newer#5678') },
      user.token,
    );
    expect(res.body.reason).toBe('INVALID_CREDENTIALS');
    expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.code).toBe(10000);
  });

  it('refuses the current password as the new one (any case of the digest) and changes nothing', async () => {
    const user = await createUser(t);
    const res = await t.call(
      '/api/uc/v1/account/password/change',
      { password_old: md5(PASSWORD), password_new: md5(PASSWORD).toUpperCase() },
      user.token,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'password_new: The new password must be different from the current one' });
    // The session is still live: nothing was revoked.
    expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.code).toBe(10000);
  });
});

describe('change, profile, assets', () => {
  it('changes the nickname', async () => {
    const user = await createUser(t);
    const res = await t.call('/api/uc/v1/account/change', { nickname: 'Ada' }, user.token);
    expect(res.body.data.nickname).toBe('Ada');
  });

  it('shows a public profile without the email', async () => {
    const user = await createUser(t);
    const res = await t.call('/api/uc/v1/account/profile', { user_id: user.id });
    expect(res.body.data).toMatchObject({ id: user.id, username: user.username });
    expect(res.body.data.email).toBeUndefined();
  });

  it("answers the caller's own assets and NOT_FOUND for anyone else's", async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    await fund(t, a.id, '12.5');
    expect((await t.call('/api/uc/v1/account/assets', { user_id: a.id }, a.token)).body.data).toEqual({
      asset: { available: '12.50', freeze: '0.00', pending: '0.00', pending_clears_at: null },
    });
    const other = await t.call('/api/uc/v1/account/assets', { user_id: a.id }, b.token);
    expect(other.status).toBe(404);
    expect(other.body.reason).toBe('NOT_FOUND');
  });
});

describe('delete', () => {
  it('refuses while a balance remains', async () => {
    const user = await createUser(t);
    await fund(t, user.id, '1');
    const res = await t.call('/api/uc/v1/account/delete', { password: md5(PASSWORD) }, user.token);
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain('balance');
  });

  it('deletes with the password, revokes sessions and frees the username', async () => {
    const user = await createUser(t);
    expect((await t.call('/api/uc/v1/account/delete', { password: md5('Wrong#1234') }, user.token)).body.reason).toBe(
      'INVALID_CREDENTIALS',
    );
    expect((await t.call('/api/uc/v1/account/delete', { password: md5(PASSWORD) }, user.token)).body.code).toBe(10000);
    expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.reason).toBe('UNAUTHORIZED');
    expect((await t.call('/api/uc/v1/account/login', { account: user.username, password: md5(PASSWORD) })).body.reason).toBe(
      'INVALID_CREDENTIALS',
    );
    await createUser(t, { username: user.username });
  });
});

describe('envelope', () => {
  it('answers unknown routes with NOT_FOUND in the envelope', async () => {
    const res = await t.call('/api/uc/v1/account/nope', {});
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 10005, reason: 'NOT_FOUND' });
  });

  it('answers bad JSON with VALIDATION_FAILED, not a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uc/v1/account/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"account":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'The request body is not valid JSON' });
  });

  it('answers a missing body with a clear message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/uc/v1/account/login' });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('VALIDATION_FAILED');
  });
});

describe('validation messages', () => {
  const cases: [string, string, Record<string, unknown>, string, boolean?][] = [
    ['register', 'a missing username', { email: 'a@example.com', password: md5(PASSWORD) }, 'Username is required'],
    [
      'register',
      'a username that is not a string',
      { username: 12, email: 'a@example.com', password: md5(PASSWORD) },
      'Username must be a string',
    ],
    ['register', 'a missing email', { username: 'abc_1', password: md5(PASSWORD) }, 'Email is required'],
    ['register', 'a bad email', { username: 'abc_1', email: 'nope', password: md5(PASSWORD) }, 'Invalid email address'],
    [
      'register',
      'a long email',
      { username: 'abc_1', email: `${'a'.repeat(250)}@b.co`, password: md5(PASSWORD) },
      'Email is too long',
    ],
    ['register', 'a missing password', { username: 'abc_1', email: 'a@example.com' }, 'Password is required'],
    [
      'register',
      'an empty nickname',
      { username: 'abc_1', email: 'a@example.com', password: md5(PASSWORD), nickname: ' ' },
      'Nickname cannot be empty',
    ],
    [
      'register',
      'a long nickname',
      { username: 'abc_1', email: 'a@example.com', password: md5(PASSWORD), nickname: 'n'.repeat(65) },
      'Nickname is too long',
    ],
    ['login', 'a missing account', { password: md5(PASSWORD) }, 'account: Username or email is required'],
    ['login', 'a blank account', { account: '  ', password: md5(PASSWORD) }, 'account: Username or email is required'],
    ['login', 'a missing password', { account: 'someone' }, 'Password is required'],
    [
      'login',
      'a clear-text password',
      { account: 'someone', password: PASSWORD },
      'Password must be sent as an MD5 hex digest (32 hex characters)',
    ],
    ['change', 'an empty nickname', { nickname: '' }, 'Nickname cannot be empty', true],
    ['change', 'a long avatar', { avatar: 'x'.repeat(513) }, 'Avatar is too long', true],
    ['assets', 'a missing user_id', {}, 'user_id: An id is required', true],
    ['assets', 'a malformed user_id', { user_id: "1' or '1'='1" }, 'user_id: Invalid id', true],
    ['profile', 'a malformed user_id', { user_id: 'abc' }, 'user_id: Invalid id'],
    [
      'password/change',
      'a missing old password',
      { password_new: md5('Newer#5678') },
      'password_old: Password is required',
      true,
    ],
    ['password/change', 'a missing new password', { password_old: md5(PASSWORD) }, 'password_new: Password is required', true],
    ['delete', 'a missing password', {}, 'Password is required', true],
  ];

  it.each(cases)('%s refuses %s', async (call, _what, body, msg, signedIn) => {
    const token = signedIn ? (await createUser(t)).token : undefined;
    const res = await t.call(`/api/uc/v1/account/${call}`, body, token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 10001, reason: 'VALIDATION_FAILED', msg });
  });

  it('refuses a body that is not an object', async () => {
    for (const body of [[], 'text', 42, null]) {
      const res = await t.call('/api/uc/v1/account/login', body);
      expect(res.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'Request body must be a JSON object' });
    }
  });
});

describe('login (more)', () => {
  it('refuses an unknown account with the same answer as a wrong password', async () => {
    const res = await t.call('/api/uc/v1/account/login', { account: `nobody_${uniq()}`, password: md5(PASSWORD) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 10003, reason: 'INVALID_CREDENTIALS', msg: 'Incorrect username or password' });
  });

  it('signs in each time with a new session token', async () => {
    const user = await createUser(t);
    const a = await t.call('/api/uc/v1/account/login', { account: user.username, password: md5(PASSWORD) });
    const b = await t.call('/api/uc/v1/account/login', { account: user.username, password: md5(PASSWORD) });
    expect(a.body.data.access_token).not.toBe(b.body.data.access_token);
    // Logging one out leaves the other signed in.
    await t.call('/api/uc/v1/account/logout', {}, a.body.data.access_token);
    expect((await t.call('/api/uc/v1/account/get/me', {}, b.body.data.access_token)).body.code).toBe(10000);
  });
});

describe('get/me', () => {
  it('shows a nickname change and a new balance at once (the user-row cache is emptied by the change; balances are never cached)', async () => {
    const user = await createUser(t, { nickname: 'Before' });
    expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.data).toMatchObject({ nickname: 'Before' });
    expect((await t.call('/api/uc/v1/account/change', { nickname: 'After' }, user.token)).body.code).toBe(10000);
    await fund(t, user.id, '2.5');
    const me = (await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.data;
    expect(me).toMatchObject({ nickname: 'After', asset: { available: '2.50' } });
  });

  it('answers the user of product §3 with its balances as strings', async () => {
    const user = await createUser(t, { nickname: 'Grace' });
    await fund(t, user.id, '3.1');
    const res = await t.call('/api/uc/v1/account/get/me', {}, user.token);
    expect(res.body).toEqual({
      code: 10000,
      msg: 'success',
      data: {
        id: user.id,
        username: user.username,
        nickname: 'Grace',
        email: user.email,
        avatar: '',
        asset: { available: '3.10', freeze: '0.00', pending: '0.00' },
        created_at: expect.any(Number),
      },
    });
  });

  it('answers UNAUTHORIZED for an expired token, even one second late', async () => {
    const user = await createUser(t);
    t.clock.advance(168 * 3_600_000 - 1_000);
    expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.code).toBe(10000);
    t.clock.advance(1_000);
    const res = await t.call('/api/uc/v1/account/get/me', {}, user.token);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      code: 10002,
      reason: 'UNAUTHORIZED',
      msg: 'Your session has expired. Please log in again.',
    });
    t.clock.set(Date.now());
  });

  it('answers UNAUTHORIZED after the account was deleted', async () => {
    const user = await createUser(t);
    expect((await t.call('/api/uc/v1/account/delete', { password: md5(PASSWORD) }, user.token)).body.code).toBe(10000);
    const res = await t.call('/api/uc/v1/account/get/me', {}, user.token);
    expect(res.status).toBe(401);
    expect(res.body.reason).toBe('UNAUTHORIZED');
  });

  it("answers 'Record does not exist' for a deleted user whose session is still open", async () => {
    const user = await createUser(t);
    // A deletion always revokes sessions; this reaches the guard behind it directly in the database,
    // past the user-row cache, which serves a row read at most USER_ROW_CACHE_TTL_MS ago.
    await t.app.ctx.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, user.id));
    t.clock.advance(USER_ROW_CACHE_TTL_MS);
    const res = await t.call('/api/uc/v1/account/get/me', {}, user.token);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 10005, reason: 'NOT_FOUND', msg: 'Record does not exist' });
  });
});

describe('logout', () => {
  it('needs a live session and revokes only it', async () => {
    expect((await t.call('/api/uc/v1/account/logout', {})).status).toBe(401);
    const user = await createUser(t);
    expect(await t.call('/api/uc/v1/account/logout', {}, user.token)).toEqual({
      status: 200,
      body: { code: 10000, msg: 'success', data: {} },
    });
    expect((await t.call('/api/uc/v1/account/logout', {}, user.token)).body.reason).toBe('UNAUTHORIZED');
  });
});

describe('change (more)', () => {
  it('keeps what was not sent and clears the avatar with an empty value', async () => {
    const user = await createUser(t, { nickname: 'Kept' });
    expect((await t.call('/api/uc/v1/account/change', {}, user.token)).body.data).toMatchObject({ nickname: 'Kept', avatar: '' });
    const res = await t.call('/api/uc/v1/account/change', { avatar: '' }, user.token);
    expect(res.body.data).toMatchObject({ nickname: 'Kept', avatar: '' });
  });
});

describe('delete (more)', () => {
  it('refuses while points are frozen, and changes nothing', async () => {
    const user = await createUser(t);
    await fund(t, user.id, '2');
    await t.app.ctx.services.ledger.post({
      key: `test-freeze:${uniq()}`,
      kind: 'freeze',
      bizId: 'test',
      entries: [
        { account: { userId: user.id, kind: 'available' }, amount: -200n },
        { account: { userId: user.id, kind: 'frozen' }, amount: 200n },
      ],
    });
    const res = await t.call('/api/uc/v1/account/delete', { password: md5(PASSWORD) }, user.token);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      reason: 'CONFLICT',
      msg: 'Your balance must be empty before you delete your account. Cash out first.',
    });
    expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.data.asset).toEqual({
      available: '0.00',
      freeze: '2.00',
      pending: '0.00',
    });
  });

  it('runs the deletion guards it is given', async () => {
    const user = await createUser(t);
    const guard = async (userId: string) => (userId === user.id ? 'A withdrawal is still in progress' : null);
    const { services } = t.app.ctx;
    const db = t.app.ctx.database.db;
    const profile = createProfileService({
      db,
      clock: t.clock,
      ledger: services.ledger,
      credentials: createCredentials({ db, clock: t.clock }),
      sessions: services.sessions,
      deletionGuards: [guard],
    });
    await expect(profile.deleteAccount(user.id, md5(PASSWORD))).rejects.toMatchObject({
      reason: 'CONFLICT',
      message: 'A withdrawal is still in progress',
    });
    expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.code).toBe(10000);
  });
});

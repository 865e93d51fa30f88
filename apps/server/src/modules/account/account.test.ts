import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, md5, PASSWORD, uniq, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('register', () => {
  it('creates the account and answers data.access_token', async () => {
    const u = uniq();
    const res = await t.call('/api/uc/v1/account/register', { username: `reg_${u}`, email: `Reg_${u}@Example.com`, password: md5(PASSWORD) });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(10000);
    expect(res.body.data.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await t.call('/api/uc/v1/account/get/me', {}, res.body.data.access_token);
    expect(me.body.data).toMatchObject({ username: `reg_${u}`, email: `reg_${u}@example.com`, nickname: `reg_${u}`, asset: { available: '0.00', freeze: '0.00' } });
  });

  it('refuses a taken username or email with CONFLICT', async () => {
    const user = await createUser(t);
    const again = await t.call('/api/uc/v1/account/register', { username: user.username.toUpperCase(), email: `other_${uniq()}@example.com`, password: md5(PASSWORD) });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ reason: 'CONFLICT', msg: 'This username is already taken' });
    const sameEmail = await t.call('/api/uc/v1/account/register', { username: `u_${uniq()}`, email: user.email, password: md5(PASSWORD) });
    expect(sameEmail.body).toMatchObject({ reason: 'CONFLICT', msg: 'This email is already registered' });
  });

  it('refuses a clear-text password, naming the rule', async () => {
    const res = await t.call('/api/uc/v1/account/register', { username: `u_${uniq()}`, email: `${uniq()}@example.com`, password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.reason).toBe('VALIDATION_FAILED');
    expect(res.body.msg).toContain('MD5 hex digest');
  });

  it('names the field of a bad username', async () => {
    const res = await t.call('/api/uc/v1/account/register', { username: 'a!', email: `${uniq()}@example.com`, password: md5(PASSWORD) });
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
    const res = await t.app.inject({ method: 'POST', url: '/api/uc/v1/account/get/me', headers: { authorization: user.token }, payload: {} });
    expect(res.json().code).toBe(10000);
  });
});

describe('password/change', () => {
  it('changes the password, revokes old sessions and returns a fresh token', async () => {
    const user = await createUser(t);
    const res = await t.call('/api/uc/v1/account/password/change', { password_old: md5(PASSWORD), password_new: md5('Newer#5678') }, user.token);
    expect(res.body.code).toBe(10000);
    expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.reason).toBe('UNAUTHORIZED');
    expect((await t.call('/api/uc/v1/account/get/me', {}, res.body.data.access_token)).body.code).toBe(10000);
    expect((await t.call('/api/uc/v1/account/login', { account: user.username, password: md5('Newer#5678') })).body.code).toBe(10000);
    expect((await t.call('/api/uc/v1/account/login', { account: user.username, password: md5(PASSWORD) })).body.reason).toBe('INVALID_CREDENTIALS');
  });

  it('refuses a wrong current password and changes nothing', async () => {
    const user = await createUser(t);
    const res = await t.call('/api/uc/v1/account/password/change', { password_old: md5('Wrong#1234'), password_new: md5('Newer#5678') }, user.token);
    expect(res.body.reason).toBe('INVALID_CREDENTIALS');
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
    expect((await t.call('/api/uc/v1/account/assets', { user_id: a.id }, a.token)).body.data).toEqual({ asset: { available: '12.50', freeze: '0.00' } });
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
    expect((await t.call('/api/uc/v1/account/delete', { password: md5('Wrong#1234') }, user.token)).body.reason).toBe('INVALID_CREDENTIALS');
    expect((await t.call('/api/uc/v1/account/delete', { password: md5(PASSWORD) }, user.token)).body.code).toBe(10000);
    expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.reason).toBe('UNAUTHORIZED');
    expect((await t.call('/api/uc/v1/account/login', { account: user.username, password: md5(PASSWORD) })).body.reason).toBe('INVALID_CREDENTIALS');
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
    const res = await t.app.inject({ method: 'POST', url: '/api/uc/v1/account/login', headers: { 'content-type': 'application/json' }, payload: '{"account":' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'The request body is not valid JSON' });
  });

  it('answers a missing body with a clear message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/uc/v1/account/login' });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('VALIDATION_FAILED');
  });
});

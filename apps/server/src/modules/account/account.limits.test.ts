/** Rate limits of login, send_mail and password/forget (product §12; numbers in account.limits.ts and docs/api.md). */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, md5, PASSWORD, uniq, type TestApp } from '../../test/harness';
import { ACCOUNT_RATE_LIMITS as LIMITS } from './account.limits';
import { LOGIN_FAILURE_WINDOW_MS, LOGIN_FAILURES_BEFORE_SLOW, LOGIN_FAILURES_PER_ADDRESS, SLOW_INTERVAL_MS } from './login-guard';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ipSeq = 0;
/** A fresh client address, so that per-IP counters start at zero. */
const newIp = () => `10.1.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

async function post(url: string, body: unknown, ip: string) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}

const RATE_LIMITED = { code: 10009, reason: 'RATE_LIMITED', msg: 'Too many attempts. Please try again later.' };

describe('login', () => {
  const login = (account: string, password: string, ip: string) => post('/api/uc/v1/account/login', { account, password: md5(password) }, ip);

  it(`counts wrong passwords per (account, address): ${LOGIN_FAILURES_PER_ADDRESS} shut that address out, the owner elsewhere signs in`, async () => {
    const user = await createUser(t);
    const guesser = newIp();
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
      // The username in any case and the email are one account.
      const account = [user.username, user.username.toUpperCase(), user.email][i % 3]!;
      expect((await login(account, 'Wrong#1234', guesser)).body.reason).toBe('INVALID_CREDENTIALS');
    }
    // Even the right password from that address is refused now, with a Retry-After.
    const refused = await login(user.username, PASSWORD, guesser);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(RATE_LIMITED);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, from their own address, is not locked out (it used to be: 10 tries a minute per account).
    expect((await login(user.username, PASSWORD, newIp())).body.code).toBe(10000);
    // The window ends: the address may try again.
    t.clock.advance(LOGIN_FAILURE_WINDOW_MS);
    expect((await login(user.username, PASSWORD, guesser)).body.code).toBe(10000);
  });

  it('never counts a right password: an owner signs in again and again from one address', async () => {
    const user = await createUser(t);
    const ip = newIp();
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS - 1; i++) await login(user.username, 'Wrong#1234', ip);
    for (let i = 0; i < 5; i++) expect((await login(user.username, PASSWORD, ip)).body.code).toBe(10000);
    expect((await login(user.username, 'Wrong#1234', ip)).body.reason).toBe('INVALID_CREDENTIALS');
    expect((await login(user.username, PASSWORD, ip)).status).toBe(429);
  });

  it('slows an account guessed at from many addresses, never for an address its owner signed in from', async () => {
    const user = await createUser(t);
    const home = newIp();
    expect((await login(user.username, PASSWORD, home)).body.code).toBe(10000);
    // A botnet: one wrong password from each of many addresses.
    for (let i = 0; i < LOGIN_FAILURES_BEFORE_SLOW; i++) {
      expect((await login(user.username, 'Wrong#1234', newIp())).body.reason).toBe('INVALID_CREDENTIALS');
    }
    // Slowed: unknown addresses share one attempt per SLOW_INTERVAL_MS.
    expect((await login(user.username, 'Wrong#1234', newIp())).body.reason).toBe('INVALID_CREDENTIALS');
    const slowed = await login(user.username, 'Wrong#1234', newIp());
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(SLOW_INTERVAL_MS / 1000);
    const traveller = newIp();
    expect((await login(user.username, PASSWORD, traveller)).status).toBe(429);
    // The owner at home signs in at once, as often as they like.
    for (let i = 0; i < 3; i++) expect((await login(user.username, PASSWORD, home)).body.code).toBe(10000);
    // From a new address, after the wait: slowed, not locked.
    t.clock.advance(SLOW_INTERVAL_MS);
    expect((await login(user.username, PASSWORD, traveller)).body.code).toBe(10000);
    // Another account is not affected.
    const other = await createUser(t);
    expect((await login(other.username, PASSWORD, newIp())).body.code).toBe(10000);
  });

  it(`allows ${LIMITS.login.perIp.max} attempts a minute per IP, whatever the account`, async () => {
    const ip = newIp();
    for (let i = 0; i < LIMITS.login.perIp.max; i++) {
      const res = await post('/api/uc/v1/account/login', { account: `nobody_${uniq()}`, password: md5(PASSWORD) }, ip);
      expect(res.status).toBe(400);
    }
    const user = await createUser(t);
    const res = await post('/api/uc/v1/account/login', { account: user.username, password: md5(PASSWORD) }, ip);
    expect(res.status).toBe(429);
    expect(res.body).toEqual(RATE_LIMITED);
    expect((await post('/api/uc/v1/account/login', { account: user.username, password: md5(PASSWORD) }, newIp())).body.code).toBe(
      10000,
    );
  });
});

describe('send_mail', () => {
  const outbox = () => {
    try {
      return readdirSync(path.join(t.dataDir, 'outbox')).length;
    } catch {
      return 0;
    }
  };

  it(`mails at most ${LIMITS.sendMail.perAccount.max} codes per email in 10 minutes`, async () => {
    const user = await createUser(t);
    for (let i = 0; i < LIMITS.sendMail.perAccount.max; i++) {
      expect((await post('/api/uc/v1/account/send_mail', { email: user.email, type: 'reset_password' }, newIp())).body.code).toBe(
        10000,
      );
    }
    await t.app.ctx.services.auth.mailSettled();
    const before = outbox();
    const res = await post('/api/uc/v1/account/send_mail', { email: user.email.toUpperCase(), type: 'reset_password' }, newIp());
    expect(res.status).toBe(429);
    expect(res.body).toEqual(RATE_LIMITED);
    await t.app.ctx.services.auth.mailSettled();
    expect(outbox()).toBe(before);
  });

  it(`answers 429 after ${LIMITS.sendMail.perIp.max} calls from one IP`, async () => {
    const ip = newIp();
    for (let i = 0; i < LIMITS.sendMail.perIp.max; i++) {
      expect((await post('/api/uc/v1/account/send_mail', { email: `nobody_${uniq()}@example.com` }, ip)).body.code).toBe(10000);
    }
    expect((await post('/api/uc/v1/account/send_mail', { email: `nobody_${uniq()}@example.com` }, ip)).body).toEqual(
      RATE_LIMITED,
    );
  });
});

describe('password/forget', () => {
  const body = (email: string) => ({ email, code: '123456', password: md5('Fresh#2468') });

  it(`allows ${LIMITS.passwordForget.perAccount.max} attempts per email in 10 minutes`, async () => {
    const email = `nobody_${uniq()}@example.com`;
    for (let i = 0; i < LIMITS.passwordForget.perAccount.max; i++) {
      expect((await post('/api/uc/v1/account/password/forget', body(email), newIp())).body.reason).toBe('INVALID_CREDENTIALS');
    }
    const res = await post('/api/uc/v1/account/password/forget', body(email), newIp());
    expect(res.status).toBe(429);
    expect(res.body).toEqual(RATE_LIMITED);
  });

  it(`allows ${LIMITS.passwordForget.perIp.max} attempts per IP in 10 minutes`, async () => {
    const ip = newIp();
    for (let i = 0; i < LIMITS.passwordForget.perIp.max; i++) {
      expect((await post('/api/uc/v1/account/password/forget', body(`nobody_${uniq()}@example.com`), ip)).status).toBe(400);
    }
    expect((await post('/api/uc/v1/account/password/forget', body(`nobody_${uniq()}@example.com`), ip)).body).toEqual(
      RATE_LIMITED,
    );
  });
});

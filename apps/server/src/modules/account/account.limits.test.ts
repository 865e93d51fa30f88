/** Rate limits of login, send_mail and password/forget (product §12; numbers in account.limits.ts and docs/api.md). */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, md5, PASSWORD, uniq, type TestApp } from '../../test/harness';
import { ACCOUNT_RATE_LIMITS as LIMITS } from './account.limits';

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
  it(`allows ${LIMITS.login.perAccount.max} attempts a minute per account, from any IP, then answers 429`, async () => {
    const user = await createUser(t);
    for (let i = 0; i < LIMITS.login.perAccount.max; i++) {
      const res = await post('/api/uc/v1/account/login', { account: user.username, password: md5('Wrong#1234') }, newIp());
      expect(res.body.reason).toBe('INVALID_CREDENTIALS');
    }
    // The right password from yet another IP, spelled in upper case: still the same account, refused.
    const res = await post(
      '/api/uc/v1/account/login',
      { account: user.username.toUpperCase(), password: md5(PASSWORD) },
      newIp(),
    );
    expect(res.status).toBe(429);
    expect(res.body).toEqual(RATE_LIMITED);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected.
    const other = await createUser(t);
    expect(
      (await post('/api/uc/v1/account/login', { account: other.username, password: md5(PASSWORD) }, newIp())).body.code,
    ).toBe(10000);
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
    await t.app.ctx.services.accounts.mailSettled();
    const before = outbox();
    const res = await post('/api/uc/v1/account/send_mail', { email: user.email.toUpperCase(), type: 'reset_password' }, newIp());
    expect(res.status).toBe(429);
    expect(res.body).toEqual(RATE_LIMITED);
    await t.app.ctx.services.accounts.mailSettled();
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

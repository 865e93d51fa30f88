/** Two-factor sign-in and sessions through the real app (product §26). */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoveryCodes, sessions, twoFactor } from '../../db/schema/index';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp, type TestUser } from '../../test/harness';
import { PASSWORD_BUDGET_MAX } from './password-budget';
import { deviceLabel } from './devices';
import { totpCode } from './two-factor';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const uc = (p: string) => `/api/uc/v1/account${p}`;
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** POSTs with a User-Agent header. */
async function callAs(url: string, body: unknown, userAgent: string, token?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', 'user-agent': userAgent, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json() };
}

/** Moves the clock to the next 30-second step, so a fresh code is not a replay of the last one. */
const nextStep = () => t.clock.advance(30_000);

/** Turns two-factor on for `user`; answers the secret and the recovery codes. */
async function enable(user: TestUser): Promise<{ secret: string; codes: string[] }> {
  const setup = await t.call(uc('/2fa/setup'), {}, user.token);
  expect(setup.body.code, JSON.stringify(setup.body)).toBe(10000);
  const secret = setup.body.data.secret as string;
  const on = await t.call(uc('/2fa/enable'), { code: totpCode(secret, t.clock.now()) }, user.token);
  expect(on.body.code, JSON.stringify(on.body)).toBe(10000);
  nextStep();
  return { secret, codes: on.body.data.recovery_codes };
}

async function challengeFor(user: TestUser): Promise<string> {
  const res = await t.call(uc('/login'), { account: user.username, password: md5(PASSWORD) });
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({ code: 10011, reason: 'TWO_FACTOR_REQUIRED' });
  expect(res.body.data.expires_at).toBe(t.clock.now() + 300_000);
  return res.body.data.challenge;
}

describe('2fa setup and enable', () => {
  it('hands out an otpauth URI and secret, stores the secret sealed, and turns on with a right code', async () => {
    const user = await createUser(t);
    const setup = await t.call(uc('/2fa/setup'), {}, user.token);
    expect(setup.body.data.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Coffer:.+\?.*secret=[A-Z2-7]+/);
    expect(setup.body.data.otpauth_uri).toContain(user.username);
    const secret = setup.body.data.secret as string;
    const [row] = await t.app.ctx.database.db.select().from(twoFactor).where(eq(twoFactor.userId, user.id));
    expect(row!.secretSealed).not.toContain(secret);
    expect(row!.enabledAt).toBeNull();
    // Not active yet: login answers a token.
    expect((await t.call(uc('/login'), { account: user.username, password: md5(PASSWORD) })).body.code).toBe(10000);
    expect((await t.call(uc('/2fa/status'), {}, user.token)).body.data).toEqual({ enabled: false, recovery_codes_left: 0 });

    const wrong = await t.call(uc('/2fa/enable'), { code: '000000' === totpCode(secret, t.clock.now()) ? '111111' : '000000' }, user.token);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ reason: 'INVALID_CREDENTIALS', msg: 'Incorrect code' });

    const on = await t.call(uc('/2fa/enable'), { code: totpCode(secret, t.clock.now()) }, user.token);
    expect(on.body.data.recovery_codes).toHaveLength(10);
    expect(new Set(on.body.data.recovery_codes).size).toBe(10);
    for (const c of on.body.data.recovery_codes) expect(c).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    const stored = await t.app.ctx.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const s of stored) expect(on.body.data.recovery_codes.join()).not.toContain(s.codeHash.slice(0, 8).toUpperCase());
    expect((await t.call(uc('/2fa/status'), {}, user.token)).body.data).toEqual({ enabled: true, recovery_codes_left: 10 });
    // A second setup is refused while on.
    expect((await t.call(uc('/2fa/setup'), {}, user.token)).body.reason).toBe('CONFLICT');
  });

  it('refuses enable without setup, and bad input with envelope errors', async () => {
    const user = await createUser(t);
    expect((await t.call(uc('/2fa/enable'), { code: '123456' }, user.token)).body).toMatchObject({ reason: 'CONFLICT' });
    for (const body of [{}, { code: 5 }, { code: '' }, { code: 'x'.repeat(100) }, { code: '<script>' }]) {
      const res = await t.call(uc('/2fa/enable'), body, user.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.reason).toBe('VALIDATION_FAILED');
    }
    expect((await t.call(uc('/login/2fa'), { challenge: 'nope', code: '123456' })).body.reason).toBe('CONFLICT');
    expect((await t.call(uc('/login/2fa'), { code: '123456' })).status).toBe(400);
    expect((await t.call(uc('/2fa/setup'), {})).status).toBe(401);
  });
});

describe('login with two-factor', () => {
  it('asks for a code after the password, accepts it once, and refuses a replay', async () => {
    const user = await createUser(t);
    const { secret } = await enable(user);
    const challenge = await challengeFor(user);
    const code = totpCode(secret, t.clock.now());
    const done = await t.call(uc('/login/2fa'), { challenge, code });
    expect(done.body.code, JSON.stringify(done.body)).toBe(10000);
    expect((await t.call(uc('/get/me'), {}, done.body.data.access_token)).body.data.id).toBe(user.id);
    // The challenge is single use.
    expect((await t.call(uc('/login/2fa'), { challenge, code })).body.reason).toBe('CONFLICT');
    // The same code (same step) with a fresh challenge is a replay.
    const again = await challengeFor(user);
    const replay = await t.call(uc('/login/2fa'), { challenge: again, code });
    expect(replay.body).toMatchObject({ reason: 'INVALID_CREDENTIALS', msg: 'Incorrect code' });
    nextStep();
    expect((await t.call(uc('/login/2fa'), { challenge: again, code: totpCode(secret, t.clock.now()) })).body.code).toBe(10000);
  });

  it('accepts one code once even when sent twice at the same time', async () => {
    const user = await createUser(t);
    const { secret } = await enable(user);
    const [a, b] = [await challengeFor(user), await challengeFor(user)];
    const code = totpCode(secret, t.clock.now());
    const answers = await Promise.all([a, b].map((challenge) => t.call(uc('/login/2fa'), { challenge, code })));
    expect(answers.map((r) => r.body.code).sort()).toEqual([10000, 10003]);
  });

  it('lets the challenge expire after 5 minutes', async () => {
    const user = await createUser(t);
    const { secret } = await enable(user);
    const challenge = await challengeFor(user);
    t.clock.advance(300_000);
    const late = await t.call(uc('/login/2fa'), { challenge, code: totpCode(secret, t.clock.now()) });
    expect(late.status).toBe(409);
    expect(late.body.msg).toBe('This sign-in has expired. Please enter your password again.');
  });

  it('takes a recovery code instead of a TOTP code, once', async () => {
    const user = await createUser(t);
    const { codes } = await enable(user);
    const first = await t.call(uc('/login/2fa'), { challenge: await challengeFor(user), code: codes[0]!.toLowerCase().replace(/-/g, ' ') });
    expect(first.body.code, JSON.stringify(first.body)).toBe(10000);
    const second = await t.call(uc('/login/2fa'), { challenge: await challengeFor(user), code: codes[0] });
    expect(second.body).toMatchObject({ reason: 'INVALID_CREDENTIALS' });
    expect((await t.call(uc('/2fa/status'), {}, user.token)).body.data.recovery_codes_left).toBe(9);
  });

  it('counts wrong codes against the password budget', async () => {
    const user = await createUser(t);
    const { secret } = await enable(user);
    // Wrong passwords elsewhere and wrong codes here spend one budget.
    for (let i = 0; i < PASSWORD_BUDGET_MAX - 1; i++) {
      const res = await t.call(uc('/password/change'), { password_old: md5('Wrong#123'), password_new: md5('Other#123') }, user.token);
      expect(res.body.reason).toBe('INVALID_CREDENTIALS');
    }
    const challenge = await challengeFor(user);
    expect((await t.call(uc('/login/2fa'), { challenge, code: 'AAAA-AAAA-AAAA-AAAA' })).body.reason).toBe('INVALID_CREDENTIALS');
    const spent = await t.call(uc('/login/2fa'), { challenge, code: totpCode(secret, t.clock.now()) });
    expect(spent.status).toBe(429);
    expect(spent.body.reason).toBe('RATE_LIMITED');
  });
});

describe('2fa disable', () => {
  it('needs the password and a code, then login asks for no code', async () => {
    const user = await createUser(t);
    const { secret } = await enable(user);
    const badPassword = await t.call(uc('/2fa/disable'), { password: md5('Wrong#123'), code: totpCode(secret, t.clock.now()) }, user.token);
    expect(badPassword.body).toMatchObject({ reason: 'INVALID_CREDENTIALS', msg: 'Incorrect password' });
    const badCode = await t.call(uc('/2fa/disable'), { password: md5(PASSWORD), code: '12345' }, user.token);
    expect(badCode.body).toMatchObject({ reason: 'INVALID_CREDENTIALS', msg: 'Incorrect code' });
    expect((await t.call(uc('/2fa/disable'), { password: md5(PASSWORD) }, user.token)).status).toBe(400);
    const off = await t.call(uc('/2fa/disable'), { password: md5(PASSWORD), code: totpCode(secret, t.clock.now()) }, user.token);
    expect(off.body.code, JSON.stringify(off.body)).toBe(10000);
    expect((await t.call(uc('/2fa/status'), {}, user.token)).body.data.enabled).toBe(false);
    expect((await t.call(uc('/login'), { account: user.username, password: md5(PASSWORD) })).body.code).toBe(10000);
    expect((await t.call(uc('/2fa/disable'), { password: md5(PASSWORD), code: '123456' }, user.token)).body.reason).toBe('CONFLICT');
  });
});

describe('withdraw/confirm with two-factor', () => {
  it('needs a code when two-factor is on', async () => {
    const user = await createUser(t);
    await fund(t, user.id, '5000');
    const { secret } = await enable(user);
    const created = await t.call(
      uc('/withdraw/create'),
      { user_id: user.id, currency: 'usdttrc20', network: 'TRX', amount: '2500', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', memo: '' },
      user.token,
    );
    expect(created.body.code, JSON.stringify(created.body)).toBe(10000);
    const bill_id = created.body.data.bill.id;
    const missing = await t.call(uc('/withdraw/confirm'), { bill_id, password: md5(PASSWORD) }, user.token);
    expect(missing.status).toBe(403);
    expect(missing.body).toMatchObject({ reason: 'TWO_FACTOR_REQUIRED', code: 10011 });
    const wrong = await t.call(uc('/withdraw/confirm'), { bill_id, password: md5(PASSWORD), code: '000000' === totpCode(secret, t.clock.now()) ? '111111' : '000000' }, user.token);
    expect(wrong.body).toMatchObject({ reason: 'INVALID_CREDENTIALS', msg: 'Incorrect code' });
    const ok = await t.call(uc('/withdraw/confirm'), { bill_id, password: md5(PASSWORD), code: totpCode(secret, t.clock.now()) }, user.token);
    expect(ok.body.code, JSON.stringify(ok.body)).toBe(10000);
    expect(ok.body.data.bill.status).toBe('WithdrawStatusProcessing');
  });
});

describe('sessions', () => {
  it('lists sessions with device, address, times and the current flag', async () => {
    const user = await createUser(t);
    const chrome = await callAs(uc('/login'), { account: user.username, password: md5(PASSWORD) }, CHROME_MAC);
    const token = chrome.body.data.access_token as string;
    const list = await t.call(uc('/session/list'), {}, token);
    expect(list.body.data.sessions).toHaveLength(2);
    const current = list.body.data.sessions.find((s: { current: boolean }) => s.current);
    expect(current).toMatchObject({ device: 'Chrome on macOS', address: '127.0.0.1' });
    expect(current.created_at).toBe(t.clock.now());
    expect(list.body.data.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
  });

  it('updates last seen at most once a minute', async () => {
    const user = await createUser(t);
    const read = async () => {
      const [row] = await t.app.ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
      return row!.lastSeenAt?.getTime() ?? null;
    };
    // createUser's get/me was the first use.
    const first = await read();
    expect(first).toBe(t.clock.now());
    t.clock.advance(10_000); // past the 5 s session cache: the session is read again, not written
    await t.call(uc('/get/me'), {}, user.token);
    expect(await read()).toBe(first);
    t.clock.advance(60_000);
    await t.call(uc('/get/me'), {}, user.token);
    expect(await read()).toBe(t.clock.now());
  });

  it('revokes one session at once, and answers NOT_FOUND for another user\'s', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const second = (await t.call(uc('/login'), { account: user.username, password: md5(PASSWORD) })).body.data.access_token;
    await t.call(uc('/get/me'), {}, second); // cached
    const list = await t.call(uc('/session/list'), {}, user.token);
    const target = list.body.data.sessions.find((s: { current: boolean }) => !s.current);
    expect((await t.call(uc('/session/revoke'), { session_id: target.id }, other.token)).body.reason).toBe('NOT_FOUND');
    expect((await t.call(uc('/session/revoke'), { session_id: 'not-an-id' }, user.token)).status).toBe(400);
    const res = await t.call(uc('/session/revoke'), { session_id: target.id }, user.token);
    expect(res.body.code).toBe(10000);
    expect((await t.call(uc('/get/me'), {}, second)).body.reason).toBe('UNAUTHORIZED');
    expect((await t.call(uc('/get/me'), {}, user.token)).body.code).toBe(10000);
    expect((await t.call(uc('/session/revoke'), { session_id: target.id }, user.token)).body.reason).toBe('NOT_FOUND');
  });

  it('signs out every other session', async () => {
    const user = await createUser(t);
    const tokens = [];
    for (let i = 0; i < 3; i++) tokens.push((await t.call(uc('/login'), { account: user.username, password: md5(PASSWORD) })).body.data.access_token);
    for (const token of tokens) await t.call(uc('/get/me'), {}, token);
    const res = await t.call(uc('/session/revoke/others'), {}, user.token);
    expect(res.body.data).toEqual({ revoked: 3 });
    for (const token of tokens) expect((await t.call(uc('/get/me'), {}, token)).status).toBe(401);
    expect((await t.call(uc('/session/list'), {}, user.token)).body.data.sessions).toHaveLength(1);
  });
});

describe('new-device mail', () => {
  async function newDeviceMails(email: string): Promise<string[]> {
    await t.app.ctx.services.auth.mailSettled();
    const dir = path.join(t.dataDir, 'outbox');
    const out: string[] = [];
    for (const file of (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'))) {
      const raw = await readFile(path.join(dir, file), 'utf8');
      if (raw.includes(`To: ${email}`) && raw.includes('New sign-in to your Coffer account')) out.push(raw);
    }
    return out;
  }

  it('mails once per new device, never for the device the account was made on', async () => {
    const user = await createUser(t);
    const login = (ua: string) => callAs(uc('/login'), { account: user.username, password: md5(PASSWORD) }, ua);
    expect((await t.call(uc('/login'), { account: user.username, password: md5(PASSWORD) })).body.code).toBe(10000);
    expect(await newDeviceMails(user.email)).toHaveLength(0);
    await login(CHROME_MAC);
    await login(CHROME_MAC);
    const mails = await newDeviceMails(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Chrome on macOS');
    await login(FIREFOX_WIN);
    expect(await newDeviceMails(user.email)).toHaveLength(2);
  });
});

describe('deviceLabel', () => {
  it('names common browsers and systems, never failing', () => {
    expect(deviceLabel(CHROME_MAC)).toBe('Chrome on macOS');
    expect(deviceLabel(FIREFOX_WIN)).toBe('Firefox on Windows');
    expect(deviceLabel('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1')).toBe('Safari on iPhone');
    expect(deviceLabel('Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/120 Safari/537.36 Edg/120.0')).toBe('Edge on Windows');
    expect(deviceLabel('')).toBe('Unknown device');
    expect(deviceLabel(undefined)).toBe('Unknown device');
  });
});

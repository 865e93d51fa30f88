/** Forgot password: send_mail and password/forget (product §12 and §17) through the real app. */
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetCodes } from '../../db/schema/index';
import { createTestApp, createUser, lastResetCode, md5, PASSWORD, uniq, type TestApp } from '../../test/harness';

const SEND = '/api/uc/v1/account/send_mail';
const FORGET = '/api/uc/v1/account/password/forget';
const NEW_PASSWORD = 'Fresh#2468';
const INVALID = { status: 400, body: { code: 10003, reason: 'INVALID_CREDENTIALS', msg: 'Invalid or expired code' } };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Each test calls from its own IP so the per-IP limits of one test never reach another. */
function client() {
  const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  return async (url: string, body: unknown, token?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: JSON.stringify(body),
    });
    return { status: res.statusCode, body: res.json() };
  };
}

async function requestCode(email: string): Promise<string> {
  const res = await client()(SEND, { email, type: 'reset_password' });
  expect(res.body).toEqual({ code: 10000, msg: 'success', data: {} });
  const code = await lastResetCode(t, email);
  expect(code).toMatch(/^\d{6}$/);
  return code!;
}

const outboxCount = () => {
  try {
    return readdirSync(path.join(t.dataDir, 'outbox')).length;
  } catch {
    return 0;
  }
};

describe('send_mail', () => {
  it('mails a 6-digit code and stores only its hash, valid for 10 minutes', async () => {
    const user = await createUser(t);
    const code = await requestCode(user.email.toUpperCase());
    const rows = await t.app.ctx.database.db.select().from(resetCodes).where(eq(resetCodes.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.codeHash).not.toContain(code);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(600_000);
    expect(rows[0]).toMatchObject({ tries: 0, usedAt: null });
  });

  it('answers {} for an unknown email and mails nothing (no account enumeration)', async () => {
    const before = outboxCount();
    const res = await client()(SEND, { email: `nobody_${uniq()}@example.com`, type: 'reset_password' });
    expect(res).toEqual({ status: 200, body: { code: 10000, msg: 'success', data: {} } });
    await t.app.ctx.services.auth.mailSettled();
    expect(outboxCount()).toBe(before);
  });

  it('names each invalid field', async () => {
    const call = client();
    expect((await call(SEND, { email: 'not-an-email', type: 'reset_password' })).body).toMatchObject({
      reason: 'VALIDATION_FAILED',
      msg: 'Invalid email address',
    });
    expect((await call(SEND, { type: 'reset_password' })).body.msg).toBe('Email is required');
    const badType = await call(SEND, { email: 'a@example.com', type: 'signup' });
    expect(badType.status).toBe(400);
    expect(badType.body.msg).toBe("type must be 'reset_password'");
  });

  it('replaces the earlier code: only the newest one works', async () => {
    const user = await createUser(t);
    const first = await requestCode(user.email);
    const second = await requestCode(user.email);
    const call = client();
    if (first !== second) {
      expect(await call(FORGET, { email: user.email, code: first, password: md5(NEW_PASSWORD) })).toMatchObject(INVALID);
    }
    expect((await call(FORGET, { email: user.email, code: second, password: md5(NEW_PASSWORD) })).body.code).toBe(10000);
  });
});

describe('password/forget', () => {
  it('sets the new password and revokes every session', async () => {
    const user = await createUser(t);
    const call = client();
    const other = await call('/api/uc/v1/account/login', { account: user.username, password: md5(PASSWORD) });
    const code = await requestCode(user.email);

    const res = await call(FORGET, { email: user.email, code, password: md5(NEW_PASSWORD) });
    expect(res).toEqual({ status: 200, body: { code: 10000, msg: 'success', data: {} } });

    for (const token of [user.token, other.body.data.access_token]) {
      expect((await call('/api/uc/v1/account/get/me', {}, token)).body.reason).toBe('UNAUTHORIZED');
    }
    expect((await call('/api/uc/v1/account/login', { account: user.username, password: md5(PASSWORD) })).body.reason).toBe(
      'INVALID_CREDENTIALS',
    );
    expect((await call('/api/uc/v1/account/login', { account: user.email, password: md5(NEW_PASSWORD) })).body.code).toBe(10000);
  });

  it('is single-use', async () => {
    const user = await createUser(t);
    const code = await requestCode(user.email);
    const call = client();
    expect((await call(FORGET, { email: user.email, code, password: md5(NEW_PASSWORD) })).body.code).toBe(10000);
    expect(await call(FORGET, { email: user.email, code, password: md5('Other#1357') })).toMatchObject(INVALID);
    expect((await call('/api/uc/v1/account/login', { account: user.username, password: md5(NEW_PASSWORD) })).body.code).toBe(
      10000,
    );
  });

  it('counts wrong codes: the 5th try may still be right', async () => {
    const user = await createUser(t);
    const code = await requestCode(user.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const call = client();
    for (let i = 0; i < 4; i++) {
      expect(await call(FORGET, { email: user.email, code: wrong, password: md5(NEW_PASSWORD) })).toMatchObject(INVALID);
    }
    const rows = await t.app.ctx.database.db.select().from(resetCodes).where(eq(resetCodes.userId, user.id));
    expect(rows[0]!.tries).toBe(4);
    expect((await call(FORGET, { email: user.email, code, password: md5(NEW_PASSWORD) })).body.code).toBe(10000);
  });

  it('kills the code after 5 wrong tries, even for the right code', async () => {
    const user = await createUser(t);
    const code = await requestCode(user.email);
    const wrong = code === '999999' ? '888888' : '999999';
    const call = client();
    for (let i = 0; i < 5; i++) await call(FORGET, { email: user.email, code: wrong, password: md5(NEW_PASSWORD) });
    expect(await call(FORGET, { email: user.email, code, password: md5(NEW_PASSWORD) })).toMatchObject(INVALID);
    expect((await call('/api/uc/v1/account/login', { account: user.username, password: md5(PASSWORD) })).body.code).toBe(10000);
  });

  it('counts parallel wrong guesses one by one (row lock): never more than 5 tries', async () => {
    const user = await createUser(t);
    const code = await requestCode(user.email);
    const wrong = code === '555555' ? '444444' : '555555';
    const call = client();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(FORGET, { email: user.email, code: wrong, password: md5(NEW_PASSWORD) })),
    );
    for (const res of answers) expect(res).toMatchObject(INVALID);
    const rows = await t.app.ctx.database.db.select().from(resetCodes).where(eq(resetCodes.userId, user.id));
    expect(rows[0]!.tries).toBe(5);
    expect(await call(FORGET, { email: user.email, code, password: md5(NEW_PASSWORD) })).toMatchObject(INVALID);
  });

  it('kills the code 10 minutes after it was sent', async () => {
    const user = await createUser(t);
    const a = await requestCode(user.email);
    const call = client();
    t.clock.advance(600_000 - 1);
    expect((await call(FORGET, { email: user.email, code: a, password: md5(NEW_PASSWORD) })).body.code).toBe(10000);

    const b = await requestCode(user.email);
    t.clock.advance(600_000);
    expect(await call(FORGET, { email: user.email, code: b, password: md5('Other#1357') })).toMatchObject(INVALID);
    t.clock.set(Date.now());
  });

  it('answers the same for an unknown email, a user without a code and a wrong code', async () => {
    const user = await createUser(t);
    const call = client();
    const body = { code: '123456', password: md5(NEW_PASSWORD) };
    expect(await call(FORGET, { ...body, email: `nobody_${uniq()}@example.com` })).toMatchObject(INVALID);
    expect(await call(FORGET, { ...body, email: user.email })).toMatchObject(INVALID);
  });

  it('names each invalid field', async () => {
    const call = client();
    const ok = { email: 'a@example.com', code: '123456', password: md5(NEW_PASSWORD) };
    expect((await call(FORGET, { ...ok, code: '12345' })).body).toMatchObject({
      reason: 'VALIDATION_FAILED',
      msg: 'Code must be 6 digits',
    });
    expect((await call(FORGET, { ...ok, code: undefined })).body.msg).toBe('Code is required');
    expect((await call(FORGET, { ...ok, password: NEW_PASSWORD })).body.msg).toBe(
      'Password must be sent as an MD5 hex digest (32 hex characters)',
    );
    expect((await call(FORGET, { ...ok, email: 'x' })).body.msg).toBe('Invalid email address');
  });
});

describe('reset over SMTP', () => {
  let server: SMTPServer;
  let smtp: TestApp;
  const mails: string[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          mails.push(Buffer.concat(chunks).toString('utf8'));
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    smtp = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Coffer <reset@coffer.test>' });
  });
  afterAll(async () => {
    await smtp.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers the code through SMTP_URL and the code resets the password', async () => {
    const user = await createUser(smtp);
    expect((await smtp.call(SEND, { email: user.email, type: 'reset_password' })).body.code).toBe(10000);
    await smtp.app.ctx.services.auth.mailSettled();
    const mail = mails.find((m) => m.includes(`To: ${user.email}`));
    expect(mail).toMatch(/^From: Coffer <reset@coffer\.test>\r$/m);
    const code = /reset code is (\d{6})/.exec(mail ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect((await smtp.call(FORGET, { email: user.email, code, password: md5(NEW_PASSWORD) })).body.code).toBe(10000);
  });
});

describe('an SMTP server that is down', () => {
  it('still answers {} (delivery failures are logged, not shown)', async () => {
    const down = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      const user = await createUser(down);
      const res = await down.call(SEND, { email: user.email, type: 'reset_password' });
      expect(res.body).toEqual({ code: 10000, msg: 'success', data: {} });
      await down.app.ctx.services.auth.mailSettled();
    } finally {
      await down.close();
    }
  });
});

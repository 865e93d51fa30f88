/** product §19: logs never hold tokens, password digests or reset codes. Drives the real logger into a buffer. */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, lastResetCode, md5, PASSWORD, uniq, type TestApp } from '../../test/harness';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, cb) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    cb();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { logStream: sink });
});
afterAll(() => t.close());

describe('logs', () => {
  it('record account calls without the token, the password digests or the reset code', async () => {
    const username = `log_${uniq()}`;
    const email = `${username}@example.com`;
    const secrets: string[] = [md5(PASSWORD), md5('Fresh#2468'), md5('Third#1357')];

    const reg = await t.call('/api/uc/v1/account/register', { username, email, password: md5(PASSWORD) });
    const login = await t.call('/api/uc/v1/account/login', { account: username, password: md5(PASSWORD) });
    expect(login.body.code).toBe(10000);
    secrets.push(reg.body.data.access_token, login.body.data.access_token);
    await t.call('/api/uc/v1/account/get/me', {}, login.body.data.access_token);
    await t.call('/api/uc/v1/account/login', { account: username, password: md5('Wrong#0000') });

    await t.call('/api/uc/v1/account/send_mail', { email, type: 'reset_password' });
    const code = await lastResetCode(t, email);
    expect(code).toMatch(/^\d{6}$/);
    secrets.push(code!);
    expect((await t.call('/api/uc/v1/account/password/forget', { email, code, password: md5('Fresh#2468') })).body.code).toBe(
      10000,
    );
    const relog = await t.call('/api/uc/v1/account/login', { account: email, password: md5('Fresh#2468') });
    secrets.push(relog.body.data.access_token);
    const changed = await t.call(
      '/api/uc/v1/account/password/change',
      { password_old: md5('Fresh#2468'), password_new: md5('Third#1357') },
      relog.body.data.access_token,
    );
    secrets.push(changed.body.data.access_token);

    // The calls were logged (so the check below is not vacuous)...
    const logged = lines.map((l) => JSON.parse(l) as { msg?: string; url?: string; mail?: string });
    expect(logged.some((l) => l.url === '/api/uc/v1/account/login')).toBe(true);
    expect(logged.some((l) => l.url === '/api/uc/v1/account/password/forget')).toBe(true);
    const mailed = logged.find((l) => l.msg === 'reset code mailed');
    expect(mailed?.mail).toMatch(/outbox/);
    // ...and no line holds a secret.
    for (const secret of secrets) {
      for (const line of lines) expect(line).not.toContain(secret);
    }
  });

  it('log a failed delivery without the mail text', async () => {
    const out: string[] = [];
    const down = await createTestApp(
      { SMTP_URL: 'smtp://127.0.0.1:9' },
      {
        logStream: new Writable({
          write(chunk, _enc, cb) {
            out.push(String(chunk));
            cb();
          },
        }),
      },
    );
    try {
      const username = `down_${uniq()}`;
      await down.call('/api/uc/v1/account/register', { username, email: `${username}@example.com`, password: md5(PASSWORD) });
      expect((await down.call('/api/uc/v1/account/send_mail', { email: `${username}@example.com` })).body.code).toBe(10000);
      await down.app.ctx.services.auth.mailSettled();
      const text = out.join('');
      expect(text).toContain('reset code mail failed');
      expect(text).not.toMatch(/reset code is \d{6}/);
    } finally {
      await down.close();
    }
  });
});

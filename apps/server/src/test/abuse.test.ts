/**
 * Abuse resistance (docs/abuse.md) through the real app: sandbox money refused where it must not
 * exist, account deletion with balances locked and open deposits, sealed files, content types,
 * the shared password budget, the per-user order/pay limiter, and the caps on creation (open
 * deposit bills, registrations per address, stored bytes, the min-amount cache), with TRUST_PROXY.
 * Every refusal is an envelope error that changes nothing. The parallel tries run on PostgreSQL only.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { resources } from '../db/schema/index';
import { ConfigError, loadConfig } from '../env';
import { get, md5hex, ok, PNG_1PX, publishedCollection, put, uploadSingle } from '../modules/collections/collections.fixtures';
import { createTestApp, createUser, fund, md5, onPostgres, PASSWORD, type TestApp, type TestUser } from './harness';
import { createScratchDatabase } from './scratch-database';

if (!onPostgres)
  console.warn('abuse.test.ts: the 30-parallel-tries test is skipped — it needs DATABASE_URL (PGlite runs one connection)');

const uc = (p: string) => `/api/uc/v1/account${p}`;
const WRONG = md5('Wrong#1234');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MAX_OPEN_DEPOSIT_BILLS: '2', STORAGE_QUOTA_BYTES: '1000' });
});
afterAll(async () => {
  await t?.close();
});

const balances = async (u: TestUser) => (await ok(t, uc('/assets'), { user_id: u.id }, u.token)).asset;

describe('sandbox money', () => {
  it('refuses NODE_ENV=production without PAYMENTS, and the sandbox there without the opt-in (one line naming PAYMENTS)', () => {
    const base = { NODE_ENV: 'production', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'coffer-abuse-')) };
    expect(() => loadConfig(base)).toThrow(ConfigError);
    expect(() => loadConfig(base)).toThrow(/^Invalid configuration:\nPAYMENTS: required when NODE_ENV=production/);
    expect(() => loadConfig({ ...base, PAYMENTS: 'sandbox' })).toThrow(
      /PAYMENTS: sandbox lets anyone mint points; .*ALLOW_SANDBOX_IN_PRODUCTION=true/,
    );
    expect(loadConfig({ ...base, PAYMENTS: 'sandbox', ALLOW_SANDBOX_IN_PRODUCTION: 'true' }).PAYMENTS).toBe('sandbox');
    expect(loadConfig({ DATA_DIR: base.DATA_DIR }).PAYMENTS).toBe('sandbox');
  });

  it('records the payments mode at first start and refuses a real provider on a sandbox database (and the reverse)', async () => {
    // A database of its own: PGlite in a fresh data dir, or a fresh PostgreSQL database next to DATABASE_URL.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-mode-'));
    const scratch = onPostgres ? await createScratchDatabase('coffer_mode') : undefined;
    const databaseUrl = scratch?.url;
    const dropDatabase = scratch?.drop ?? (async () => {});
    try {
      const env = {
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        WORKERS: 'false',
        SERVE_WEB: 'false',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      };
      const sandbox = loadConfig(env);
      const first = await buildApp({ config: sandbox, logger: false });
      await first.close();
      // A real rail on it: refused before any provider is built, with one line saying why and how to start fresh.
      const refusal = await buildApp({ config: { ...sandbox, PAYMENTS: 'evm' }, logger: false }).then(
        () => null,
        (err: Error) => err,
      );
      expect(refusal?.name).toBe('StartupRefusal');
      expect(refusal?.message).toMatch(/^PAYMENTS=evm refused: this database was started with PAYMENTS=sandbox .*fresh database/);
      expect(refusal?.message).not.toContain('\n');
      // The sandbox itself still starts on it.
      const again = await buildApp({ config: sandbox, logger: false });
      await again.close();
    } finally {
      await dropDatabase();
    }
  });
});

describe('account deletion', () => {
  it('refuses while a deposit bill is Processing, answers the same whether the password is right or wrong, and deletes once the bill expired', async () => {
    const user = await createUser(t);
    const bill = await ok(t, uc('/deposit'), { amount: '100', pay_currency: 'usdttrc20' }, user.token);
    for (const password of [WRONG, md5(PASSWORD)]) {
      const res = await t.call(uc('/delete'), { password }, user.token);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        reason: 'CONFLICT',
        msg: 'A deposit is still being processed. Please wait until it completes or expires before deleting your account.',
      });
    }
    expect((await t.call(uc('/get/me'), {}, user.token)).body.code).toBe(10000);
    // The bill expires (the sweeper runs on a clock past its lifetime).
    t.clock.advance(bill.bill.expires_at - t.clock.now() + 1);
    await t.app.ctx.services.deposits.expireDue();
    expect((await t.call(uc('/delete'), { password: md5(PASSWORD) }, user.token)).body.code).toBe(10000);
  });

  it('refuses with a balance without looking at the password (no oracle)', async () => {
    const user = await createUser(t);
    await fund(t, user.id, '5');
    const wrong = await t.call(uc('/delete'), { password: WRONG }, user.token);
    const right = await t.call(uc('/delete'), { password: md5(PASSWORD) }, user.token);
    expect(wrong.status).toBe(409);
    expect(right.body).toEqual(wrong.body);
    expect(await balances(user)).toMatchObject({ available: '5.00', freeze: '0.00' });
  });
});

describe('sealed files and content types', () => {
  it('refuses a PUT after complete/upload with 403 and keeps the verified bytes', async () => {
    const owner = await createUser(t);
    const data = Buffer.from('the verified bytes');
    const start = await ok(
      t,
      '/sl/v1/upload/resource/url',
      { file_name: 'a.txt', size: data.length, md5: md5hex(data), content_type: 'text/plain' },
      owner.token,
    );
    expect((await put(t, start.url, data)).statusCode).toBe(200);
    const resource = await ok(t, '/sl/v1/complete/upload', { upload_id: start.upload_id, parts: [] }, owner.token);
    const evil = Buffer.from('other bytes, same len');
    const late = await put(t, start.url, evil.subarray(0, data.length));
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ reason: 'FORBIDDEN', msg: 'This file was verified and can no longer be changed' });
    const c = await ok(t, '/sl/v1/collection/create', { title: 'Sealed', amount: 0 }, owner.token);
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: resource.id }, owner.token);
    const link = await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: resource.id }, owner.token);
    const got = await get(t, link.url);
    expect(got.statusCode).toBe(200);
    expect(md5hex(got.rawPayload)).toBe(resource.md5);
  });

  it('refuses a PUT to an image once it passed its magic-byte check', async () => {
    const owner = await createUser(t);
    const pre = await ok(t, '/sl/v1/create/banner/url', { content_type: 'image/png', size: PNG_1PX.length }, owner.token);
    expect((await put(t, pre.url, PNG_1PX, { 'content-type': 'image/png' })).statusCode).toBe(200);
    await ok(t, '/sl/v1/collection/create', { title: 'Banner', amount: 1, banner: pre.banner }, owner.token);
    const late = await put(t, pre.url, Buffer.alloc(PNG_1PX.length, 0x41), { 'content-type': 'image/png' });
    expect(late.statusCode).toBe(403);
    expect(late.json().reason).toBe('FORBIDDEN');
    expect((await get(t, pre.banner)).rawPayload.equals(PNG_1PX)).toBe(true);
  });

  it('refuses a content_type an HTTP header cannot carry with 400, and never answers 500 for a stored one', async () => {
    const owner = await createUser(t);
    for (const content_type of ['text/plain; charset=€', 'text/plain\r\nX-Evil: 1', 'a/b;']) {
      const res = await t.call(
        '/sl/v1/upload/resource/url',
        { file_name: 'x.txt', size: 3, md5: md5hex('abc'), content_type },
        owner.token,
      );
      expect(res.status).toBe(400);
      expect(res.body.reason).toBe('VALIDATION_FAILED');
    }
    const fine = await uploadSingle(t, owner, Buffer.from('abc'), 'x.txt', 'text/plain; charset="utf-8"');
    // A value stored before this check (written straight to the database) still downloads.
    await t.app.ctx.database.db.update(resources).set({ contentType: 'text/plain; charset=€' }).where(eq(resources.id, fine.id));
    const c = await ok(t, '/sl/v1/collection/create', { title: 'CT', amount: 0 }, owner.token);
    await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: fine.id }, owner.token);
    const link = await ok(t, '/sl/v1/resource/download/url', { collection_id: c.id, resource_id: fine.id }, owner.token);
    const got = await get(t, link.url);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/octet-stream');
    expect(got.body).toBe('abc');
  });
});

describe('password budget', () => {
  it('shares 10 wrong passwords in 15 minutes across password/change and order/pay (account/delete: below); then even the right one is refused', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 5, 'Budget');
    const user = await createUser(t);
    await fund(t, user.id, '10');
    const order = await ok(t, '/sl/v1/collection/buy', { collection_id: c.id }, user.token);
    const tries = [
      () => t.call(uc('/password/change'), { password_old: WRONG, password_new: md5('Other#1234') }, user.token),
      () => t.call(uc('/order/pay'), { order_id: order.id, password: WRONG }, user.token),
    ];
    for (let i = 0; i < 10; i++) {
      const res = await tries[i % 2]!();
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ reason: 'INVALID_CREDENTIALS', msg: 'Incorrect password' });
    }
    const locked = await t.call(
      uc('/password/change'),
      { password_old: md5(PASSWORD), password_new: md5('Other#1234') },
      user.token,
    );
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({
      reason: 'RATE_LIMITED',
      msg: 'Too many wrong passwords. Please try again in 15 minutes.',
    });
    // Nothing changed: the old password still signs in.
    expect((await t.call(uc('/login'), { account: user.username, password: md5(PASSWORD) })).body.code).toBe(10000);
    const pay = await t.call(uc('/order/pay'), { order_id: order.id, password: md5(PASSWORD) }, user.token);
    expect(pay.status).toBe(429);
    expect(await balances(user)).toMatchObject({ available: '10.00', freeze: '0.00' });
    t.clock.advance(15 * 60_000 + 1);
    expect((await tries[1]!()).body.reason).toBe('INVALID_CREDENTIALS');
    const changed = await t.call(
      uc('/password/change'),
      { password_old: md5(PASSWORD), password_new: md5('Other#1234') },
      user.token,
    );
    expect(changed.body.code).toBe(10000);
  });

  it('keys the order/pay limiter on the user: "Bearer X", "Bearer  X" and "X" count as one', async () => {
    const user = await createUser(t);
    const spellings = [`Bearer ${user.token}`, `Bearer  ${user.token}`, user.token];
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: uc('/order/pay'),
        headers: { 'content-type': 'application/json', authorization: spellings[i % 3]! },
        payload: JSON.stringify({ order_id: '00000000-0000-4000-8000-000000000000' }),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 120).every((s) => s === 404)).toBe(true);
    expect(statuses[120]).toBe(429);
  });

  it.skipIf(!onPostgres)('30 parallel wrong tries evaluate at most 10 passwords (PostgreSQL)', async () => {
    const user = await createUser(t);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0
          ? t.call(uc('/delete'), { password: WRONG }, user.token)
          : t.call(uc('/password/change'), { password_old: WRONG, password_new: md5('Other#1234') }, user.token),
      ),
    );
    const reasons = results.map((r) => r.body.reason);
    expect(reasons.filter((r) => r === 'INVALID_CREDENTIALS')).toHaveLength(10);
    expect(reasons.filter((r) => r === 'RATE_LIMITED')).toHaveLength(20);
    expect((await t.call(uc('/login'), { account: user.username, password: md5(PASSWORD) })).body.code).toBe(10000);
  });
});

describe('caps on creation', () => {
  it('caps open deposit bills per user (MAX_OPEN_DEPOSIT_BILLS) before asking the provider', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 2; i++) await ok(t, uc('/deposit'), { amount: '100', pay_currency: 'usdttrc20' }, user.token);
    const provider = t.app.ctx.services.provider;
    const spy = vi.spyOn(provider, 'createDeposit');
    const third = await t.call(uc('/deposit'), { amount: '100', pay_currency: 'usdttrc20' }, user.token);
    expect(third.status).toBe(409);
    expect(third.body).toMatchObject({
      reason: 'CONFLICT',
      msg: 'You already have 2 open deposit bills. Pay or let one expire before creating another.',
    });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    const list = await ok(t, uc('/record/list'), { user_id: user.id, paginator: { page: 0, size: 50 } }, user.token);
    expect(list.records.filter((r: { type: string }) => r.type === 'TopUp')).toHaveLength(2);
  });

  it('caches deposit/min-amount per currency for 30 s', async () => {
    const provider = t.app.ctx.services.provider;
    const spy = vi.spyOn(provider, 'minDeposit');
    const first = await ok(t, uc('/deposit/min-amount'), { currency_from: 'eth' });
    const again = await ok(t, uc('/deposit/min-amount'), { currency_from: 'eth' });
    expect(again).toEqual(first);
    expect(spy).toHaveBeenCalledTimes(1);
    t.clock.advance(30_001);
    await ok(t, uc('/deposit/min-amount'), { currency_from: 'eth' });
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });

  it("caps each user's stored bytes (STORAGE_QUOTA_BYTES) and says how much is left", async () => {
    const owner = await createUser(t);
    await uploadSingle(t, owner, Buffer.alloc(600, 1), 'a.bin', 'application/octet-stream');
    const res = await t.call(
      '/sl/v1/upload/resource/url',
      { file_name: 'b.bin', size: 500, md5: md5hex(Buffer.alloc(500)), content_type: '' },
      owner.token,
    );
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      reason: 'PAYLOAD_TOO_LARGE',
      msg: 'Your storage space is full: 400 bytes of 1000 bytes left, and this file needs 500 bytes',
    });
    const multi = await t.call(
      '/sl/v1/multipart/upload',
      { file_name: 'b.bin', size: 500, md5: md5hex(Buffer.alloc(500)) },
      owner.token,
    );
    expect(multi.status).toBe(413);
    await uploadSingle(t, owner, Buffer.alloc(400, 2), 'c.bin', 'application/octet-stream');
  });
});

describe('registrations per client address and TRUST_PROXY', () => {
  let p: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    p = await createTestApp({ REGISTRATIONS_PER_IP_PER_HOUR: '2', TRUST_PROXY: '127.0.0.1' });
    off = await createTestApp({ REGISTRATIONS_PER_IP_PER_HOUR: '2' });
  });
  afterAll(async () => {
    await p?.close();
    await off?.close();
  });

  const register = (app: TestApp, forwardedFor?: string) => {
    const u = Math.random().toString(36).slice(2, 10);
    return app.app.inject({
      method: 'POST',
      url: uc('/register'),
      headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      payload: JSON.stringify({ username: `reg_${u}`, email: `reg_${u}@example.com`, password: md5(PASSWORD) }),
    });
  };

  it('behind a trusted proxy counts each client address on its own', async () => {
    expect((await register(p, '203.0.113.7')).statusCode).toBe(200);
    expect((await register(p, '203.0.113.7')).statusCode).toBe(200);
    const third = await register(p, '203.0.113.7');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ reason: 'RATE_LIMITED' });
    expect((await register(p, '198.51.100.9')).statusCode).toBe(200);
  });

  it('without TRUST_PROXY ignores X-Forwarded-For (one socket address, one budget)', async () => {
    expect((await register(off, '203.0.113.1')).statusCode).toBe(200);
    expect((await register(off, '203.0.113.2')).statusCode).toBe(200);
    expect((await register(off, '203.0.113.3')).statusCode).toBe(429);
  });
});

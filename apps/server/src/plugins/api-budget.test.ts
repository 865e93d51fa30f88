/**
 * The per-client API budget and the RateLimit headers (docs/api.md "Rate limits", ADR 0067), through
 * the real app: headers on every API answer counting down, 429 with Retry-After and the envelope
 * past the budget, one budget per signed-in user apart from the address's, the stricter per-route
 * limits (login, reset mails) reported as the tightest policy, and two instances on one Redis
 * sharing one budget (skipped, with a message, when no Redis answers at REDIS_TEST_URL, default
 * redis://127.0.0.1:6379).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, createUser, md5, type TestApp } from '../test/harness';

const MARKET = '/sl/v1/market/collections';
const GET_ME = '/api/uc/v1/account/get/me';
const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

const opened: TestApp[] = [];
afterAll(async () => {
  for (const t of opened) await t.close();
});
async function appWithBudget(max: number, env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ API_RATE_LIMIT_MAX: String(max), API_RATE_LIMIT_WINDOW_SECONDS: '60', ...env });
  opened.push(t);
  return t;
}

const post = (t: TestApp, url: string, body: unknown = {}, token?: string) =>
  t.app.inject({ method: 'POST', url, payload: body as object, headers: token ? { authorization: `Bearer ${token}` } : {} });

/** `"name";r=<n>;t=<s>` as {name, r, t}. */
function parseLimit(value: unknown): { name: string; r: number; t: number } {
  const m = /^"([A-Za-z0-9_-]+)";r=(\d+);t=(\d+)$/.exec(String(value));
  expect(m, `RateLimit: ${String(value)}`).not.toBeNull();
  return { name: m![1]!, r: Number(m![2]), t: Number(m![3]) };
}

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
const hasRedis = await redisReachable();
if (!hasRedis) console.warn(`api-budget.test.ts: the shared-Redis case is skipped — no Redis answers at ${REDIS_URL}`);

describe('per-client API budget and RateLimit headers', () => {
  it('reports the budget on every answer, counting down, and the window in seconds', async () => {
    const t = await appWithBudget(5);
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(t, MARKET, { page: 0, size: 5 });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"api";q=5;w=60');
      const limit = parseLimit(res.headers.ratelimit);
      expect(limit.name).toBe('api');
      expect(limit.t).toBeGreaterThanOrEqual(1);
      expect(limit.t).toBeLessThanOrEqual(60);
      remaining.push(limit.r);
    }
    expect(remaining).toEqual([4, 3, 2]);
    // Refusals and unknown API paths are counted and reported too.
    const missing = await post(t, '/api/uc/v1/no/such/call');
    expect(missing.statusCode).toBe(404);
    expect(parseLimit(missing.headers.ratelimit).r).toBe(1);
    // Not the web pages or the probes.
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).headers.ratelimit).toBeUndefined();
  });

  it('answers 429 past the budget, with Retry-After and the error envelope, and changes nothing', async () => {
    const t = await appWithBudget(2);
    for (let i = 0; i < 2; i++) expect((await post(t, MARKET, { page: 0, size: 5 })).statusCode).toBe(200);
    const refused = await post(t, '/api/uc/v1/account/register', {
      username: 'budget_user',
      email: 'budget_user@example.com',
      password: md5('Secret#123'),
    });
    expect(refused.statusCode).toBe(429);
    const body = refused.json();
    expect(body.code).not.toBe(10000);
    expect(body.reason).toBe('RATE_LIMITED');
    expect(body.msg).toMatch(/\S/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(parseLimit(refused.headers.ratelimit)).toMatchObject({ name: 'api', r: 0 });
    // The refused registration did not happen.
    const rows = (await t.app.ctx.database.db.execute(sql`select id from users where username = 'budget_user'`)) as unknown as
      { rows: unknown[] } | unknown[];
    expect(Array.isArray(rows) ? rows : rows.rows).toHaveLength(0);
  });

  it('gives a signed-in user a budget of its own, apart from the address', async () => {
    const t = await appWithBudget(4);
    const user = await createUser(t); // register: 1 of the address's 4; get/me: 1 of the user's 4
    for (let i = 0; i < 3; i++) await post(t, MARKET, { page: 0, size: 5 });
    expect((await post(t, MARKET, { page: 0, size: 5 })).statusCode).toBe(429);
    const me = await post(t, GET_ME, {}, user.token);
    expect(me.statusCode).toBe(200);
    expect(parseLimit(me.headers.ratelimit)).toMatchObject({ name: 'api', r: 2 });
    // A token that is not a live session counts as the address.
    expect((await post(t, MARKET, { page: 0, size: 5 }, 'not-a-session')).statusCode).toBe(429);
  });

  it('looks a bearer up once per request: the budget and the call share it (an unknown token is one lookup)', async () => {
    const t = await appWithBudget(100);
    const u = await createUser(t);
    const sessions = vi.spyOn(t.app.ctx.services.sessions, 'resolveSession');
    try {
      const unknown = await post(t, GET_ME, {}, 'no-such-session-token');
      expect(unknown.statusCode).toBe(401);
      expect(sessions).toHaveBeenCalledTimes(1);
      sessions.mockClear();
      expect((await post(t, GET_ME, {}, u.token)).statusCode).toBe(200);
      expect(sessions).toHaveBeenCalledTimes(1);
    } finally {
      sessions.mockRestore();
    }
  });

  it('reports the stricter per-route limits (login per address, reset mails per account) as the tightest policy', async () => {
    const t = await appWithBudget(1000);
    const login = await post(t, '/api/uc/v1/account/login', { account: 'nobody_here', password: md5('Wrong#1234') });
    expect(login.headers['ratelimit-policy']).toBe('"api";q=1000;w=60, "login";q=30;w=60');
    expect(parseLimit(login.headers.ratelimit)).toMatchObject({ name: 'login', r: 29 });
    expect(login.headers['x-ratelimit-limit']).toBeUndefined();

    const mail = { email: 'someone@example.com', type: 'reset_password' };
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await post(t, '/api/uc/v1/account/send_mail', mail));
    expect(answers[0]!.headers['ratelimit-policy']).toBe(
      '"api";q=1000;w=60, "sendMail";q=10;w=600, "sendMail-account";q=3;w=600',
    );
    expect(answers.slice(0, 3).map((a) => parseLimit(a.headers.ratelimit))).toMatchObject([
      { name: 'sendMail-account', r: 2 },
      { name: 'sendMail-account', r: 1 },
      { name: 'sendMail-account', r: 0 },
    ]);
    const refused = answers[3]!;
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ reason: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    expect(parseLimit(refused.headers.ratelimit)).toMatchObject({ name: 'sendMail-account', r: 0 });
  });

  it.skipIf(!hasRedis)('shares one budget between two instances on one Redis', async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: `coffer-test-${randomBytes(6).toString('hex')}:` };
    const a = await appWithBudget(6, env);
    const b = await appWithBudget(6, env);
    const remaining: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await post(i % 2 ? b : a, MARKET, { page: 0, size: 5 });
      expect(res.statusCode).toBe(200);
      remaining.push(parseLimit(res.headers.ratelimit).r);
    }
    expect(remaining).toEqual([5, 4, 3, 2, 1, 0]);
    for (const t of [a, b]) {
      const res = await post(t, MARKET, { page: 0, size: 5 });
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  });
});

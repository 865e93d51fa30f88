/**
 * Talking to the server directly (fixtures): register users, log in, call any endpoint.
 * Passwords are sent as their MD5 digest, as the web app does (product §5).
 */
import { createHash, randomBytes } from 'node:crypto';

export const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** A password that satisfies product §5. */
export const DEFAULT_PASSWORD = 'Coffer#2026';

export interface TestUser {
  username: string;
  email: string;
  nickname: string;
  password: string;
  token: string;
}

/** POSTs to an API path and returns the envelope; throws when `code !== 10000` unless `allowFailure`. */
export async function call<T = any>(baseUrl: string, path: string, body: unknown = {}, token?: string, allowFailure = false) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as { code: number; msg: string; data: T; reason?: string };
  if (!allowFailure && envelope.code !== 10000) throw new Error(`${path} failed: ${res.status} ${JSON.stringify(envelope)}`);
  return envelope;
}

/** A unique user name stem for this run. */
export function uniqueName(prefix = 'user'): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

/** Registers a user through the API (overrides for any field) and returns it with its token. */
export async function registerUser(baseUrl: string, overrides: Partial<Omit<TestUser, 'token'>> = {}): Promise<TestUser> {
  const username = overrides.username ?? uniqueName();
  const user = {
    username,
    email: overrides.email ?? `${username}@example.com`,
    nickname: overrides.nickname ?? username,
    password: overrides.password ?? DEFAULT_PASSWORD,
  };
  const env = await call<{ access_token: string }>(baseUrl, '/api/uc/v1/account/register', {
    username: user.username,
    email: user.email,
    nickname: user.nickname,
    password: md5(user.password),
  });
  return { ...user, token: env.data.access_token };
}

/** Logs in through the API. */
export async function loginUser(baseUrl: string, account: string, password: string): Promise<string> {
  const env = await call<{ access_token: string }>(baseUrl, '/api/uc/v1/account/login', { account, password: md5(password) });
  return env.data.access_token;
}

/**
 * Credits points to a user through the sandbox payment provider: a top-up bill for `points`
 * (decimal string) in USDT on TRON, then the sandbox's simulated payment in full.
 * @returns the paid bill
 */
export async function fundUser(baseUrl: string, token: string, points = '1000.00', payCurrency = 'usdttrc20') {
  const created = await call<{ bill: { id: string } }>(baseUrl, '/api/uc/v1/account/deposit', { amount: points, pay_currency: payCurrency }, token);
  const paid = await call<{ bill: { id: string; status: string } }>(baseUrl, '/api/dev/sandbox/pay', { bill_id: created.data.bill.id }, token);
  return paid.data.bill;
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp } from '../test/harness';

let t: TestApp;
let withToken: TestApp;
const TOKEN = 'metrics-token-0123456789abcdef';
beforeAll(async () => {
  t = await createTestApp();
  withToken = await createTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => {
  await t.close();
  await withToken.close();
});

/** Scrapes /metrics from loopback; returns the text. */
async function scrape(app = t): Promise<string> {
  const res = await app.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

/** The value of one sample, e.g. sample(text, 'coffer_ledger_postings', { kind: 'deposit' }); 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).split(' ')[0]!;
    if (Object.entries(labels).every(([k, v]) => labelText.includes(`${k}="${v}"`))) return Number(line.split(' ').at(-1));
  }
  return 0;
}

describe('GET /metrics access', () => {
  it('answers loopback clients and 404s others without the token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' });
    expect(remote.statusCode).toBe(404);
    expect(remote.json()).toMatchObject({ reason: 'NOT_FOUND' });
    // A reverse proxy on the same host connects from loopback but forwards the client's address.
    const proxied = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(proxied.statusCode).toBe(404);
  });

  it('answers any client with Authorization: Bearer $METRICS_TOKEN, and only with the right token', async () => {
    const ok = await withToken.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('coffer_http_request_duration_seconds');
    const wrong = await withToken.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(404);
    const none = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(none.statusCode).toBe(404);
  });
});

describe('GET /metrics content', () => {
  it('has request duration histograms by route pattern and status, and counts 429 refusals', async () => {
    await t.call('/api/uc/v1/account/assets', {});
    await t.app.inject({ method: 'GET', url: '/no/such/page/12345' });
    const text = await scrape();
    expect(
      sample(text, 'coffer_http_request_duration_seconds_count', { route: '/api/uc/v1/account/assets', method: 'POST' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('/no/such/page/12345');
    expect(
      sample(text, 'coffer_http_request_duration_seconds_count', { route: '<unmatched>', status_code: '404' }),
    ).toBeGreaterThanOrEqual(1);

    const before = sample(text, 'coffer_rate_limit_refusals_total');
    let refused = 0;
    for (let i = 0; i < 40 && refused === 0; i++) {
      const res = await t.call('/api/uc/v1/account/login', { account: 'nobody@example.com', password: md5('Wrong#123') });
      if (res.status === 429) refused++;
    }
    expect(refused).toBe(1);
    const after = await scrape();
    const total = after
      .split('\n')
      .filter((l) => l.startsWith('coffer_rate_limit_refusals_total{'))
      .reduce((s, l) => s + Number(l.split(' ').at(-1)), 0);
    expect(total - before).toBeGreaterThanOrEqual(1);
  });

  it('computes the payout queue, processing deposit bills and ledger postings from the database', async () => {
    const before = await scrape();
    const user = await createUser(t);
    await fund(t, user.id, '5000');
    const deposit = await t.call('/api/uc/v1/account/deposit', { amount: '100', pay_currency: 'usdttrc20' }, user.token);
    expect(deposit.body.code).toBe(10000);
    const bill = await t.call(
      '/api/uc/v1/account/withdraw/create',
      {
        user_id: user.id,
        currency: 'usdttrc20',
        network: 'TRX',
        amount: '2500',
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        memo: '',
      },
      user.token,
    );
    expect(bill.body.code, JSON.stringify(bill.body)).toBe(10000);
    const confirmed = await t.call(
      '/api/uc/v1/account/withdraw/confirm',
      { bill_id: bill.body.data.bill.id, password: md5(PASSWORD) },
      user.token,
    );
    expect(confirmed.body.code, JSON.stringify(confirmed.body)).toBe(10000);
    t.clock.advance(120_000);

    const after = await scrape();
    expect(
      sample(after, 'coffer_deposit_bills_processing', { provider: 'sandbox' }) -
        sample(before, 'coffer_deposit_bills_processing', { provider: 'sandbox' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(after, 'coffer_payout_queue_depth', { provider: 'sandbox', state: 'queued' }) -
        sample(before, 'coffer_payout_queue_depth', { provider: 'sandbox', state: 'queued' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'coffer_payout_queue_oldest_age_seconds', { provider: 'sandbox' })).toBeGreaterThanOrEqual(120);
    const postings = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith('coffer_ledger_postings{'))
        .reduce((s, l) => s + Number(l.split(' ').at(-1)), 0);
    // The funding and the withdraw freeze are two postings.
    expect(postings(after) - postings(before)).toBeGreaterThanOrEqual(2);
  });

  it('lets other code add a scrape-time gauge', async () => {
    let calls = 0;
    withToken.app.metrics.addGauge({
      name: 'coffer_test_gauge',
      help: 'test',
      labelNames: ['x'],
      collect: () => [{ labels: { x: 'a' }, value: ++calls }],
    });
    expect(() => withToken.app.metrics.addGauge({ name: 'coffer_test_gauge', help: 'again', collect: () => [] })).toThrow(
      /already/,
    );
    expect(() => withToken.app.metrics.addGauge({ name: 'other_gauge', help: 'x', collect: () => [] })).toThrow(/coffer_/);
    expect(sample(await scrape(withToken), 'coffer_test_gauge', { x: 'a' })).toBe(1);
    expect(sample(await scrape(withToken), 'coffer_test_gauge', { x: 'a' })).toBe(2);
  });
});

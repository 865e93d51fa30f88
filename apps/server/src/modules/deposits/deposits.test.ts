import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ledgerTransactions, records } from '../../db/schema/index';
import { createTestApp, createUser, type TestApp, type TestUser } from '../../test/harness';
import { verifyLedger } from '../ledger/ledger.verify';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const uc = (p: string) => `/api/uc/v1/account${p}`;
const PAY = '/api/dev/sandbox/pay';

async function deposit(user: TestUser, amount: string, pay_currency = 'usdttrc20') {
  const res = await t.call(uc('/deposit'), { amount, pay_currency }, user.token);
  expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
  return res.body.data.bill;
}
const assets = async (user: TestUser) => (await t.call(uc('/assets'), { user_id: user.id }, user.token)).body.data.asset;
async function topUpRecord(user: TestUser, billId: string) {
  const [row] = await t.app.ctx.database.db.select().from(records).where(eq(records.bizId, billId));
  expect(row?.userId).toBe(user.id);
  return row!;
}

describe('currency/list and config', () => {
  it('lists the sandbox currencies with real address patterns, a memo currency and same-origin logos', async () => {
    const res = await t.call(uc('/currency/list'), {});
    expect(res.status).toBe(200);
    const list = res.body.data.currencies as Array<Record<string, any>>;
    const codes = list.map((c) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['usdttrc20', 'usdterc20', 'usdtbsc', 'usdtmatic', 'usdtton', 'btc', 'eth']));
    const byCode = Object.fromEntries(list.map((c) => [c.code, c]));
    expect(byCode.usdttrc20).toEqual({
      code: 'usdttrc20',
      symbol: 'USDT',
      name: 'Tether USD (TRC-20)',
      network: 'TRX',
      logo_url: '/static/currencies/usdt.svg',
      wallet_regex: '^T[1-9A-HJ-NP-Za-km-z]{33}$',
      extra_id_exists: false,
      extra_id_regex: null,
      fiatEquivalent: '10.00',
    });
    expect(byCode.usdtton).toMatchObject({ network: 'TON', extra_id_exists: true, extra_id_regex: expect.any(String) });
    expect(new RegExp(byCode.usdterc20.wallet_regex).test('0x000000000000000000000000000000000000dEaD')).toBe(true);
    expect(new RegExp(byCode.btc.wallet_regex).test('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe(true);
    expect(new RegExp(byCode.usdttrc20.wallet_regex).test('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    for (const c of list) {
      expect(c.logo_url).toMatch(/^\/static\/currencies\/[a-z]+\.svg$/);
      const logo = await t.app.inject({ method: 'GET', url: c.logo_url });
      expect(logo.statusCode).toBe(200);
      expect(logo.headers['content-type']).toContain('image/svg+xml');
    }
  });

  it('caches the provider list for 5 minutes', async () => {
    const provider = t.app.ctx.services.provider;
    t.clock.advance(5 * 60_000); // start from a fresh cache window
    const spy = vi.spyOn(provider, 'listCurrencies');
    try {
      await t.call(uc('/currency/list'), {});
      await t.call(uc('/currency/list'), {});
      t.clock.advance(5 * 60_000 - 1);
      await t.call(uc('/currency/list'), {});
      expect(spy).toHaveBeenCalledTimes(1);
      t.clock.advance(1);
      await t.call(uc('/currency/list'), {});
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('publishes the payments configuration the web app reads', async () => {
    const res = await t.call('/api/uc/v1/config', {});
    expect(res.body.data).toEqual({ payments: 'sandbox', sandbox: true, points_per_usd: '100', deposit_lifetime_seconds: 1800 });
  });
});

describe('deposit/min-amount', () => {
  it('answers the minimum in points, crypto and USD', async () => {
    const usdt = await t.call(uc('/deposit/min-amount'), { currency_from: 'usdttrc20' });
    expect(usdt.body.data).toEqual({
      result: { min_amount: '100.00', currency_min_amount: '1.00000000', fiat_equivalent: '1.00' },
    });
    expect(usdt.status).toBe(200);
    const btc = await t.call(uc('/deposit/min-amount'), { currency_from: 'btc' });
    expect(btc.body.data.result).toEqual({ min_amount: '600.00', currency_min_amount: '0.00010000', fiat_equivalent: '6.00' });
  });

  it("needs a currency: 'Currency is required'", async () => {
    for (const body of [{}, { currency_from: '' }, { currency_from: null }]) {
      const res = await t.call(uc('/deposit/min-amount'), body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'Currency is required' });
    }
    const unknown = await t.call(uc('/deposit/min-amount'), { currency_from: 'doge' });
    expect(unknown.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'Unsupported currency' });
  });
});

describe('deposit', () => {
  it('creates a bill with an address matching the currency and a TopUp/Incoming/Pending record', async () => {
    const user = await createUser(t);
    const list = (await t.call(uc('/currency/list'), {})).body.data.currencies as Array<{
      code: string;
      wallet_regex: string;
      network: string;
    }>;
    for (const c of list) {
      const min = (await t.call(uc('/deposit/min-amount'), { currency_from: c.code })).body.data.result;
      const bill = await deposit(user, min.min_amount, c.code);
      expect(bill.address).toMatch(new RegExp(c.wallet_regex));
      expect(bill.network).toBe(c.network);
    }
    const before = t.clock.now();
    const bill = await deposit(user, '2500.00');
    expect(bill).toEqual({
      id: expect.any(String),
      user_id: user.id,
      amount: '2500.00',
      amount_usd: '25.00',
      currency_amount: '25.00000000',
      pay_currency: 'usdttrc20',
      network: 'TRX',
      address: expect.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
      extra_id: null,
      status: 'DepositStatusProcessing',
      created: String(before),
      expires_at: before + 1_800_000,
      paid_currency_amount: '0.00000000',
      credited_amount: '0.00',
    });
    const record = await topUpRecord(user, bill.id);
    expect(record).toMatchObject({ type: 'TopUp', direction: 'Incoming', status: 'RecordStatusPending', amount: 250_000n });
    expect(await assets(user)).toMatchObject({ available: '0.00', freeze: '0.00' });
  });

  it('prices non-stable coins at the configured price, rounding the crypto up', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1000.00', 'btc');
    // 1000 points = 10 USD = 10/60000 BTC = 0.000166666... -> 0.00016667
    expect(bill).toMatchObject({ amount_usd: '10.00', currency_amount: '0.00016667', network: 'BTC' });
  });

  it("needs amount and currency: 'Amount and currency are required'; refuses bad amounts", async () => {
    const user = await createUser(t);
    for (const body of [{}, { amount: '10' }, { pay_currency: 'usdttrc20' }, { amount: '', pay_currency: 'usdttrc20' }]) {
      const res = await t.call(uc('/deposit'), body, user.token);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'Amount and currency are required' });
    }
    const tooSmall = await t.call(uc('/deposit'), { amount: '99.99', pay_currency: 'usdttrc20' }, user.token);
    expect(tooSmall.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'Minimum amount is 1 USDT.' });
    const tooPrecise = await t.call(uc('/deposit'), { amount: '100.001', pay_currency: 'usdttrc20' }, user.token);
    expect(tooPrecise.body).toMatchObject({
      reason: 'VALIDATION_FAILED',
      msg: 'Amount must be a number with at most 2 decimals',
    });
    const negative = await t.call(uc('/deposit'), { amount: '-100', pay_currency: 'usdttrc20' }, user.token);
    expect(negative.body.reason).toBe('VALIDATION_FAILED');
    const tooLarge = await t.call(uc('/deposit'), { amount: '10000000.01', pay_currency: 'usdttrc20' }, user.token);
    expect(tooLarge.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'Maximum amount is 10,000,000.00 points.' });
    const anonymous = await t.call(uc('/deposit'), { amount: '100', pay_currency: 'usdttrc20' });
    expect(anonymous.body.reason).toBe('UNAUTHORIZED');
  });
});

describe('deposit/bill/detail', () => {
  it('answers the caller’s own bill only', async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const bill = await deposit(owner, '500');
    const mine = await t.call(uc('/deposit/bill/detail'), { user_id: owner.id, bill_id: bill.id }, owner.token);
    expect(mine.body.data.bill).toEqual(bill);
    const asStranger = await t.call(uc('/deposit/bill/detail'), { user_id: stranger.id, bill_id: bill.id }, stranger.token);
    expect(asStranger.status).toBe(404);
    expect(asStranger.body.reason).toBe('NOT_FOUND');
    const ownersId = await t.call(uc('/deposit/bill/detail'), { user_id: owner.id, bill_id: bill.id }, stranger.token);
    expect(ownersId.body.reason).toBe('NOT_FOUND');
    const strangerPays = await t.call(PAY, { bill_id: bill.id }, stranger.token);
    expect(strangerPays.body.reason).toBe('NOT_FOUND');
  });

  it("needs user_id and bill_id: 'user_id required', 'bill_id required'", async () => {
    const user = await createUser(t);
    const noUser = await t.call(uc('/deposit/bill/detail'), { bill_id: user.id }, user.token);
    expect(noUser.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'user_id required' });
    const noBoth = await t.call(uc('/deposit/bill/detail'), {}, user.token);
    expect(noBoth.body.msg).toBe('user_id required');
    const noBill = await t.call(uc('/deposit/bill/detail'), { user_id: user.id }, user.token);
    expect(noBill.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'bill_id required' });
    const badId = await t.call(uc('/deposit/bill/detail'), { user_id: user.id, bill_id: "1' or '1'='1" }, user.token);
    expect(badId.status).toBe(400);
  });
});

describe('expiry', () => {
  it('expires a bill 1800 s after creation: status expired, record Failure', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '300');
    t.clock.advance(1_800_000 - 1);
    const still = await t.call(uc('/deposit/bill/detail'), { user_id: user.id, bill_id: bill.id }, user.token);
    expect(still.body.data.bill.status).toBe('DepositStatusProcessing');
    t.clock.advance(1);
    const expired = await t.call(uc('/deposit/bill/detail'), { user_id: user.id, bill_id: bill.id }, user.token);
    expect(expired.body.data.bill.status).toBe('DepositStatusExpired');
    expect((await topUpRecord(user, bill.id)).status).toBe('RecordStatusFailure');
  });

  it('the sweeper expires due bills without anyone asking', async () => {
    const user = await createUser(t);
    const due = await deposit(user, '300');
    t.clock.advance(1_000_000);
    const fresh = await deposit(user, '300');
    t.clock.advance(800_000);
    expect(await t.app.ctx.services.deposits.expireDue()).toBeGreaterThanOrEqual(1);
    expect((await topUpRecord(user, due.id)).status).toBe('RecordStatusFailure');
    expect((await topUpRecord(user, fresh.id)).status).toBe('RecordStatusPending');
    const freshBill = await t.call(uc('/deposit/bill/detail'), { user_id: user.id, bill_id: fresh.id }, user.token);
    expect(freshBill.body.data.bill.status).toBe('DepositStatusProcessing');
  });
});

describe('payments (sandbox)', () => {
  it('credits a full payment: bill success, points available, record Success', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '2500.00');
    const paid = await t.call(PAY, { bill_id: bill.id }, user.token);
    expect(paid.body.data.bill).toMatchObject({
      status: 'DepositStatusSuccess',
      paid_currency_amount: '25.00000000',
      credited_amount: '2500.00',
    });
    expect(await assets(user)).toMatchObject({ available: '2500.00', freeze: '0.00' });
    expect(await topUpRecord(user, bill.id)).toMatchObject({ status: 'RecordStatusSuccess', amount: 250_000n });
    const detail = await t.call(uc('/deposit/bill/detail'), { user_id: user.id, bill_id: bill.id }, user.token);
    expect(detail.body.data.bill.status).toBe('DepositStatusSuccess');
  });

  it('credits a short payment at the received value', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '2500.00');
    const paid = await t.call(PAY, { bill_id: bill.id, currency_amount: '10.5' }, user.token);
    expect(paid.body.data.bill).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '1050.00' });
    expect(await assets(user)).toMatchObject({ available: '1050.00', freeze: '0.00' });
    expect(await topUpRecord(user, bill.id)).toMatchObject({ status: 'RecordStatusSuccess', amount: 105_000n });
  });

  it('credits an excess payment at the received value', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '2500.00');
    await t.call(PAY, { bill_id: bill.id, currency_amount: '30.01234567' }, user.token);
    // 30.01234567 USDT x 100 = 3001.234567 points -> 3001.23 (rounded down)
    expect(await assets(user)).toMatchObject({ available: '3001.23', freeze: '0.00' });
    expect(await topUpRecord(user, bill.id)).toMatchObject({ status: 'RecordStatusSuccess', amount: 300_123n });
  });

  it('credits a late payment (after expiry) and moves the record from Failure to Success', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '700');
    t.clock.advance(1_900_000);
    await t.app.ctx.services.deposits.expireDue();
    expect((await topUpRecord(user, bill.id)).status).toBe('RecordStatusFailure');
    const paid = await t.call(PAY, { bill_id: bill.id }, user.token);
    expect(paid.body.data.bill).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '700.00' });
    expect(await assets(user)).toMatchObject({ available: '700.00', freeze: '0.00' });
    expect((await topUpRecord(user, bill.id)).status).toBe('RecordStatusSuccess');
  });

  it('credits a non-stable coin at the bill’s price', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1000.00', 'btc');
    await t.call(PAY, { bill_id: bill.id }, user.token);
    expect(await assets(user)).toMatchObject({ available: '1000.00', freeze: '0.00' });
    const bill2 = await deposit(user, '1000.00', 'btc');
    await t.call(PAY, { bill_id: bill2.id, currency_amount: '0.0001' }, user.token);
    expect(await assets(user)).toMatchObject({ available: '1600.00', freeze: '0.00' });
  });

  it('credits a payment exactly once under 20 concurrent reports', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1234.56');
    const results = await Promise.all(Array.from({ length: 20 }, () => t.call(PAY, { bill_id: bill.id }, user.token)));
    expect(results.every((r) => r.body.code === 10000)).toBe(true);
    expect(await assets(user)).toMatchObject({ available: '1234.56', freeze: '0.00' });
    const deposits = t.app.ctx.services.deposits;
    expect(await deposits.payments(bill.id)).toHaveLength(1);
    // The same payment reported through the service (as a watcher would) is also a no-op.
    const provider = t.app.ctx.services.provider as import('../../providers/payments/index').SandboxProvider;
    const again = await Promise.all(
      Array.from({ length: 20 }, () => deposits.creditPayment(provider.simulatePayment(bill.id, '12.3456'))),
    );
    expect(again.filter((r) => !r.replayed)).toHaveLength(0);
    const tx = await t.app.ctx.database.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.bizId, bill.id));
    expect(tx).toHaveLength(1);
    expect(await assets(user)).toMatchObject({ available: '1234.56', freeze: '0.00' });
  });

  it('credits a second, different payment to the same bill too (money is never lost)', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1000');
    await t.call(PAY, { bill_id: bill.id, currency_amount: '4' }, user.token);
    const second = await t.call(PAY, { bill_id: bill.id, currency_amount: '6' }, user.token);
    expect(second.body.data.bill).toMatchObject({ paid_currency_amount: '10.00000000', credited_amount: '1000.00' });
    expect(await assets(user)).toMatchObject({ available: '1000.00', freeze: '0.00' });
    expect(await topUpRecord(user, bill.id)).toMatchObject({ amount: 100_000n, status: 'RecordStatusSuccess' });
  });

  it("refuses a bad simulated amount and a missing bill_id ('bill_id required')", async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '100');
    for (const currency_amount of ['0', '-1', 'abc', '1.123456789', '999999999999999999']) {
      const res = await t.call(PAY, { bill_id: bill.id, currency_amount }, user.token);
      expect(res.status).toBe(400);
      expect(res.body.reason).toBe('VALIDATION_FAILED');
    }
    expect((await t.call(PAY, {}, user.token)).body.msg).toBe('bill_id required');
    expect(await assets(user)).toMatchObject({ available: '0.00', freeze: '0.00' });
  });
});

describe('late and non-exact payments of a non-stable coin (docs/decisions/0012-late-payment-pricing.md)', () => {
  const sandbox = () => t.app.ctx.services.provider as import('../../providers/payments/index').SandboxProvider;
  const withBtcAt = async (usd: string, run: () => Promise<void>) => {
    sandbox().setPrice('BTC', usd);
    try {
      await run();
    } finally {
      sandbox().setPrice('BTC', '60000');
    }
  };
  const creditedPrice = async (billId: string) => (await t.app.ctx.services.deposits.payments(billId)).map((p) => p.usdPrice);

  it('exact and on time: the quote, whatever the price did meanwhile', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1200.00', 'btc'); // 12 USD at 60000 -> 0.0002 BTC
    expect(bill.currency_amount).toBe('0.00020000');
    await withBtcAt('30000', async () => {
      const paid = await t.call(PAY, { bill_id: bill.id }, user.token);
      expect(paid.body.data.bill).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '1200.00' });
    });
    expect(await creditedPrice(bill.id)).toEqual(['60000.000000000000000000']);
  });

  it('late, price rose: credited at the quoted price', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1200.00', 'btc');
    t.clock.advance(1_800_001);
    await withBtcAt('90000', async () => {
      const paid = await t.call(PAY, { bill_id: bill.id }, user.token);
      // 0.0002 BTC x 60000 (the quote, lower than 90000) x 100 = 1200.00
      expect(paid.body.data.bill).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '1200.00' });
    });
    expect(await assets(user)).toMatchObject({ available: '1200.00', freeze: '0.00' });
    expect(await creditedPrice(bill.id)).toEqual(['60000.000000000000000000']);
  });

  it('late, price fell: credited at the price on arrival', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1200.00', 'btc');
    t.clock.advance(1_800_001);
    await withBtcAt('45000', async () => {
      const paid = await t.call(PAY, { bill_id: bill.id }, user.token);
      // 0.0002 BTC x 45000 x 100 = 900.00
      expect(paid.body.data.bill).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '900.00' });
    });
    expect(await assets(user)).toMatchObject({ available: '900.00', freeze: '0.00' });
    expect(await creditedPrice(bill.id)).toEqual(['45000.000000000000000000']);
  });

  it('non-exact on time, price fell: credited at the price on arrival; price rose: at the quote', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1200.00', 'btc');
    await withBtcAt('50000', async () => {
      // 0.0001 BTC x 50000 x 100 = 500.00
      const short = await t.call(PAY, { bill_id: bill.id, currency_amount: '0.0001' }, user.token);
      expect(short.body.data.bill).toMatchObject({ credited_amount: '500.00' });
    });
    await withBtcAt('70000', async () => {
      // 0.00015 BTC x 60000 (the quote) x 100 = 900.00
      const second = await t.call(PAY, { bill_id: bill.id, currency_amount: '0.00015' }, user.token);
      expect(second.body.data.bill).toMatchObject({ credited_amount: '1400.00' });
    });
    expect(await assets(user)).toMatchObject({ available: '1400.00', freeze: '0.00' });
  });

  it('a stablecoin keeps the quote, late and non-exact alike', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1000.00', 'usdterc20');
    t.clock.advance(1_800_001);
    await withBtcAt('1', async () => {
      const paid = await t.call(PAY, { bill_id: bill.id, currency_amount: '4' }, user.token);
      expect(paid.body.data.bill).toMatchObject({ credited_amount: '400.00' });
    });
    expect(await creditedPrice(bill.id)).toEqual(['1.000000000000000000']);
  });
});

describe('after the suite', () => {
  it('the ledger invariants hold', async () => {
    const report = await verifyLedger(t.app.ctx.database.db);
    expect(report.violations).toEqual([]);
  });
});

/**
 * The `nowpayments` gateway adapter end to end: the real app (PAYMENTS=nowpayments) against a local
 * fake of the gateway's API (src/test/nowpayments/fake-api.ts). IPNs are posted to the app as the gateway would,
 * signed with the IPN secret (or not).
 */
import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { DepositStatus } from '@coffer/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowpaymentsPayments, nowpaymentsPayouts, nowpaymentsReviews, withdrawBills } from '../../../db/schema/index';
import { ConfigError, loadConfig } from '../../../env';
import { createTestApp, createUser, fund, ledgerViolations, md5, PASSWORD, type TestApp, type TestUser } from '../../../test/harness';
import { ipnSignature, sortKeysDeep, verifyIpnSignature, type GatewayPayment } from './api';
import {
  FAKE_API_KEY,
  FAKE_EMAIL,
  FAKE_PASSWORD,
  FAKE_TOTP_SECRET,
  startFakeNowPayments,
  type FakeNowPayments,
} from '../../../test/nowpayments/fake-api';
import { IPN_PATH, mapPaymentStatus, mapPayoutStatus, type NowPaymentsProvider } from './index';
import { mulberry32 } from '../../../test/simulation';

const IPN_SECRET = 'ipn-secret-for-tests-0123456789';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const uc = (p: string) => `/api/uc/v1/account${p}`;

let fake: FakeNowPayments;
let t: TestApp;
const logs: string[] = [];

function env(over: Record<string, string> = {}): Record<string, string> {
  return {
    PAYMENTS: 'nowpayments',
    NOWPAYMENTS_API_KEY: FAKE_API_KEY,
    NOWPAYMENTS_IPN_SECRET: IPN_SECRET,
    NOWPAYMENTS_EMAIL: FAKE_EMAIL,
    NOWPAYMENTS_PASSWORD: FAKE_PASSWORD,
    NOWPAYMENTS_2FA_SECRET: FAKE_TOTP_SECRET,
    NOWPAYMENTS_BASE_URL: fake.baseUrl,
    NOWPAYMENTS_CURRENCIES: 'usdttrc20,usdterc20,btc,xrp,doge',
    ...over,
  };
}

beforeAll(async () => {
  fake = await startFakeNowPayments();
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  t = await createTestApp(env(), { logStream: sink });
  fake.now = () => t.clock.now(); // 2FA codes are made on the app's clock
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const provider = () => t.app.ctx.services.provider as NowPaymentsProvider;
const db = () => t.app.ctx.database.db;
const assets = async (user: TestUser) => (await t.call(uc('/assets'), { user_id: user.id }, user.token)).body.data.asset;
const detail = async (user: TestUser, billId: string) =>
  (await t.call(uc('/deposit/bill/detail'), { user_id: user.id, bill_id: billId }, user.token)).body.data.bill;

async function deposit(user: TestUser, points: string, currency = 'usdttrc20') {
  const res = await t.call(uc('/deposit'), { amount: points, pay_currency: currency }, user.token);
  expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
  return res.body.data.bill as { id: string; address: string; currency_amount: string; status: string };
}

/** The ledger and its reconciliation with the bills hold (ledger.verify.ts). */
async function verifyLedgerOk() {
  expect(await ledgerViolations(t)).toEqual([]);
}

async function paymentOf(billId: string): Promise<string> {
  const [row] = await db().select().from(nowpaymentsPayments).where(eq(nowpaymentsPayments.billId, billId));
  return row!.paymentId;
}

/** Posts an IPN body as the gateway does: JSON, signed unless `signature` says otherwise. */
function ipn(body: object, signature: string | null = ipnSignature(body, IPN_SECRET)) {
  return t.app.inject({
    method: 'POST',
    url: IPN_PATH,
    headers: { 'content-type': 'application/json', ...(signature !== null ? { 'x-nowpayments-sig': signature } : {}) },
    payload: JSON.stringify(body),
  });
}

describe('IPN signatures', () => {
  it('are HMAC-SHA512 of the JSON with keys sorted at every level', () => {
    const body = { payment_status: 'finished', b: 1, a: { d: 2, c: 3 } };
    expect(JSON.stringify(sortKeysDeep(body))).toBe('{"a":{"c":3,"d":2},"b":1,"payment_status":"finished"}');
    const expected = createHmac('sha512', 'k').update('{"a":{"c":3,"d":2},"b":1,"payment_status":"finished"}').digest('hex');
    expect(ipnSignature(body, 'k')).toBe(expected);
    expect(verifyIpnSignature(body, expected, 'k')).toBe(true);
    expect(verifyIpnSignature(body, expected.toUpperCase(), 'k')).toBe(true);
    expect(verifyIpnSignature({ ...body, b: 2 }, expected, 'k')).toBe(false);
    expect(verifyIpnSignature(body, expected, 'other')).toBe(false);
    expect(verifyIpnSignature(body, 'abc', 'k')).toBe(false);
    expect(verifyIpnSignature(body, undefined, 'k')).toBe(false);
  });
});

describe('status mapping', () => {
  it("maps every payment_status to Coffer's deposit status", () => {
    const table = Object.fromEntries(
      [
        'waiting',
        'confirming',
        'confirmed',
        'sending',
        'partially_paid',
        'finished',
        'failed',
        'refunded',
        'expired',
        'something_new',
      ].map((s) => [s, mapPaymentStatus(s)]),
    );
    expect(table).toEqual({
      waiting: { depositStatus: DepositStatus.Processing, credit: false, final: false },
      confirming: { depositStatus: DepositStatus.Processing, credit: false, final: false },
      confirmed: { depositStatus: DepositStatus.Processing, credit: false, final: false },
      sending: { depositStatus: DepositStatus.Processing, credit: false, final: false },
      partially_paid: { depositStatus: DepositStatus.Success, credit: true, final: false },
      finished: { depositStatus: DepositStatus.Success, credit: true, final: true },
      failed: { depositStatus: DepositStatus.Expired, credit: false, final: true },
      refunded: { depositStatus: DepositStatus.Expired, credit: false, final: true },
      expired: { depositStatus: DepositStatus.Expired, credit: false, final: true },
      something_new: { depositStatus: DepositStatus.Processing, credit: false, final: false },
    });
  });

  it('maps payout statuses to payout outcomes', () => {
    expect(mapPayoutStatus({ status: 'FINISHED', hash: '0xabc' })).toEqual({ status: 'success', txid: '0xabc' });
    expect(mapPayoutStatus({ status: 'REJECTED', error: 'Bad address' })).toEqual({ status: 'failed', reason: 'Bad address' });
    expect(mapPayoutStatus({ status: 'FAILED' })).toEqual({ status: 'failed', reason: 'The gateway reports the payout failed' });
    for (const s of ['CREATING', 'WAITING', 'PROCESSING', 'SENDING'])
      expect(mapPayoutStatus({ status: s }).status).toBe('pending');
  });
});

describe('currencies and deposits', () => {
  it('lists the configured, enabled gateway currencies with their patterns and memo rules', async () => {
    const res = await t.call(uc('/currency/list'), {});
    const list = res.body.data.currencies as { code: string }[];
    expect(list.map((c) => c.code)).toEqual(['usdttrc20', 'usdterc20', 'btc', 'xrp']); // doge is disabled at the gateway
    expect(list[0]).toMatchObject({
      symbol: 'USDT',
      network: 'TRX',
      wallet_regex: '^T[1-9A-HJ-NP-Za-km-z]{33}$',
      extra_id_exists: false,
      extra_id_regex: null,
      fiatEquivalent: '10.00',
    });
    expect(list[3]).toMatchObject({ symbol: 'XRP', network: 'XRP', extra_id_exists: true, extra_id_regex: '^[0-9]{1,10}$' });
    const min = await t.call(uc('/deposit/min-amount'), { currency_from: 'usdttrc20' });
    expect(min.body.data.result).toEqual({ min_amount: '150.00', currency_min_amount: '1.50000000', fiat_equivalent: '1.50' });
    const btc = await t.call(uc('/deposit/min-amount'), { currency_from: 'btc' });
    expect(btc.body.data.result).toEqual({ min_amount: '600.00', currency_min_amount: '0.00010000', fiat_equivalent: '6.00' });
  });

  it('creates one gateway payment per bill and shows its pay_address', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '2500');
    const payment = fake.payments.get(await paymentOf(bill.id))!;
    expect(payment).toMatchObject({
      order_id: bill.id,
      pay_currency: 'usdttrc20',
      price_currency: 'usdttrc20',
      price_amount: 25,
      pay_address: bill.address,
    });
    expect(bill.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  });
});

describe('IPN', () => {
  it('credits a finished payment once, however often the IPN is replayed', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '2500');
    const id = await paymentOf(bill.id);
    const confirming = await ipn(fake.update(id, { payment_status: 'confirming', actually_paid: 25 }));
    expect(confirming.statusCode).toBe(200);
    expect((await detail(user, bill.id)).status).toBe('DepositStatusProcessing');
    const finished = fake.update(id, { payment_status: 'finished', actually_paid: 25 });
    for (let i = 0; i < 3; i++) expect((await ipn(finished)).statusCode).toBe(200);
    await Promise.all([ipn(finished), ipn(finished), ipn(finished)]);
    expect(await detail(user, bill.id)).toMatchObject({
      status: 'DepositStatusSuccess',
      credited_amount: '2500.00',
      paid_currency_amount: '25.00000000',
    });
    expect((await assets(user)).available).toBe('2500.00');
    expect(await t.app.ctx.services.deposits.payments(bill.id)).toHaveLength(1);
    const [row] = await db().select().from(nowpaymentsPayments).where(eq(nowpaymentsPayments.paymentId, id));
    expect(row!.status).toBe('finished');
  });

  it('ignores and logs an IPN with a bad or missing signature, changing nothing', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1000');
    const id = await paymentOf(bill.id);
    const body = fake.update(id, { payment_status: 'finished', actually_paid: 10 });
    const forged = await ipn(body, ipnSignature(body, 'not-the-secret'));
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ reason: 'UNAUTHORIZED' });
    const tampered = await ipn({ ...body, actually_paid: 1000 }, ipnSignature(body, IPN_SECRET));
    expect(tampered.statusCode).toBe(401);
    const unsigned = await ipn(body, null);
    expect(unsigned.statusCode).toBe(401);
    expect((await detail(user, bill.id)).status).toBe('DepositStatusProcessing');
    expect((await assets(user)).available).toBe('0.00');
    const [row] = await db().select().from(nowpaymentsPayments).where(eq(nowpaymentsPayments.paymentId, id));
    expect(row!.status).toBe('waiting');
    expect(logs.filter((l) => l.includes('IPN with a missing or bad signature ignored')).length).toBeGreaterThanOrEqual(3);
  });

  it('credits a partially paid payment at the amount actually paid', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '2000');
    const id = await paymentOf(bill.id);
    await ipn(fake.update(id, { payment_status: 'partially_paid', actually_paid: 12.5 }));
    expect(await detail(user, bill.id)).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '1250.00' });
  });

  it('credits the rest when a partially paid payment is finished later: 4 then 10 credits 10 in all, once', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1000'); // 10 USDT
    const id = await paymentOf(bill.id);
    await ipn(fake.update(id, { payment_status: 'partially_paid', actually_paid: 4 }));
    expect(await detail(user, bill.id)).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '400.00', paid_currency_amount: '4.00000000' });
    // Still polled: the rest may arrive.
    const finished = fake.update(id, { payment_status: 'finished', actually_paid: 10 });
    expect(await provider().pollOpenPayments()).toBeGreaterThanOrEqual(1);
    // The IPN of the same report, twice and at once, and the poller again: nothing more.
    await Promise.all([ipn(finished), ipn(finished)]);
    await provider().pollOpenPayments();
    expect(await detail(user, bill.id)).toMatchObject({ credited_amount: '1000.00', paid_currency_amount: '10.00000000' });
    expect((await assets(user)).available).toBe('1000.00');
    const refs = (await t.app.ctx.services.deposits.payments(bill.id)).map((p) => [p.paymentRef, String(Number(p.currencyAmount))]);
    expect(refs).toEqual([
      [`nowpayments:${id}:4`, '4'],
      [`nowpayments:${id}:10`, '6'],
    ]);
    const [row] = await db().select().from(nowpaymentsPayments).where(eq(nowpaymentsPayments.paymentId, id));
    expect(row!.status).toBe('finished');
    await verifyLedgerOk();
  });

  it('credits a running total once whatever the order: finished before a late partially_paid, and a lower report', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1000');
    const id = await paymentOf(bill.id);
    const partial = fake.update(id, { payment_status: 'partially_paid', actually_paid: 4 });
    const finished = fake.update(id, { payment_status: 'finished', actually_paid: 10 });
    await ipn(finished);
    await ipn(partial); // late: below what arrived, credits nothing, never moves the status back
    await Promise.all([ipn(partial), ipn(finished)]);
    expect(await detail(user, bill.id)).toMatchObject({ credited_amount: '1000.00', paid_currency_amount: '10.00000000' });
    expect(await t.app.ctx.services.deposits.payments(bill.id)).toHaveLength(1);
    const [row] = await db().select().from(nowpaymentsPayments).where(eq(nowpaymentsPayments.paymentId, id));
    expect(row!.status).toBe('finished');
    // Two growing reports racing each other: 4 and 10 at once still credit 10 in all.
    const other = await createUser(t);
    const second = await deposit(other, '1000');
    const sid = await paymentOf(second.id);
    await Promise.all([
      ipn(fake.update(sid, { payment_status: 'partially_paid', actually_paid: 4 })),
      ipn(fake.update(sid, { payment_status: 'finished', actually_paid: 10 })),
    ]);
    expect((await assets(other)).available).toBe('1000.00');
    await verifyLedgerOk();
  });

  it('credits nothing for failed or expired payments', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '2000');
    const id = await paymentOf(bill.id);
    await ipn(fake.update(id, { payment_status: 'failed', actually_paid: 0 }));
    await ipn(fake.update(id, { payment_status: 'expired' }));
    expect((await detail(user, bill.id)).status).toBe('DepositStatusProcessing');
    expect((await assets(user)).available).toBe('0.00');
  });

  it('makes up for a lost IPN by polling open payments', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '500');
    fake.update(await paymentOf(bill.id), { payment_status: 'finished', actually_paid: 5 });
    expect(await provider().pollOpenPayments()).toBeGreaterThanOrEqual(1);
    expect((await detail(user, bill.id)).status).toBe('DepositStatusSuccess');
    expect((await assets(user)).available).toBe('500.00');
    expect(await provider().pollOpenPayments()).toBe(0);
  });
});

/**
 * One rule for a payment that arrives in parts (docs/payments.md "Late, partial and over-payments"),
 * under seeded report schedules: the gateway's running total grows in 1-4 steps (partially_paid,
 * then finished, sometimes above the price); each report is delivered by IPN or by the poller,
 * lost, repeated, late (after a higher one) or at once with another. After the schedule the poller
 * runs once more. Every run must end with exactly the final total credited (1 USDT = 100 points),
 * one payment row per total that added something, and the ledger and its reconciliation sound.
 * A failing run names its seed.
 */
describe('partial payments under report schedules', () => {
  const RUNS = Number(process.env.DEPOSIT_REPORT_RUNS ?? 40);
  it(`credits exactly the final running total in ${RUNS} seeded schedules`, async () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const rnd = mulberry32(seed);
      const user = await createUser(t);
      const bill = await deposit(user, '1000'); // 10 USDT
      const id = await paymentOf(bill.id);
      // Totals in cents of USDT, growing; the last may be above the price (an over-payment).
      const steps = 1 + Math.floor(rnd() * 4);
      const totals: number[] = [];
      let cents = 0;
      for (let i = 0; i < steps; i++) {
        cents += 1 + Math.floor(rnd() * (i === steps - 1 ? 800 : 400));
        totals.push(cents);
      }
      const reports = totals.map((c, i) => ({
        payment_status: i === steps - 1 && c >= 1000 ? 'finished' : 'partially_paid',
        actually_paid: c / 100,
      }));
      // The deliveries: each report lost, once or twice, by IPN or poll; then shuffled.
      const deliveries: { report: (typeof reports)[number]; via: 'ipn' | 'poll' }[] = [];
      for (const report of reports) {
        const copies = rnd() < 0.2 ? 0 : rnd() < 0.3 ? 2 : 1;
        for (let k = 0; k < copies; k++) deliveries.push({ report, via: rnd() < 0.7 ? 'ipn' : 'poll' });
      }
      for (let i = deliveries.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
      }
      const deliver = async (d: (typeof deliveries)[number]) => {
        if (d.via === 'ipn') {
          const res = await ipn({ ...fake.update(id, {}), ...d.report });
          expect(res.statusCode, `seed ${seed}`).toBe(200);
        } else {
          fake.update(id, d.report);
          await provider().pollOpenPayments();
        }
      };
      for (let i = 0; i < deliveries.length; i++) {
        // Now and then two at once.
        if (rnd() < 0.25 && i + 1 < deliveries.length) {
          await Promise.all([deliver(deliveries[i]!), deliver(deliveries[i + 1]!)]);
          i++;
        } else await deliver(deliveries[i]!);
      }
      // The gateway's last word, found by the poller whatever was lost.
      fake.update(id, reports[reports.length - 1]!);
      await provider().pollOpenPayments();
      const final = totals[totals.length - 1]!;
      const view = await detail(user, bill.id);
      expect(view.credited_amount, `seed ${seed}: totals ${totals.join(',')}`).toBe(final.toFixed(2));
      expect(Number(view.paid_currency_amount), `seed ${seed}`).toBe(final / 100);
      expect((await assets(user)).available, `seed ${seed}`).toBe(final.toFixed(2));
      const rows = await t.app.ctx.services.deposits.payments(bill.id);
      expect(new Set(rows.map((r) => r.paymentRef)).size, `seed ${seed}`).toBe(rows.length);
      expect(rows.length, `seed ${seed}`).toBeLessThanOrEqual(totals.length);
    }
    await verifyLedgerOk();
  }, 300_000); // 40 schedules through the real app: well under 60 s when quiet, more under CI's load
});

describe('IPN cross-checks (a mismatch is recorded for review and credits nothing)', () => {
  const reviewsOf = async (gatewayId: string) =>
    db().select().from(nowpaymentsReviews).where(eq(nowpaymentsReviews.gatewayId, gatewayId));

  it('refuses a report whose pay_currency is not the bill’s', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '2500');
    const id = await paymentOf(bill.id);
    const body = fake.update(id, { payment_status: 'finished', actually_paid: 25, pay_currency: 'usdterc20' });
    expect((await ipn(body)).statusCode).toBe(200);
    expect((await ipn(body)).statusCode).toBe(200);
    expect((await detail(user, bill.id)).status).toBe('DepositStatusProcessing');
    expect((await assets(user)).available).toBe('0.00');
    const reviews = await reviewsOf(id);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({ kind: 'payment', billId: bill.id, reason: 'currency_mismatch' });
    expect(reviews[0]!.detail).toContain('usdterc20');
    const [row] = await db().select().from(nowpaymentsPayments).where(eq(nowpaymentsPayments.paymentId, id));
    expect(row!.status).toBe('review');
    expect(logs.some((l) => l.includes('nowpayments: review') && l.includes(id))).toBe(true);
  });

  it('refuses a report with an unknown payment id, even naming a real bill', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '2500');
    const id = await paymentOf(bill.id);
    const forged = { ...fake.update(id, { payment_status: 'finished', actually_paid: 25 }), payment_id: '4999999999' };
    expect((await ipn(forged)).statusCode).toBe(200);
    expect((await assets(user)).available).toBe('0.00');
    expect(await reviewsOf('4999999999')).toMatchObject([{ reason: 'unknown_payment', billId: null }]);
  });

  it('refuses a report whose payment id belongs to another bill', async () => {
    const payer = await createUser(t);
    const other = await createUser(t);
    const small = await deposit(payer, '200');
    const big = await deposit(other, '50000');
    const smallId = await paymentOf(small.id);
    // The small bill's payment, finished, but naming the big bill as its order.
    const body = { ...fake.update(smallId, { payment_status: 'finished', actually_paid: 500 }), order_id: big.id };
    expect((await ipn(body)).statusCode).toBe(200);
    expect((await assets(payer)).available).toBe('0.00');
    expect((await assets(other)).available).toBe('0.00');
    expect((await detail(other, big.id)).status).toBe('DepositStatusProcessing');
    expect(await reviewsOf(smallId)).toMatchObject([{ reason: 'other_bill', billId: small.id }]);
  });

  it('credits a duplicated IPN once, and the poller after it nothing more', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '700');
    const id = await paymentOf(bill.id);
    const body = fake.update(id, { payment_status: 'finished', actually_paid: 7 });
    const answers = await Promise.all([ipn(body), ipn(body), ipn(body), ipn(body)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    await provider().pollOpenPayments();
    expect((await assets(user)).available).toBe('700.00');
    expect(await t.app.ctx.services.deposits.payments(bill.id)).toHaveLength(1);
    expect(await reviewsOf(id)).toHaveLength(0);
  });

  it('credits a late BTC payment at the lower of the quote and the gateway price on arrival', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1200', 'btc'); // 12 USD at 60000 -> 0.0002 BTC
    expect(bill.currency_amount).toBe('0.00020000');
    const id = await paymentOf(bill.id);
    t.clock.advance(1_800_001 + 60_000); // past the bill's expiry and the price cache
    fake.prices.btc = 40_000;
    try {
      await ipn(fake.update(id, { payment_status: 'finished', actually_paid: 0.0002 }));
    } finally {
      fake.prices.btc = 60_000;
      t.clock.advance(60_000);
    }
    // 0.0002 BTC x 40000 x 100 = 800.00
    expect(await detail(user, bill.id)).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '800.00' });
  });
});

describe('payouts', () => {
  async function confirmedWithdrawal(points: string, address = TRON) {
    const user = await createUser(t);
    await fund(t, user.id, points);
    const created = await t.call(
      uc('/withdraw/create'),
      { user_id: user.id, currency: 'usdttrc20', network: 'TRX', amount: points, address, memo: '' },
      user.token,
    );
    expect(created.body.code, JSON.stringify(created.body)).toBe(10000);
    const confirmed = await t.call(
      uc('/withdraw/confirm'),
      { bill_id: created.body.data.bill.id, password: md5(PASSWORD) },
      user.token,
    );
    expect(confirmed.body.code, JSON.stringify(confirmed.body)).toBe(10000);
    return { user, bill: confirmed.body.data.bill as { id: string; currency_amount: string; fee_fiat: string } };
  }
  const withdrawDetail = async (user: TestUser, id: string) =>
    (await t.call(uc('/withdraw/bill/detail'), { user_id: user.id, bill_id: id }, user.token)).body.data.bill;
  const payouts = () => t.app.ctx.services.withdrawals;

  it('asks the gateway for the fee', async () => {
    const user = await createUser(t);
    const res = await t.call(uc('/withdraw/estimate/fee'), { currency: 'usdttrc20', amount: '2000' }, user.token);
    expect(res.body.data.result).toEqual({ amount: '2000.00', fee: '1.50000000', fiat_equivalent: '1.50' });
  });

  it('requests the payout once with a JWT, verifies it with the 2FA code, and settles when the gateway finishes it', async () => {
    const { user, bill } = await confirmedWithdrawal('2000');
    expect(bill.currency_amount).toBe('18.50000000');
    await payouts().runPayouts(50);
    const [row] = await db().select().from(nowpaymentsPayouts).where(eq(nowpaymentsPayouts.payoutId, bill.id));
    expect(row).toMatchObject({ batchId: expect.any(String), withdrawalId: expect.any(String), verifiedAt: expect.any(Date) });
    const batch = fake.payouts.get(row!.batchId!)!;
    expect(batch.withdrawals[0]).toMatchObject({
      address: TRON,
      currency: 'usdttrc20',
      amount: '18.5',
      unique_external_id: bill.id,
      verified: true,
    });

    // A retry of the same payout (a crash before the bill was updated) asks nothing new of the gateway.
    await provider().sendPayout({
      payoutId: bill.id,
      currency: 'usdttrc20',
      network: 'TRX',
      address: TRON,
      memo: '',
      currencyAmount: bill.currency_amount,
    });
    expect([...fake.payouts.values()].filter((p) => p.withdrawals[0]!.unique_external_id === bill.id)).toHaveLength(1);

    const finished = fake.settleWithdrawal(row!.withdrawalId!, { status: 'FINISHED', hash: 'tron-tx-hash-1' });
    expect((await ipn(finished)).statusCode).toBe(200);
    t.clock.advance(20_000);
    await payouts().runPayouts(50);
    expect(await withdrawDetail(user, bill.id)).toMatchObject({ status: 'WithdrawStatusSuccess', txid: 'tron-tx-hash-1' });
    expect(await assets(user)).toMatchObject({ available: '0.00', freeze: '0.00' });
    expect(fake.requests.filter((r) => r === 'POST /v1/auth').length).toBeGreaterThanOrEqual(1);
  });

  it('refunds a payout the gateway refuses or fails', async () => {
    fake.balance = 5;
    try {
      const refused = await confirmedWithdrawal('2000');
      await payouts().runPayouts(50);
      expect(await withdrawDetail(refused.user, refused.bill.id)).toMatchObject({
        status: 'WithdrawStatusRefunded',
        failure_reason: 'Insufficient balance',
      });
      expect(await assets(refused.user)).toMatchObject({ available: '2000.00', freeze: '0.00' });
    } finally {
      fake.balance = 1000;
    }
    const failing = await confirmedWithdrawal('1500');
    await payouts().runPayouts(50);
    const [row] = await db().select().from(nowpaymentsPayouts).where(eq(nowpaymentsPayouts.payoutId, failing.bill.id));
    fake.settleWithdrawal(row!.withdrawalId!, { status: 'FAILED', error: 'Node rejected the transfer' });
    t.clock.advance(20_000);
    await payouts().runPayouts(50);
    expect(await withdrawDetail(failing.user, failing.bill.id)).toMatchObject({
      status: 'WithdrawStatusRefunded',
      failure_reason: 'Node rejected the transfer',
    });
    expect(await assets(failing.user)).toMatchObject({ available: '1500.00', freeze: '0.00' });
  });
});

describe('payouts under gateway faults (exactly once)', () => {
  async function confirmedWithdrawal(points: string) {
    const user = await createUser(t);
    await fund(t, user.id, points);
    const created = await t.call(
      uc('/withdraw/create'),
      { user_id: user.id, currency: 'usdttrc20', network: 'TRX', amount: points, address: TRON, memo: '' },
      user.token,
    );
    expect(created.body.code, JSON.stringify(created.body)).toBe(10000);
    const confirmed = await t.call(
      uc('/withdraw/confirm'),
      { bill_id: created.body.data.bill.id, password: md5(PASSWORD) },
      user.token,
    );
    expect(confirmed.body.code, JSON.stringify(confirmed.body)).toBe(10000);
    return { user, bill: confirmed.body.data.bill as { id: string; currency_amount: string } };
  }
  const payouts = () => t.app.ctx.services.withdrawals;
  const withdrawDetail = async (user: TestUser, id: string) =>
    (await t.call(uc('/withdraw/bill/detail'), { user_id: user.id, bill_id: id }, user.token)).body.data.bill;
  const payoutRow = async (id: string) =>
    (await db().select().from(nowpaymentsPayouts).where(eq(nowpaymentsPayouts.payoutId, id)))[0]!;
  /** Runs payout passes (the clock moved past the lease each time) until the bill leaves processing or `passes` run out. */
  async function drive(user: TestUser, id: string, passes = 10) {
    for (let i = 0; i < passes; i++) {
      t.clock.advance(61_000);
      await payouts().runPayouts(50);
      if ((await withdrawDetail(user, id)).status !== 'WithdrawStatusProcessing') break;
    }
    return withdrawDetail(user, id);
  }

  it('a payout created at the gateway whose answer was lost is found by its external id, not created again', async () => {
    const { user, bill } = await confirmedWithdrawal('2000');
    fake.fault('POST /v1/payout', 'lose-answer');
    await payouts().runPayouts(50);
    expect(fake.withdrawalsFor(bill.id)).toHaveLength(1); // the gateway acted
    expect((await payoutRow(bill.id)).batchId).toBeNull(); // Coffer never heard
    t.clock.advance(61_000);
    await payouts().runPayouts(50);
    const row = await payoutRow(bill.id);
    expect(row).toMatchObject({
      attempts: 1,
      batchId: fake.withdrawalsFor(bill.id)[0]!.batch_withdrawal_id,
      verifiedAt: expect.any(Date),
    });
    expect(fake.requests).toContain('GET /v1/payout');
    fake.settleWithdrawal(row.withdrawalId!, { status: 'FINISHED', hash: 'tron-lost-answer' });
    expect(await drive(user, bill.id)).toMatchObject({ status: 'WithdrawStatusSuccess', txid: 'tron-lost-answer' });
    expect(fake.withdrawalsFor(bill.id)).toHaveLength(1);
    expect(await assets(user)).toMatchObject({ available: '0.00', freeze: '0.00' });
  });

  it('a request delivered twice (the second refused as a duplicate) is adopted, never refunded', async () => {
    const { user, bill } = await confirmedWithdrawal('1500');
    fake.fault('POST /v1/payout', 'twice');
    await payouts().runPayouts(50);
    expect(fake.withdrawalsFor(bill.id)).toHaveLength(1);
    const row = await payoutRow(bill.id);
    expect(row.batchId).toBe(fake.withdrawalsFor(bill.id)[0]!.batch_withdrawal_id);
    expect((await withdrawDetail(user, bill.id)).status).toBe('WithdrawStatusProcessing');
    expect(await assets(user)).toMatchObject({ available: '0.00', freeze: '1500.00' });
    fake.settleWithdrawal(row.withdrawalId!, { status: 'FINISHED', hash: 'tron-twice' });
    expect(await drive(user, bill.id)).toMatchObject({ status: 'WithdrawStatusSuccess', txid: 'tron-twice' });
  });

  it('waits before asking again after a lost answer, and a refused retry is held for review, not refunded', async () => {
    const { user, bill } = await confirmedWithdrawal('1200');
    fake.fault('POST /v1/payout', 'fail'); // refused before acting, but Coffer cannot know that
    await payouts().runPayouts(50);
    expect(await payoutRow(bill.id)).toMatchObject({ attempts: 1, batchId: null });
    t.clock.advance(61_000);
    await payouts().runPayouts(50); // within the grace period: looked up, nothing asked
    expect(await payoutRow(bill.id)).toMatchObject({ attempts: 1 });
    fake.balance = 1;
    try {
      t.clock.advance(5 * 60_000);
      await payouts().runPayouts(50); // past it: asked again, refused for the balance
    } finally {
      fake.balance = 1000;
    }
    expect(await payoutRow(bill.id)).toMatchObject({
      attempts: 2,
      status: 'held',
      error: 'A retry was refused: Insufficient balance',
    });
    expect(await drive(user, bill.id, 3)).toMatchObject({ status: 'WithdrawStatusProcessing', failure_reason: null });
    expect(await assets(user)).toMatchObject({ available: '0.00', freeze: '1200.00' });
    expect(fake.withdrawalsFor(bill.id)).toHaveLength(0);
    expect(logs.some((l) => l.includes('held for review') && l.includes(bill.id))).toBe(true);
    // Held for good: moved out of later runs' way on a reused PostgreSQL database.
    await db().update(withdrawBills).set({ provider: 'held-in-an-earlier-run' }).where(eq(withdrawBills.id, bill.id));
  });

  it('a late or replayed payout IPN never moves a final status back', async () => {
    const { user, bill } = await confirmedWithdrawal('1100');
    await payouts().runPayouts(50);
    const row = await payoutRow(bill.id);
    const finished = fake.settleWithdrawal(row.withdrawalId!, { status: 'FINISHED', hash: 'tron-final' });
    const sending = { ...finished, status: 'SENDING' };
    expect((await ipn(finished)).statusCode).toBe(200);
    expect((await ipn(sending)).statusCode).toBe(200);
    expect((await payoutRow(bill.id)).status).toBe('finished');
    expect(await drive(user, bill.id)).toMatchObject({ status: 'WithdrawStatusSuccess', txid: 'tron-final' });
  });
});

describe('configuration', () => {
  it('needs the API key and IPN secret, and keeps them out of the configuration', () => {
    expect(() => loadConfig({ PAYMENTS: 'nowpayments' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYMENTS: 'nowpayments', NOWPAYMENTS_API_KEY: 'k' })).toThrow(/NOWPAYMENTS_IPN_SECRET: required/);
    const config = loadConfig(env());
    expect(JSON.stringify(config)).not.toContain(IPN_SECRET);
    expect(JSON.stringify(config)).not.toContain(FAKE_PASSWORD);
    expect(config.nowpayments!.ipnUrl).toBe(`${config.publicUrl}${IPN_PATH}`);
  });

  it('registers the IPN route only in nowpayments mode', () => {
    expect(t.app.ctx.routes.some((r) => r.url === IPN_PATH)).toBe(true);
  });
});

export type { GatewayPayment };

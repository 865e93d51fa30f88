import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ledgerEntries, ledgerTransactions, records, sandboxPayouts, withdrawBills } from '../../db/schema/index';
import { createTestApp, createUser, fund, md5, PASSWORD, topUp, type TestApp, type TestUser } from '../../test/harness';
import { createScratchDatabase, type ScratchDatabase } from '../../test/scratch-database';
import { createWorkerRunner } from '../../worker-runner';
import { withdrawalInFlightGuard } from '../../services';
import { verifyLedger } from '../ledger/ledger.verify';

let t: TestApp;
let scratch: ScratchDatabase | undefined;
beforeAll(async () => {
  // Payout passes claim every due bill of the rail: on PostgreSQL a database of its own, so another
  // test file's pass never pays (and this file's counts never miss) one of these bills. PGlite: in memory.
  scratch = await createScratchDatabase('coffer_withdrawals');
  t = await createTestApp(scratch ? { DATABASE_URL: scratch.url } : {});
});
afterAll(async () => {
  await t.close();
  await scratch?.drop();
});

const uc = (p: string) => `/api/uc/v1/account${p}`;
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const EVM_DEAD = '0x000000000000000000000000000000000000dEaD';
const TON = `UQ${'A'.repeat(46)}`;

const services = () => t.app.ctx.services;
const db = () => t.app.ctx.database.db;

async function funded(points: string): Promise<TestUser> {
  const user = await createUser(t);
  await fund(t, user.id, points);
  return user;
}
const assets = async (user: TestUser) => (await t.call(uc('/assets'), { user_id: user.id }, user.token)).body.data.asset;

async function create(user: TestUser, over: Record<string, unknown> = {}) {
  return t.call(
    uc('/withdraw/create'),
    { user_id: user.id, currency: 'usdttrc20', network: 'TRX', amount: '2500', address: TRON, memo: '', ...over },
    user.token,
  );
}
async function created(user: TestUser, over: Record<string, unknown> = {}) {
  const res = await create(user, over);
  expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
  return res.body.data.bill;
}
const confirm = (user: TestUser, billId: string, password = PASSWORD) =>
  t.call(uc('/withdraw/confirm'), { bill_id: billId, password: md5(password) }, user.token);
async function confirmed(user: TestUser, over: Record<string, unknown> = {}) {
  const bill = await created(user, over);
  const res = await confirm(user, bill.id);
  expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
  return res.body.data.bill;
}
const detail = async (user: TestUser, billId: string) =>
  (await t.call(uc('/withdraw/bill/detail'), { user_id: user.id, bill_id: billId }, user.token)).body.data.bill;
async function cashOutRecords(billId: string) {
  return db()
    .select()
    .from(records)
    .where(and(eq(records.bizId, billId), eq(records.type, 'CashOut')));
}
/** Runs payout passes until this bill is final (other bills in the database may be claimed too). */
async function drain() {
  for (let i = 0; i < 10; i++) {
    const s = await services().withdrawals.runPayouts(50);
    if (s.claimed === 0) return;
  }
}

describe('withdraw/estimate/fee', () => {
  it('answers the amount in points, the fee in the currency and in USD', async () => {
    const user = await createUser(t);
    const res = await t.call(uc('/withdraw/estimate/fee'), { currency: 'usdttrc20', amount: '2500.12345678' }, user.token);
    expect(res.body.data).toEqual({ result: { amount: '2500.12', fee: '1.00000000', fiat_equivalent: '1.00' } });
    const eth = await t.call(uc('/withdraw/estimate/fee'), { currency: 'usdterc20', amount: '5000' }, user.token);
    expect(eth.body.data.result).toEqual({ amount: '5000.00', fee: '5.00000000', fiat_equivalent: '5.00' });
  });

  it("needs currency and amount: 'currency & amount required'; pays out USDT only", async () => {
    const user = await createUser(t);
    for (const body of [{}, { currency: 'usdttrc20' }, { amount: '100' }, { currency: '', amount: '100' }]) {
      const res = await t.call(uc('/withdraw/estimate/fee'), body, user.token);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'currency & amount required' });
    }
    const btc = await t.call(uc('/withdraw/estimate/fee'), { currency: 'btc', amount: '5000' }, user.token);
    expect(btc.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'Only USDT can be cashed out' });
    const zero = await t.call(uc('/withdraw/estimate/fee'), { currency: 'usdttrc20', amount: '0.001' }, user.token);
    expect(zero.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'The amount must be above 0' });
  });
});

describe('withdraw/create', () => {
  it('stores a pending bill (fee deducted from the crypto sent) without touching balances or records', async () => {
    const user = await funded('3000');
    const before = t.clock.now();
    const bill = await created(user);
    expect(bill).toEqual({
      id: expect.any(String),
      user_id: user.id,
      amount: '2500.00',
      amount_usd: '25.00',
      fee_fiat: '1.00',
      currency_amount: '24.00000000',
      currency: 'usdttrc20',
      network: 'TRX',
      address: TRON,
      memo: '',
      status: 'WithdrawStatusPending',
      created_at: String(before),
      expires_at: before + 900_000,
      txid: null,
      failure_reason: null,
    });
    expect(await assets(user)).toMatchObject({ available: '3000.00', freeze: '0.00' });
    expect(await cashOutRecords(bill.id)).toHaveLength(0);
  });

  it('keeps a memo for a memo currency and checks it', async () => {
    const user = await funded('3000');
    const missing = await create(user, { currency: 'usdtton', network: 'TON', address: TON, memo: '' });
    expect(missing.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'Memo required' });
    const bad = await create(user, { currency: 'usdtton', network: 'TON', address: TON, memo: 'no spaces!' });
    expect(bad.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'Invalid memo format' });
    const ok = await created(user, { currency: 'usdtton', network: 'TON', address: TON, memo: '123456' });
    expect(ok).toMatchObject({ memo: '123456', network: 'TON', fee_fiat: '0.30', currency_amount: '24.70000000' });
    const ignored = await created(user, { memo: 'not needed' });
    expect(ignored.memo).toBe('');
  });

  it('answers every precondition and rule with its message', async () => {
    const user = await funded('3000');
    const cases: [Record<string, unknown>, string][] = [
      [{ user_id: undefined }, 'user_id required'],
      [{ currency: undefined }, 'currency & amount required'],
      [{ amount: '' }, 'currency & amount required'],
      [{ address: undefined }, 'Address required'],
      [{ address: '  ' }, 'Address required'],
      [{ network: undefined }, 'Network required'],
      [{ address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6' }, 'Invalid address format'],
      [{ address: '0x0000000000000000000000000000000000000001' }, 'Invalid address format'],
      [{ network: 'ETH' }, 'The network does not match the currency'],
      [{ currency: 'btc', network: 'BTC' }, 'Only USDT can be cashed out'],
      [{ currency: 'xyz' }, 'Unsupported currency'],
      [{ amount: '999.99' }, 'Minimum amount is 10 USD'],
      [{ amount: 'ten' }, 'Amount must be a number with at most 8 decimals'],
    ];
    for (const [over, msg] of cases) {
      const res = await create(user, over);
      expect(res.status, msg).toBe(400);
      expect(res.body, msg).toMatchObject({ reason: 'VALIDATION_FAILED', msg });
    }
    const tooMuch = await create(user, { amount: '3000.01' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toMatchObject({ reason: 'INSUFFICIENT_BALANCE', msg: 'Insufficient balance' });
    const stranger = await createUser(t);
    const other = await create(stranger, { user_id: user.id });
    expect(other.status).toBe(404);
    expect(await assets(user)).toMatchObject({ available: '3000.00', freeze: '0.00' });
  });

  it('expires after 15 minutes unconfirmed', async () => {
    const user = await funded('3000');
    const bill = await created(user);
    t.clock.advance(900_000);
    expect((await detail(user, bill.id)).status).toBe('WithdrawStatusExpired');
    const late = await confirm(user, bill.id);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ reason: 'CONFLICT', msg: 'This withdrawal has expired. Please create a new one.' });
    expect(await assets(user)).toMatchObject({ available: '3000.00', freeze: '0.00' });
    const sweep = await created(user);
    t.clock.advance(900_000);
    expect(await services().withdrawals.expireDue()).toBeGreaterThanOrEqual(1);
    const [row] = await db().select().from(withdrawBills).where(eq(withdrawBills.id, sweep.id));
    expect(row?.status).toBe('WithdrawStatusExpired');
  });
});

describe('withdraw/confirm', () => {
  it('freezes the amount, sets processing and writes the CashOut/Outgoing/Pending record', async () => {
    const user = await funded('3000');
    const bill = await created(user);
    const res = await confirm(user, bill.id);
    expect(res.body.data.bill).toMatchObject({ id: bill.id, amount: '2500.00', status: 'WithdrawStatusProcessing' });
    expect(await assets(user)).toMatchObject({ available: '500.00', freeze: '2500.00' });
    const recs = await cashOutRecords(bill.id);
    expect(recs).toHaveLength(1);
    expect(recs[0]).toMatchObject({ userId: user.id, direction: 'Outgoing', status: 'RecordStatusPending', amount: 250_000n });
  });

  it('a second confirm changes nothing and returns the same bill', async () => {
    const user = await funded('3000');
    const bill = await created(user);
    const first = await confirm(user, bill.id);
    const second = await confirm(user, bill.id);
    expect(second.body.code).toBe(10000);
    expect(second.body.data.bill).toEqual(first.body.data.bill);
    const concurrent = await Promise.all([confirm(user, bill.id), confirm(user, bill.id), confirm(user, bill.id)]);
    expect(concurrent.every((r) => r.body.data.bill.id === bill.id)).toBe(true);
    expect(await assets(user)).toMatchObject({ available: '500.00', freeze: '2500.00' });
    expect(await cashOutRecords(bill.id)).toHaveLength(1);
    const freezes = await db()
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.idempotencyKey, `withdraw-freeze:${bill.id}`));
    expect(freezes).toHaveLength(1);
  });

  it("refuses a wrong password without changing anything, and locks after 10 wrong passwords (the user's shared budget) for 15 minutes", async () => {
    const user = await funded('3000');
    const bill = await created(user);
    for (let i = 0; i < 10; i++) {
      const wrong = await confirm(user, bill.id, 'Wrong#1234');
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ reason: 'INVALID_CREDENTIALS', msg: 'Incorrect password' });
    }
    const locked = await confirm(user, bill.id);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({
      reason: 'RATE_LIMITED',
      msg: 'Too many wrong passwords. Please try again in 15 minutes.',
    });
    expect(await assets(user)).toMatchObject({ available: '3000.00', freeze: '0.00' });
    expect((await detail(user, bill.id)).status).toBe('WithdrawStatusPending');
    // The bill itself expires in the same 15 minutes: a new one confirms once the window has passed.
    t.clock.advance(15 * 60_000 + 1);
    const fresh = await created(user);
    expect((await confirm(user, fresh.id)).body.code).toBe(10000);
  });

  it("needs bill_id and password: 'bill_id required', 'Password required'", async () => {
    const user = await createUser(t);
    expect((await t.call(uc('/withdraw/confirm'), { password: md5(PASSWORD) }, user.token)).body).toMatchObject({
      reason: 'VALIDATION_FAILED',
      msg: 'bill_id required',
    });
    expect((await t.call(uc('/withdraw/confirm'), { bill_id: user.id }, user.token)).body).toMatchObject({
      reason: 'VALIDATION_FAILED',
      msg: 'Password required',
    });
    expect((await t.call(uc('/withdraw/confirm'), { bill_id: user.id, password: '' }, user.token)).body.msg).toBe(
      'Password required',
    );
  });

  it('refuses when the balance fell below the amount since create', async () => {
    const user = await funded('3000');
    const a = await created(user);
    const b = await created(user);
    expect((await confirm(user, a.id)).body.code).toBe(10000);
    const res = await confirm(user, b.id);
    expect(res.body).toMatchObject({ reason: 'INSUFFICIENT_BALANCE' });
    expect((await detail(user, b.id)).status).toBe('WithdrawStatusPending');
    expect(await assets(user)).toMatchObject({ available: '500.00', freeze: '2500.00' });
  });
});

describe('withdraw/bill/detail and ownership', () => {
  it('answers only the caller’s own bills', async () => {
    const owner = await funded('3000');
    const stranger = await funded('3000');
    const bill = await created(owner);
    expect((await detail(owner, bill.id)).id).toBe(bill.id);
    const res = await t.call(uc('/withdraw/bill/detail'), { user_id: stranger.id, bill_id: bill.id }, stranger.token);
    expect(res.status).toBe(404);
    expect((await t.call(uc('/withdraw/bill/detail'), { user_id: owner.id, bill_id: bill.id }, stranger.token)).body.reason).toBe(
      'NOT_FOUND',
    );
    const steal = await confirm(stranger, bill.id);
    expect(steal.body.reason).toBe('NOT_FOUND');
    expect((await detail(owner, bill.id)).status).toBe('WithdrawStatusPending');
    expect((await t.call(uc('/withdraw/bill/detail'), { bill_id: bill.id }, owner.token)).body.msg).toBe('user_id required');
    expect((await t.call(uc('/withdraw/bill/detail'), { user_id: owner.id }, owner.token)).body.msg).toBe('bill_id required');
  });
});

describe('payouts', () => {
  it('success: frozen debited (net to withdrawals, fee to fees), bill and record Success', async () => {
    const user = await funded('3000');
    const bill = await confirmed(user);
    await drain();
    const done = await detail(user, bill.id);
    expect(done).toMatchObject({ status: 'WithdrawStatusSuccess', txid: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await assets(user)).toMatchObject({ available: '500.00', freeze: '0.00' });
    expect((await cashOutRecords(bill.id))[0]?.status).toBe('RecordStatusSuccess');
    const [settle] = await db()
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.idempotencyKey, `withdraw-settle:${bill.id}`));
    const entries = await db().select().from(ledgerEntries).where(eq(ledgerEntries.transactionId, settle!.id));
    expect(entries.map((e) => e.amount).sort((a, b) => (a < b ? -1 : 1))).toEqual([-250_000n, 100n * 100n, 240_000n]);
  });

  it('failure: frozen returned, WithdrawStatusRefunded, record Refunded', async () => {
    const user = await funded('3000');
    const bill = await confirmed(user, { currency: 'usdterc20', network: 'ETH', address: EVM_DEAD, amount: '2000' });
    expect(await assets(user)).toMatchObject({ available: '1000.00', freeze: '2000.00' });
    await drain();
    const done = await detail(user, bill.id);
    expect(done).toMatchObject({ status: 'WithdrawStatusRefunded', failure_reason: expect.stringContaining('dead') });
    expect(await assets(user)).toMatchObject({ available: '3000.00', freeze: '0.00' });
    expect((await cashOutRecords(bill.id))[0]?.status).toBe('RecordStatusRefunded');
    await drain();
    expect(await assets(user)).toMatchObject({ available: '3000.00', freeze: '0.00' });
  });

  it('resumes after a crash between the claim and the provider call, paying once', async () => {
    const user = await funded('3000');
    const bill = await confirmed(user);
    const claimed = await services().withdrawals.claimPayouts(50);
    expect(claimed.map((b) => b.id)).toContain(bill.id);
    // ...the worker dies here. Its lease keeps other passes away until it runs out.
    await drain();
    expect((await detail(user, bill.id)).status).toBe('WithdrawStatusProcessing');
    t.clock.advance(60_000);
    await drain();
    expect((await detail(user, bill.id)).status).toBe('WithdrawStatusSuccess');
    expect(await db().select().from(sandboxPayouts).where(eq(sandboxPayouts.payoutId, bill.id))).toHaveLength(1);
    expect(await assets(user)).toMatchObject({ available: '500.00', freeze: '0.00' });
  });

  it('resumes after a crash between the provider call and saving its outcome, never paying twice', async () => {
    const user = await funded('3000');
    const bill = await confirmed(user);
    const claimed = (await services().withdrawals.claimPayouts(50)).find((b) => b.id === bill.id)!;
    const provider = services().provider;
    await provider.sendPayout({
      payoutId: claimed.id,
      currency: claimed.currency,
      network: claimed.network,
      address: claimed.address,
      memo: claimed.memo,
      currencyAmount: '24',
    });
    // ...the worker dies before it records the outcome. A restarted worker takes over after the lease.
    const send = vi.spyOn(provider, 'sendPayout');
    try {
      t.clock.advance(60_000);
      await drain();
      expect(send).toHaveBeenCalledWith(expect.objectContaining({ payoutId: bill.id }));
    } finally {
      send.mockRestore();
    }
    expect((await detail(user, bill.id)).status).toBe('WithdrawStatusSuccess');
    expect(await db().select().from(sandboxPayouts).where(eq(sandboxPayouts.payoutId, bill.id))).toHaveLength(1);
    const settles = await db()
      .select()
      .from(ledgerTransactions)
      .where(like(ledgerTransactions.idempotencyKey, `withdraw-settle:${bill.id}`));
    expect(settles).toHaveLength(1);
    expect(await assets(user)).toMatchObject({ available: '500.00', freeze: '0.00' });
  });

  it('two workers running at once settle each bill once', async () => {
    const user = await funded('6000');
    const a = await confirmed(user);
    const b = await confirmed(user);
    const [s1, s2] = await Promise.all([services().withdrawals.runPayouts(50), services().withdrawals.runPayouts(50)]);
    expect(s1.claimed + s2.claimed).toBeGreaterThanOrEqual(2);
    for (const bill of [a, b]) expect((await detail(user, bill.id)).status).toBe('WithdrawStatusSuccess');
    expect(await assets(user)).toMatchObject({ available: '1000.00', freeze: '0.00' });
  });

  it('a drain pays the whole queue in one pass, with at most the configured payouts in flight', async () => {
    const w = services().withdrawals;
    expect(w.payoutConcurrency).toBe(16);
    const user = await funded(String(2500 * 70));
    const bills = [];
    for (let i = 0; i < 70; i++) bills.push(await confirmed(user));
    const provider = services().provider;
    const real = provider.sendPayout.bind(provider);
    let inFlight = 0;
    let peak = 0;
    const sent = new Map<string, number>();
    const send = vi.spyOn(provider, 'sendPayout').mockImplementation(async (req) => {
      sent.set(req.payoutId, (sent.get(req.payoutId) ?? 0) + 1);
      peak = Math.max(peak, ++inFlight);
      try {
        await new Promise((r) => setTimeout(r, 2));
        return await real(req);
      } finally {
        inFlight--;
      }
    });
    try {
      // One drain pays every queued bill: none waits for a later tick.
      const s = await w.drainPayouts();
      expect(s.succeeded).toBeGreaterThanOrEqual(70);
    } finally {
      send.mockRestore();
    }
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(16);
    for (const bill of bills) {
      expect(sent.get(bill.id)).toBe(1);
      expect((await detail(user, bill.id)).status).toBe('WithdrawStatusSuccess');
    }
  });

  it('the worker wakes on a confirmed bill without waiting for its tick', async () => {
    const payouts = t.app.ctx.workers.find((w) => w.name === 'payouts')!;
    // An interval of an hour: only the wake-up can pay the bill within the test.
    const runner = createWorkerRunner([{ ...payouts, intervalMs: 3_600_000 }], t.app.log);
    runner.start();
    try {
      const user = await funded('3000');
      const bill = await confirmed(user);
      await vi.waitFor(async () => expect((await detail(user, bill.id)).status).toBe('WithdrawStatusSuccess'), {
        timeout: 5_000,
        interval: 20,
      });
    } finally {
      await runner.stop();
    }
  });

  it('a provider error leaves the bill claimed; a later pass completes it', async () => {
    const user = await funded('3000');
    const bill = await confirmed(user);
    const provider = services().provider;
    const send = vi.spyOn(provider, 'sendPayout').mockRejectedValueOnce(new Error('node unreachable'));
    try {
      const s = await services().withdrawals.runPayouts(50);
      expect(s.failedToRun).toBeGreaterThanOrEqual(1);
      expect((await detail(user, bill.id)).status).toBe('WithdrawStatusProcessing');
      t.clock.advance(60_000);
      await drain();
    } finally {
      send.mockRestore();
    }
    expect((await detail(user, bill.id)).status).toBe('WithdrawStatusSuccess');
  });

  it('a pending payout is asked about again later, and a stale pass cannot reopen a finished bill', async () => {
    const user = await funded('3000');
    const bill = await confirmed(user);
    const provider = services().provider;
    const send = vi.spyOn(provider, 'sendPayout').mockResolvedValue({ status: 'pending', txid: 'tx-pending' });
    const status = vi.spyOn(provider, 'payoutStatus').mockResolvedValue({ status: 'success', txid: 'tx-final' });
    try {
      const [claimed] = (await services().withdrawals.claimPayouts(50)).filter((b) => b.id === bill.id);
      expect(await services().withdrawals.processPayout(claimed!)).toBe('pending');
      expect(await detail(user, bill.id)).toMatchObject({ status: 'WithdrawStatusProcessing', txid: 'tx-pending' });
      expect((await services().withdrawals.claimPayouts(50)).map((b) => b.id)).not.toContain(bill.id);
      t.clock.advance(15_000);
      await drain();
      expect(status).toHaveBeenCalledWith(bill.id);
      expect(await detail(user, bill.id)).toMatchObject({ status: 'WithdrawStatusSuccess', txid: 'tx-final' });
      // A pass that claimed the bill earlier and only now hears "pending" must not reopen it.
      expect(await services().withdrawals.processPayout(claimed!)).toBe('pending');
      const [row] = await db().select().from(withdrawBills).where(eq(withdrawBills.id, bill.id));
      expect(row).toMatchObject({ status: 'WithdrawStatusSuccess', payoutState: 'done' });
    } finally {
      send.mockRestore();
      status.mockRestore();
    }
    expect(await assets(user)).toMatchObject({ available: '500.00', freeze: '0.00' });
  });

  it("claims only the running provider's bills (a sandbox cash-out never goes out over another rail)", async () => {
    const user = await funded('3000');
    const bill = await confirmed(user);
    await db().update(withdrawBills).set({ provider: 'evm' }).where(eq(withdrawBills.id, bill.id));
    const claimed = await services().withdrawals.claimPayouts(50);
    expect(claimed.map((b) => b.id)).not.toContain(bill.id);
    expect((await detail(user, bill.id)).status).toBe('WithdrawStatusProcessing');
    await db().update(withdrawBills).set({ provider: 'sandbox' }).where(eq(withdrawBills.id, bill.id));
    await drain();
    expect((await detail(user, bill.id)).status).toBe('WithdrawStatusSuccess');
  });

  it('refuses account deletion while a withdrawal is in flight', async () => {
    const user = await funded('3000');
    const bill = await confirmed(user);
    const guard = await db().transaction((tx) => withdrawalInFlightGuard(user.id, tx));
    expect(guard).toBe('A cash-out is still in progress. Please wait until it completes before deleting your account.');
    // Through the API the frozen balance alone already refuses it.
    const res = await t.call(uc('/delete'), { password: md5(PASSWORD) }, user.token);
    expect(res.body.reason).toBe('CONFLICT');
    await drain();
    expect((await detail(user, bill.id)).status).toBe('WithdrawStatusSuccess');
    expect(await db().transaction((tx) => withdrawalInFlightGuard(user.id, tx))).toBeNull();
  });
});

describe('the whole journey through the API', () => {
  it('top up, cash out, payout completes, record/list shows both', async () => {
    const user = await createUser(t);
    const dep = await topUp(t, user, '2500.00');
    expect(await assets(user)).toMatchObject({ available: '2500.00', freeze: '0.00' });
    const fee = (await t.call(uc('/withdraw/estimate/fee'), { currency: 'usdtbsc', amount: '1000' }, user.token)).body.data
      .result;
    expect(fee).toEqual({ amount: '1000.00', fee: '0.50000000', fiat_equivalent: '0.50' });
    const bill = await confirmed(user, {
      currency: 'usdtbsc',
      network: 'BSC',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      amount: '1000',
    });
    expect(bill.currency_amount).toBe('9.50000000');
    await drain();
    expect(await assets(user)).toMatchObject({ available: '1500.00', freeze: '0.00' });
    const list = (await t.call(uc('/record/list'), { user_id: user.id }, user.token)).body.data;
    expect(list.count).toBe(2);
    expect(list.records.map((r: Record<string, unknown>) => [r.type, r.direction, r.amount, r.status, r.biz_id])).toEqual([
      ['CashOut', 'Outgoing', '1000.00', 'RecordStatusSuccess', bill.id],
      ['TopUp', 'Incoming', '2500.00', 'RecordStatusSuccess', dep.id],
    ]);
  });
});

describe('after the suite', () => {
  it('the ledger invariants hold', async () => {
    const report = await verifyLedger(db());
    expect(report.violations).toEqual([]);
  });
});

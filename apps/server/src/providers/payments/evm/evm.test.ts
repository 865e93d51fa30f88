/**
 * The `evm` provider end to end: the real app (PAYMENTS=evm) against a local ganache node with the
 * 6-decimal TestToken deployed. Deposits are paid on chain and found by the watcher; payouts are
 * sent by the hot wallet and arrive on chain. Blocks are mined on demand; time moves by ManualClock.
 */
import { randomInt } from 'node:crypto';
import { Writable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { getAddress, parseEther, parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evmDepositAddresses, evmPayouts, evmScanState, evmTransfers } from '../../../db/schema/index';
import { ConfigError, loadConfig } from '../../../env';
import { startTestChain, type TestChain } from '../../../test/chain/chain';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp, type TestUser } from '../../../test/harness';
import { createEvmProvider, type EvmProvider } from './index';
import { createAdvisoryLock } from './lock';
import { sweepDeposits } from './sweep';
import { depositPath } from './chain';
import { mnemonicToAccount } from 'viem/accounts';

const MNEMONIC = 'test test test test test test test test test test test junk';
const CONFIRMATIONS = 3;
const uc = (p: string) => `/api/uc/v1/account${p}`;
const usdt = (v: string) => parseUnits(v, 6);

let chain: TestChain;
let t: TestApp;
let hotKey: `0x${string}`;
const logs: string[] = [];

function networksJson(c: TestChain) {
  return JSON.stringify([
    {
      name: 'ETH',
      chainId: c.chainId,
      rpcUrl: c.rpcUrl,
      confirmations: CONFIRMATIONS,
      blockRange: 7,
      nativeSymbol: 'ETH',
      nativeUsdPrice: '3000',
      pollingIntervalMs: 20,
      tokens: [{ symbol: 'USDT', address: c.token, decimals: 6 }],
    },
  ]);
}

function evmEnv(hot: string): Record<string, string> {
  return { PAYMENTS: 'evm', EVM_NETWORKS: networksJson(chain), EVM_SEED: MNEMONIC, EVM_HOT_WALLET_KEY: hot };
}

beforeAll(async () => {
  // A chain id of its own per run: the PostgreSQL database of a CI run is shared by every test file.
  chain = await startTestChain(randomInt(100_000, 2_000_000_000));
  hotKey = generatePrivateKey();
  const hot = privateKeyToAccount(hotKey).address;
  await chain.fund(hot, parseEther('10'));
  await chain.mint(hot, usdt('1000'));
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  t = await createTestApp(evmEnv(hotKey), { logStream: sink });
});

afterAll(async () => {
  await t?.close();
  await chain?.close();
});

const provider = () => t.app.ctx.services.provider as EvmProvider;
const db = () => t.app.ctx.database.db;
const tick = async () => {
  const passes = await provider().watcher()!.tick();
  expect(passes, 'the watcher ran').not.toBeNull();
  expect(passes!.length, 'every network scanned without error').toBe(1);
  return passes![0]!;
};
const assets = async (user: TestUser) => (await t.call(uc('/assets'), { user_id: user.id }, user.token)).body.data.asset;
const detail = async (user: TestUser, billId: string) => (await t.call(uc('/deposit/bill/detail'), { user_id: user.id, bill_id: billId }, user.token)).body.data.bill;

async function deposit(user: TestUser, points: string) {
  const res = await t.call(uc('/deposit'), { amount: points, pay_currency: 'usdterc20' }, user.token);
  expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
  return res.body.data.bill as { id: string; address: Address; currency_amount: string; status: string; network: string };
}

describe('currencies and deposit addresses', () => {
  it('offers the configured token with the EVM address pattern, cash-out on', async () => {
    const res = await t.call(uc('/currency/list'), {});
    const c = res.body.data.currencies.find((x: { code: string }) => x.code === 'usdterc20');
    expect(c).toMatchObject({ symbol: 'USDT', network: 'ETH', wallet_regex: '^(0x)[0-9A-Fa-f]{40}$', extra_id_exists: false, extra_id_regex: null, fiatEquivalent: '10.00' });
    const min = await t.call(uc('/deposit/min-amount'), { currency_from: 'usdterc20' });
    expect(min.body.data.result).toEqual({ min_amount: '100.00', currency_min_amount: '1.00000000', fiat_equivalent: '1.00' });
  });

  it("gives each bill its own address m/44'/60'/0'/0/i of the seed, never reused", async () => {
    const user = await createUser(t);
    const a = await deposit(user, '500');
    const b = await deposit(user, '500');
    expect(a.address).not.toBe(b.address);
    for (const bill of [a, b]) {
      const [row] = await db().select().from(evmDepositAddresses).where(eq(evmDepositAddresses.billId, bill.id));
      expect(row!.address).toBe(bill.address.toLowerCase());
      expect(mnemonicToAccount(MNEMONIC, { path: depositPath(row!.hdIndex) }).address).toBe(getAddress(bill.address));
    }
    const [ra] = await db().select().from(evmDepositAddresses).where(eq(evmDepositAddresses.billId, a.id));
    const [rb] = await db().select().from(evmDepositAddresses).where(eq(evmDepositAddresses.billId, b.id));
    expect(rb!.hdIndex).toBeGreaterThan(ra!.hdIndex);
  });
});

describe('the deposit watcher', () => {
  it('credits a payment only after the confirmations, once, even after a restart and a rescan', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '2500');
    expect(bill.currency_amount).toBe('25.00000000');
    await tick(); // the watcher knows where the chain stands before the payment
    await chain.pay(bill.address, usdt('25'));

    await tick(); // 1 confirmation
    expect((await detail(user, bill.id)).status).toBe('DepositStatusProcessing');
    await chain.mine(1);
    await tick(); // 2 confirmations
    expect((await assets(user)).available).toBe('0.00');
    await chain.mine(1);
    const pass = await tick(); // 3 confirmations
    expect(pass.credited).toBe(1);
    expect(await detail(user, bill.id)).toMatchObject({ status: 'DepositStatusSuccess', paid_currency_amount: '25.00000000', credited_amount: '2500.00' });
    expect((await assets(user)).available).toBe('2500.00');

    // A restart that lost the watcher's own memory: the scan position goes back and the transfers are forgotten.
    const [transfer] = await db().select().from(evmTransfers).where(eq(evmTransfers.billId, bill.id));
    await db().delete(evmTransfers).where(eq(evmTransfers.billId, bill.id));
    await db()
      .update(evmScanState)
      .set({ lastBlock: transfer!.blockNumber - 2n })
      .where(eq(evmScanState.chainId, chain.chainId));
    const restarted = provider().attach!({ credit: (p) => t.app.ctx.services.deposits.creditPayment(p) });
    try {
      const again = (await restarted.workers![0]!.tick()) as { found: number; credited: number }[];
      expect(again[0]!.found).toBe(1);
      await tick();
    } finally {
      await restarted.close?.();
    }
    expect((await assets(user)).available).toBe('2500.00');
    expect(await t.app.ctx.services.deposits.payments(bill.id)).toHaveLength(1);
  });

  it('credits a short payment at the value received', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1000');
    await chain.pay(bill.address, usdt('4.5'));
    await chain.mine(CONFIRMATIONS);
    await tick();
    expect(await detail(user, bill.id)).toMatchObject({ status: 'DepositStatusSuccess', paid_currency_amount: '4.50000000', credited_amount: '450.00' });
    expect((await assets(user)).available).toBe('450.00');
  });

  it('credits a late payment to an expired bill, within the late-payment window', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '300');
    t.clock.advance(1801_000);
    expect((await detail(user, bill.id)).status).toBe('DepositStatusExpired');
    await chain.pay(bill.address, usdt('3'));
    await chain.mine(CONFIRMATIONS);
    const pass = await tick();
    expect(pass.credited).toBe(1);
    expect(await detail(user, bill.id)).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '300.00' });
  });

  it('ignores a payment to an address that is no bill, and logs one past the late-payment window', async () => {
    const user = await createUser(t);
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    await chain.pay(stranger, usdt('7'));
    const old = await deposit(user, '700');
    t.clock.advance((1800 + 169 * 3600) * 1000); // expired more than EVM_LATE_PAYMENT_HOURS (168) ago
    await chain.pay(old.address, usdt('7'));
    await chain.mine(CONFIRMATIONS);
    const pass = await tick();
    expect(pass.ignored).toBe(1);
    expect(await db().select().from(evmTransfers).where(eq(evmTransfers.toAddress, stranger.toLowerCase()))).toHaveLength(0);
    const [row] = await db().select().from(evmTransfers).where(eq(evmTransfers.billId, old.id));
    expect(row!.status).toBe('ignored');
    // A week later the session has expired: read through the services.
    expect(await t.app.ctx.services.ledger.balances(user.id)).toMatchObject({ available: 0n, frozen: 0n });
    const { bill } = await t.app.ctx.services.deposits.detail(user.id, { user_id: user.id, bill_id: old.id });
    expect(bill.status).toBe('DepositStatusExpired');
    expect(logs.some((l) => l.includes('after the late-payment window') && l.includes(old.id))).toBe(true);
  });

  it('logs and skips a payment to an address whose bill was never stored, and keeps crediting others', async () => {
    // A bill id of its own per run: a reused PostgreSQL database keeps the address of an earlier run's bill.
    const orphanId = `bill-that-rolled-back-${chain.chainId}`;
    const orphan = await provider().createDeposit({ billId: orphanId, code: 'usdterc20', currencyAmount: '5', expiresAt: t.clock.now() + 1_800_000 });
    const user = await createUser(t);
    const bill = await deposit(user, '500');
    await chain.pay(orphan.address as Address, usdt('5'));
    await chain.pay(bill.address, usdt('5'));
    await chain.mine(CONFIRMATIONS);
    const pass = await tick();
    expect(pass).toMatchObject({ ignored: 1, credited: 1 });
    expect((await assets(user)).available).toBe('500.00');
    expect(logs.some((l) => l.includes('unknown bill') && l.includes(orphanId))).toBe(true);
  });

  it('forgets a payment that a reorg removed before its confirmations and credits nothing', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '900');
    await tick();
    const snapshot = await chain.snapshot();
    await chain.pay(bill.address, usdt('9'));
    await chain.mine(1);
    const seen = await tick(); // 2 confirmations: seen, not credited
    expect(seen.found).toBe(1);
    await chain.revert(snapshot);
    await chain.mine(CONFIRMATIONS + 2);
    const after = await tick();
    expect(after.reorgFrom).not.toBeNull();
    expect(after.credited).toBe(0);
    expect(await db().select().from(evmTransfers).where(eq(evmTransfers.billId, bill.id))).toHaveLength(0);
    expect((await assets(user)).available).toBe('0.00');
    expect((await detail(user, bill.id)).status).toBe('DepositStatusProcessing');
  });

  it.runIf(!!process.env.DATABASE_URL)('runs on one instance at a time (PostgreSQL advisory lock)', async () => {
    const other = createAdvisoryLock(process.env.DATABASE_URL, 727_070_009n);
    try {
      expect(await other.tryAcquire()).toBe(true);
      expect(await provider().watcher()!.tick()).toBeNull();
      await other.release();
      expect(await provider().watcher()!.tick()).not.toBeNull();
    } finally {
      await other.close();
    }
  });
});

describe('payouts from the hot wallet', () => {
  async function confirmedWithdrawal(app: TestApp, points: string, address: Address) {
    const user = await createUser(app);
    await fund(app, user.id, points);
    const created = await app.call(uc('/withdraw/create'), { user_id: user.id, currency: 'usdterc20', network: 'ETH', amount: points, address, memo: '' }, user.token);
    expect(created.body.code, JSON.stringify(created.body)).toBe(10000);
    const confirmed = await app.call(uc('/withdraw/confirm'), { bill_id: created.body.data.bill.id, password: md5(PASSWORD) }, user.token);
    expect(confirmed.body.code, JSON.stringify(confirmed.body)).toBe(10000);
    return { user, bill: confirmed.body.data.bill as { id: string; currency_amount: string; fee_fiat: string } };
  }
  const withdrawDetail = async (app: TestApp, user: TestUser, id: string) =>
    (await app.call(uc('/withdraw/bill/detail'), { user_id: user.id, bill_id: id }, user.token)).body.data.bill;

  it('estimates the fee from the gas price in USD', async () => {
    const user = await createUser(t);
    const gasPrice = await chain.publicClient.getGasPrice();
    const res = await t.call(uc('/withdraw/estimate/fee'), { currency: 'usdterc20', amount: '2000' }, user.token);
    const usd = (Number(gasPrice) * 100_000 * 3000) / 1e18; // display check only; the code uses decimals
    expect(res.body.data.result.fiat_equivalent).toBe((Math.ceil(usd * 100) / 100).toFixed(2));
  });

  it('sends the token to the address, settles after the confirmations, and never sends twice', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const { user, bill } = await confirmedWithdrawal(t, '2000', to);
    const services = t.app.ctx.services;
    await services.withdrawals.runPayouts(50);
    const [row] = await db().select().from(evmPayouts).where(eq(evmPayouts.payoutId, bill.id));
    expect(row!.status).toBe('broadcast');
    // The same payout asked again (a restart mid-way) re-sends the same signed transaction.
    const again = await provider().sendPayout({ payoutId: bill.id, currency: 'usdterc20', network: 'ETH', address: to, memo: '', currencyAmount: bill.currency_amount });
    expect(again).toEqual({ status: 'pending', txid: row!.txHash });
    expect(await chain.tokenBalance(to)).toBe(parseUnits(bill.currency_amount, 6));
    expect((await withdrawDetail(t, user, bill.id)).status).toBe('WithdrawStatusProcessing');

    await chain.mine(CONFIRMATIONS);
    t.clock.advance(20_000);
    await services.withdrawals.runPayouts(50);
    const done = await withdrawDetail(t, user, bill.id);
    expect(done).toMatchObject({ status: 'WithdrawStatusSuccess', txid: row!.txHash });
    expect(await chain.tokenBalance(to)).toBe(parseUnits(bill.currency_amount, 6));
    expect(await assets(user)).toMatchObject({ available: '0.00', freeze: '0.00' });
    const rows = await db().select().from(evmPayouts).where(and(eq(evmPayouts.payoutId, bill.id), eq(evmPayouts.status, 'success')));
    expect(rows).toHaveLength(1);
    // The seller's feed (ADR 0060): confirmed, broadcast with the hash, final at the network's depth.
    const feed = await t.call(uc('/events/list'), {}, user.token);
    expect(feed.body.data.events.map((e: { data: Record<string, unknown> }) => e.data)).toEqual([
      expect.objectContaining({ status: 'WithdrawStatusProcessing', network: 'ETH', tx_hash: null, tx_status: null, confirmations: null }),
      expect.objectContaining({ status: 'WithdrawStatusProcessing', network: 'ETH', tx_hash: row!.txHash, tx_status: 'broadcast', confirmations: 0 }),
      expect.objectContaining({ status: 'WithdrawStatusSuccess', network: 'ETH', tx_hash: row!.txHash, tx_status: 'final', confirmations: CONFIRMATIONS }),
    ]);
  });

  it('gives payouts in flight consecutive nonces, and refunds one that reverts on chain', async () => {
    const hot = privateKeyToAccount(hotKey).address;
    const balance = await chain.tokenBalance(hot);
    // Each payout alone fits the hot wallet's tokens; both together do not.
    const points = String((balance * 3n) / 4n / 10_000n);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const first = await confirmedWithdrawal(t, points, to);
    const second = await confirmedWithdrawal(t, points, to);
    await chain.stopMining();
    try {
      await t.app.ctx.services.withdrawals.runPayouts(50); // both simulate fine against the mined state
    } finally {
      await chain.startMining();
    }
    const rows = await db().select().from(evmPayouts).where(inArray(evmPayouts.payoutId, [first.bill.id, second.bill.id]));
    expect(rows.map((r) => r.status)).toEqual(['broadcast', 'broadcast']);
    expect(Math.abs(rows[0]!.nonce! - rows[1]!.nonce!)).toBe(1);
    await chain.mine(CONFIRMATIONS);
    t.clock.advance(20_000);
    await t.app.ctx.services.withdrawals.runPayouts(50);
    const outcomes = [await withdrawDetail(t, first.user, first.bill.id), await withdrawDetail(t, second.user, second.bill.id)];
    expect(outcomes.map((b) => b.status).sort()).toEqual(['WithdrawStatusRefunded', 'WithdrawStatusSuccess']);
    const refunded = outcomes.find((b) => b.status === 'WithdrawStatusRefunded')!;
    expect(refunded.failure_reason).toBe('the token transfer reverted');
    expect(await chain.tokenBalance(to)).toBe(parseUnits(outcomes.find((b) => b.status === 'WithdrawStatusSuccess')!.currency_amount, 6));
    const refundedUser = refunded.id === first.bill.id ? first.user : second.user;
    expect(await assets(refundedUser)).toMatchObject({ available: `${points}.00`, freeze: '0.00' });
  });

  it('refunds a payout the hot wallet cannot make: no tokens, or no gas money', async () => {
    const emptyKey = generatePrivateKey();
    const poor = await createTestApp(evmEnv(emptyKey));
    try {
      const to = privateKeyToAccount(generatePrivateKey()).address;
      const noTokens = await confirmedWithdrawal(poor, '1500', to);
      await poor.app.ctx.services.withdrawals.runPayouts(50);
      expect(await withdrawDetail(poor, noTokens.user, noTokens.bill.id)).toMatchObject({ status: 'WithdrawStatusRefunded' });
      expect(await assets2(poor, noTokens.user)).toMatchObject({ available: '1500.00', freeze: '0.00' });

      await chain.mint(privateKeyToAccount(emptyKey).address, usdt('100'));
      const noGas = await confirmedWithdrawal(poor, '1500', to);
      await poor.app.ctx.services.withdrawals.runPayouts(50);
      const refunded = await withdrawDetail(poor, noGas.user, noGas.bill.id);
      expect(refunded.status).toBe('WithdrawStatusRefunded');
      expect(refunded.failure_reason).toMatch(/gas/);
      expect(await assets2(poor, noGas.user)).toMatchObject({ available: '1500.00', freeze: '0.00' });
      expect(await chain.tokenBalance(to)).toBe(0n);
    } finally {
      await poor.close();
    }
  });
});

describe('sweeping', () => {
  it('moves deposit balances to the hot wallet, funding gas first, and leaves dust below the minimum', async () => {
    const user = await createUser(t);
    const a = await deposit(user, '1200');
    const b = await deposit(user, '1300');
    await chain.pay(a.address, usdt('12'));
    await chain.pay(b.address, usdt('0.5'));
    const hot = privateKeyToAccount(hotKey).address;
    const before = await chain.tokenBalance(hot);
    const deps = { db: db(), chains: provider().chains, now: () => t.clock.now() };

    const dry = await sweepDeposits(deps, { dryRun: true });
    expect(dry.filter((r) => r.address.toLowerCase() === a.address.toLowerCase())).toMatchObject([{ amount: '12', txHash: null }]);
    expect(await chain.tokenBalance(a.address)).toBe(usdt('12'));

    const swept = await sweepDeposits(deps, {});
    const mine = swept.find((r) => r.address.toLowerCase() === a.address.toLowerCase())!;
    expect(mine).toMatchObject({ network: 'ETH', token: 'usdterc20', amount: '12', txHash: expect.stringMatching(/^0x/), gasTxHash: expect.stringMatching(/^0x/) });
    expect(await chain.tokenBalance(a.address)).toBe(0n);
    expect(await chain.tokenBalance(b.address)).toBe(usdt('0.5')); // worth less than 1 USD: left
    expect((await chain.tokenBalance(hot)) - before).toBe(swept.reduce((sum, r) => sum + parseUnits(r.amount, 6), 0n));
    const [row] = await db().select().from(evmDepositAddresses).where(eq(evmDepositAddresses.billId, a.id));
    expect(row!.sweptAt).not.toBeNull();
    // The deposit is credited once; the sweep's transfer out of the address is no payment.
    await chain.mine(CONFIRMATIONS);
    await tick();
    expect(await t.app.ctx.services.deposits.payments(a.id)).toHaveLength(1);
    expect(await detail(user, a.id)).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '1200.00' });
  });
});

async function assets2(app: TestApp, user: TestUser) {
  return (await app.call(uc('/assets'), { user_id: user.id }, user.token)).body.data.asset;
}

describe('configuration', () => {
  it('registers no gateway IPN route in evm mode', () => {
    expect(t.app.ctx.routes.some((r) => r.url.includes('nowpayments'))).toBe(false);
    expect(t.app.ctx.workers.map((w) => w.name)).toContain('evm-watcher');
  });

  it('refuses to start without the seed or networks, naming the variable and never echoing a secret', () => {
    expect(() => loadConfig({ PAYMENTS: 'evm' })).toThrow(ConfigError);
    try {
      loadConfig({ PAYMENTS: 'evm', EVM_NETWORKS: networksJson(chain), EVM_SEED: 'not a real seed phrase at all' });
    } catch (err) {
      expect((err as Error).message).toContain('EVM_SEED: not a valid BIP-39');
      expect((err as Error).message).not.toContain('real seed phrase');
    }
    expect(() => loadConfig({ PAYMENTS: 'evm', EVM_SEED: MNEMONIC })).toThrow(/EVM_NETWORKS: required/);
    expect(() => loadConfig({ PAYMENTS: 'evm', EVM_SEED: MNEMONIC, EVM_NETWORKS: '[{"name":"ETH"}]' })).toThrow(/EVM_NETWORKS: 0\.chainId/);
  });

  it('keeps secrets out of the configuration object and its printed forms', () => {
    const config = loadConfig(evmEnv(hotKey));
    expect(JSON.stringify(config)).not.toContain(hotKey.slice(2));
    expect(JSON.stringify(config)).not.toContain('junk');
    expect(config.evm!.seed.reveal()).toBe(MNEMONIC);
    const p = createEvmProvider(config.evm!, { db: db(), clock: t.clock, log: t.app.log, databaseUrl: undefined });
    expect(p.chains.hotWallet!.address).toBe(privateKeyToAccount(hotKey).address);
  });
});

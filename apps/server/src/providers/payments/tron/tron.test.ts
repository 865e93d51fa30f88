/**
 * The `tron` provider end to end: the real app (PAYMENTS=tron) against the in-memory fake of the
 * TRON HTTP API (src/test/tron/fake-node.ts). Blocks are made on demand; time moves by ManualClock.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import utils from 'tronweb/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tronDepositAddresses, tronPayouts, tronSweeps, tronTransfers, tronTxs } from '../../../db/schema/index';
import { ConfigError, loadConfig } from '../../../env';
import { startFakeTronNode, TOTAL_ENERGY_LIMIT, TOTAL_ENERGY_WEIGHT, type FakeTronNode } from '../../../test/tron/fake-node';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp, type TestUser } from '../../../test/harness';
import { createScratchDatabase, type ScratchDatabase } from '../../../test/scratch-database';
import { addressOfKey, tronDepositPath } from './address';
import type { TronProvider } from './index';
import { sweepTron, trxPerTokenSwept } from './sweep';
import { buildEnergyDelegation, buildEnergyStake, signTx } from './tx';

const MNEMONIC = 'test test test test test test test test test test test junk';
const SOLID_LAG = 3;
const usdt = (v: string) => BigInt(Math.round(Number(v) * 1e6));
const uc = (p: string) => `/api/uc/v1/account${p}`;

let fake: FakeTronNode;
let t: TestApp;
let scratch: ScratchDatabase | undefined;
let hotKey: string;
let hot: string;
const payer = addressOfKey(randomBytes(32).toString('hex'));

function tronEnv(key: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PAYMENTS: 'tron',
    TRON_NODE_URL: fake.url,
    TRON_SEED: MNEMONIC,
    TRON_HOT_WALLET_KEY: key,
    TRON_TRX_USD_PRICE: '0.25',
    TRON_TIMEOUT_MS: '3000',
    TRON_TX_EXPIRATION_SECONDS: '60',
    ...extra,
  };
}

beforeAll(async () => {
  fake = await startFakeTronNode({ solidLag: SOLID_LAG });
  hotKey = randomBytes(32).toString('hex');
  hot = addressOfKey(hotKey);
  fake.fundTrx(hot, 1_000_000_000n);
  fake.produce(SOLID_LAG + 2);
  fake.mint(hot, usdt('100000'));
  scratch = await createScratchDatabase('coffer_tron');
  t = await createTestApp({ ...tronEnv(hotKey), ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
}, 180_000);

afterAll(async () => {
  await t?.close();
  await scratch?.drop();
  await fake?.close();
});

const services = () => t.app.ctx.services;
const provider = () => services().provider as TronProvider;
const db = () => t.app.ctx.database.db;
const tick = async () => {
  const pass = await provider().watcher()!.tick();
  expect(pass).not.toBeNull();
  return pass!;
};
const solidify = () => fake.produce(SOLID_LAG);
const assets = async (user: TestUser) => (await t.call(uc('/assets'), { user_id: user.id }, user.token)).body.data.asset;
const detail = async (user: TestUser, id: string) => (await t.call(uc('/deposit/bill/detail'), { user_id: user.id, bill_id: id }, user.token)).body.data.bill;

async function deposit(user: TestUser, points: string) {
  const res = await t.call(uc('/deposit'), { amount: points, pay_currency: 'usdttrc20' }, user.token);
  expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
  return res.body.data.bill as { id: string; address: string; currency_amount: string; network: string };
}

describe('currency and deposit addresses', () => {
  it('offers USDT on TRX with the TRON address pattern and cash-out on', async () => {
    const res = await t.call(uc('/currency/list'), {});
    const c = res.body.data.currencies.find((x: { code: string }) => x.code === 'usdttrc20');
    expect(c).toMatchObject({ symbol: 'USDT', network: 'TRX', name: 'Tether USD (TRC-20)', wallet_regex: '^T[1-9A-HJ-NP-Za-km-z]{33}$', extra_id_exists: false, fiatEquivalent: '10.00' });
    const config = await t.call('/api/uc/v1/config', {});
    expect(config.body.data).toMatchObject({ payments: 'tron', sandbox: false });
  });

  it("gives each bill its own address m/44'/195'/0'/0/i of the seed", async () => {
    const user = await createUser(t);
    const a = await deposit(user, '500');
    const b = await deposit(user, '500');
    expect(a.address).not.toBe(b.address);
    expect(a.network).toBe('TRX');
    for (const bill of [a, b]) {
      const [row] = await db().select().from(tronDepositAddresses).where(eq(tronDepositAddresses.billId, bill.id));
      const derived = utils.accounts.generateAccountWithMnemonic(MNEMONIC, tronDepositPath(row!.hdIndex));
      expect(derived.address).toBe(bill.address);
    }
  });
});

describe('the deposit watcher', () => {
  it('sees a payment early, credits it only from a solidified block, once', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '2500');
    await tick();
    const txid = fake.payToken(payer, bill.address, usdt('25'));
    fake.produce(1);
    const early = await tick();
    expect(early.found).toBe(1);
    const [seen] = await db().select().from(tronTransfers).where(eq(tronTransfers.txid, txid));
    expect(seen).toMatchObject({ solid: false, status: 'pending' });
    expect((await assets(user)).available).toBe('0.00');
    solidify();
    const pass = await tick();
    expect(pass.credited).toBe(1);
    expect(await detail(user, bill.id)).toMatchObject({ status: 'DepositStatusSuccess', paid_currency_amount: '25.00000000', credited_amount: '2500.00' });
    fake.produce(2);
    await tick();
    expect(await services().deposits.payments(bill.id)).toHaveLength(1);
    expect((await assets(user)).available).toBe('2500.00');
  });

  it('ignores a 1-TRX activation, zero-value and dust transfers, and credits a short payment at its value', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '1000');
    await tick();
    fake.fundTrx(bill.address, 1_000_000n);
    fake.payToken(payer, bill.address, 0n);
    fake.payToken(payer, bill.address, 1_000n);
    fake.payToken(payer, bill.address, usdt('4.5'));
    fake.produce(1 + SOLID_LAG);
    const pass = await tick();
    expect(pass.credited).toBe(1);
    const rows = await db().select().from(tronTransfers).where(eq(tronTransfers.billId, bill.id));
    expect(rows.map((r) => [r.amount, r.status, r.reason]).sort()).toEqual([
      ['0', 'ignored', 'zero-value'],
      ['1000', 'ignored', 'dust'],
      ['4500000', 'credited', null],
    ]);
    expect(await detail(user, bill.id)).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '450.00' });
  });

  it('forgets a payment a reorg removed before solidification and credits nothing', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '900');
    await tick();
    const txid = fake.payToken(payer, bill.address, usdt('9'));
    fake.produce(1);
    expect((await tick()).found).toBe(1);
    fake.reorg(1, (id) => id === txid);
    const after = await tick();
    expect(after.reorgFrom).not.toBeNull();
    solidify();
    await tick();
    expect(await db().select().from(tronTransfers).where(eq(tronTransfers.txid, txid))).toHaveLength(0);
    expect((await detail(user, bill.id)).status).toBe('DepositStatusProcessing');
  });

  it('credits a payment that a reorg moved to another block once', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '800');
    await tick();
    const txid = fake.payToken(payer, bill.address, usdt('8'));
    fake.produce(1);
    await tick();
    fake.reorg(1);
    solidify();
    await tick();
    const rows = await db().select().from(tronTransfers).where(eq(tronTransfers.txid, txid));
    expect(rows).toMatchObject([{ solid: true, status: 'credited' }]);
    expect(await services().deposits.payments(bill.id)).toHaveLength(1);
  });

  it('credits a late payment to an expired bill within the late-payment window', async () => {
    const user = await createUser(t);
    const bill = await deposit(user, '300');
    t.clock.advance(1801_000);
    fake.payToken(payer, bill.address, usdt('3'));
    fake.produce(1 + SOLID_LAG);
    expect((await tick()).credited).toBe(1);
    expect(await detail(user, bill.id)).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '300.00' });
  });
});

describe('payouts from the hot wallet', () => {
  async function withdrawal(points: string, address: string) {
    const user = await createUser(t);
    await fund(t, user.id, points);
    const created = await t.call(uc('/withdraw/create'), { user_id: user.id, currency: 'usdttrc20', network: 'TRX', amount: points, address, memo: '' }, user.token);
    expect(created.body.code, JSON.stringify(created.body)).toBe(10000);
    const confirmed = await t.call(uc('/withdraw/confirm'), { bill_id: created.body.data.bill.id, password: md5(PASSWORD) }, user.token);
    expect(confirmed.body.code, JSON.stringify(confirmed.body)).toBe(10000);
    return { user, bill: confirmed.body.data.bill as { id: string; currency_amount: string } };
  }
  const withdrawDetail = async (user: TestUser, id: string) => (await t.call(uc('/withdraw/bill/detail'), { user_id: user.id, bill_id: id }, user.token)).body.data.bill;
  const pass = async () => {
    t.clock.advance(61_000);
    return services().withdrawals.runPayouts(50);
  };
  const newAddress = () => addressOfKey(randomBytes(32).toString('hex'));

  it('estimates the fee from the energy price in USD', async () => {
    const user = await createUser(t);
    const res = await t.call(uc('/withdraw/estimate/fee'), { currency: 'usdttrc20', amount: '2000' }, user.token);
    // 65000 energy x 100 sun + 350 bytes x 1000 sun = 6.85 TRX at 0.25 USD
    expect(res.body.data.result).toMatchObject({ fee: '1.71250000', fiat_equivalent: '1.72' });
  });

  it('pays once, settles from the solidified block with the txid on the bill, and records the fee', async () => {
    const to = newAddress();
    const { user, bill } = await withdrawal('2000', to);
    await pass();
    const [row] = await db().select().from(tronPayouts).where(eq(tronPayouts.payoutId, bill.id));
    expect(row).toMatchObject({ status: 'sending', attempts: 1 });
    expect((await withdrawDetail(user, bill.id)).txid).toBe(row!.txid);
    const again = await provider().sendPayout({ payoutId: bill.id, currency: 'usdttrc20', network: 'TRX', address: to, memo: '', currencyAmount: bill.currency_amount });
    expect(again).toEqual({ status: 'pending', txid: row!.txid });
    fake.produce(1);
    await pass();
    expect((await withdrawDetail(user, bill.id)).status).toBe('WithdrawStatusProcessing');
    solidify();
    await pass();
    expect(await withdrawDetail(user, bill.id)).toMatchObject({ status: 'WithdrawStatusSuccess', txid: row!.txid });
    expect(fake.tokenBalance(to)).toBe(usdt(bill.currency_amount));
    const [tx] = await db().select().from(tronTxs).where(eq(tronTxs.txid, row!.txid!));
    expect(tx).toMatchObject({ status: 'success', result: 'SUCCESS', energyUsed: 64_895 });
    expect(tx!.feeSun).toBeGreaterThan(0n);
    expect(tx!.feeLimitSun).toBe(8_436_400n); // 64895 x 1.3 rounded up x 100 sun, never the 15000 TRX maximum
  });

  it('signs a new attempt with a doubled fee_limit after OUT_OF_ENERGY, and pays once', async () => {
    const to = newAddress();
    const { user, bill } = await withdrawal('1500', to);
    fake.energyFactor = 1.5;
    try {
      await pass();
      fake.produce(1 + SOLID_LAG);
      await pass();
    } finally {
      fake.energyFactor = 1;
    }
    const txs = await db().select().from(tronTxs).where(eq(tronTxs.ref, bill.id));
    expect(txs.map((x) => [x.attempt, x.status, x.result]).sort()).toEqual([
      [1, 'failed', 'OUT_OF_ENERGY'],
      [2, 'broadcast', null],
    ]);
    expect(txs.find((x) => x.attempt === 2)!.feeLimitSun).toBe(2n * txs.find((x) => x.attempt === 1)!.feeLimitSun!);
    fake.produce(1 + SOLID_LAG);
    await pass();
    expect((await withdrawDetail(user, bill.id)).status).toBe('WithdrawStatusSuccess');
    expect(fake.tokenBalance(to)).toBe(usdt(bill.currency_amount));
  });

  it('signs a new attempt only after proving the first expired unmined, and pays once', async () => {
    const to = newAddress();
    const { user, bill } = await withdrawal('1200', to);
    fake.setPlan((path) => (path === '/wallet/broadcasttransaction' ? { kind: '503' } : null));
    try {
      await pass();
      fake.produce(5);
      await pass();
      expect(await db().select().from(tronTxs).where(eq(tronTxs.ref, bill.id))).toHaveLength(1);
      fake.produce(25 + SOLID_LAG); // 60 s of chain time past the reference block, solidified
    } finally {
      fake.setPlan(null);
    }
    await pass();
    const txs = await db().select().from(tronTxs).where(eq(tronTxs.ref, bill.id));
    expect(txs.map((x) => [x.attempt, x.status]).sort()).toEqual([
      [1, 'expired'],
      [2, 'broadcast'],
    ]);
    fake.produce(1 + SOLID_LAG);
    await pass();
    expect(await withdrawDetail(user, bill.id)).toMatchObject({ status: 'WithdrawStatusSuccess', txid: txs.find((x) => x.attempt === 2)!.txid });
    expect(fake.tokenBalance(to)).toBe(usdt(bill.currency_amount));
  });

  it('refunds a payout the hot wallet cannot make, before signing anything', async () => {
    const poorKey = randomBytes(32).toString('hex');
    const poor = await createTestApp(tronEnv(poorKey, scratch ? { DATABASE_URL: scratch.url } : {}));
    try {
      const user = await createUser(poor);
      await fund(poor, user.id, '1500');
      const created = await poor.call(uc('/withdraw/create'), { user_id: user.id, currency: 'usdttrc20', network: 'TRX', amount: '1500', address: newAddress(), memo: '' }, user.token);
      await poor.call(uc('/withdraw/confirm'), { bill_id: created.body.data.bill.id, password: md5(PASSWORD) }, user.token);
      await poor.app.ctx.services.withdrawals.runPayouts(50);
      const refunded = (await poor.call(uc('/withdraw/bill/detail'), { user_id: user.id, bill_id: created.body.data.bill.id }, user.token)).body.data.bill;
      expect(refunded.status).toBe('WithdrawStatusRefunded');
      expect(refunded.failure_reason).toMatch(/cannot send this transfer/);
      expect(await db().select().from(tronTxs).where(eq(tronTxs.ref, created.body.data.bill.id))).toHaveLength(0);
    } finally {
      await poor.close();
    }
  });
});

describe('sweeping', () => {
  it('funds an address only with the TRX its energy needs, moves balances from the minimum up, and records the fee', async () => {
    const user = await createUser(t);
    const a = await deposit(user, '1200');
    const b = await deposit(user, '300');
    fake.payToken(payer, a.address, usdt('12'));
    fake.payToken(payer, b.address, usdt('3'));
    fake.produce(1 + SOLID_LAG);
    await tick();
    const before = fake.tokenBalance(hot);
    const deps = { db: db(), node: provider().node, settings: provider().settings, keys: provider().keys, now: () => t.clock.now(), sleep: async () => fake.produce(1) };
    const dry = await sweepTron(deps, { dryRun: true });
    expect(dry.filter((r) => r.address === a.address)).toMatchObject([{ amount: '12', sweepTxid: null }]);
    expect(dry.some((r) => r.address === b.address)).toBe(false); // 3 USDT: below the 5 USDT minimum
    const swept = await sweepTron(deps, {});
    const mine = swept.find((r) => r.address === a.address)!;
    expect(mine).toMatchObject({ amount: '12', sweepTxid: expect.stringMatching(/^[0-9a-f]{64}$/), fundTxid: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(fake.tokenBalance(a.address)).toBe(0n);
    expect(fake.tokenBalance(b.address)).toBe(usdt('3'));
    expect(fake.tokenBalance(hot) - before).toBe(swept.reduce((sum, r) => sum + usdt(r.amount), 0n));
    // The address got the TRX its transfer burns (31895 energy x 100 sun x 1.2, and 350 bytes of
    // bandwidth at 1000 sun, since a new address has none yet), not a flat amount.
    const [sweep] = await db().select().from(tronSweeps).where(eq(tronSweeps.address, a.address));
    expect(sweep).toMatchObject({ status: 'done', fundSun: 4_177_400n });
    expect(sweep!.feeSun).toBeGreaterThan(0n);
    expect(await trxPerTokenSwept(db(), 6)).toMatch(/^\d+\.\d{6}$/);
    // The sweep's transfer out of the address is no payment: the deposit stays credited once.
    fake.produce(1 + SOLID_LAG);
    await tick();
    expect(await services().deposits.payments(a.id)).toHaveLength(1);
    // Run again: nothing is left above the minimum.
    expect((await sweepTron(deps, {})).filter((r) => r.address === a.address)).toEqual([]);
  });
});

describe('sweeping with energy delegated from the hot wallet (TRON_SWEEP_ENERGY=delegate)', () => {
  const sweepDeps = () => ({ db: db(), node: provider().node, settings: provider().settings, keys: provider().keys, now: () => t.clock.now(), sleep: async () => fake.produce(1) });
  /** Sun of stake for `energy` at the fake's totals, in whole TRX rounded up. */
  const stakeFor = (energy: bigint) => ((energy * TOTAL_ENERGY_WEIGHT + TOTAL_ENERGY_LIMIT - 1n) / TOTAL_ENERGY_LIMIT) * 1_000_000n;
  const txsTo = async (kind: string, address: string) => (await db().select().from(tronTxs).where(eq(tronTxs.kind, kind))).filter((r) => r.toAddress === address);
  const opsOf = (address: string) => fake.stakeOps().filter((o) => o.to === address);
  const isBroadcastOf = (type: string) => (path: string, body: Record<string, unknown>) =>
    path === '/wallet/broadcasttransaction' && (body.raw_data as { contract: { type: string }[] }).contract[0]!.type === type;

  beforeAll(async () => {
    // The hot wallet stakes 20,000 TRX for energy (FreezeBalanceV2Contract, signed here like any transaction).
    fake.fundTrx(hot, 30_000_000_000n);
    fake.produce(1 + SOLID_LAG);
    const ref = await provider().node.nowBlock(true);
    const answer = await provider().node.broadcast(signTx(buildEnergyStake({ from: hot, balanceSun: 20_000_000_000n, ref, lifetimeMs: 60_000 }), hotKey));
    expect(answer).toEqual({ accepted: true });
    fake.produce(1 + SOLID_LAG);
    expect(fake.frozenEnergySun(hot)).toBe(20_000_000_000n);
  });

  async function paidAddress(amount: string) {
    const user = await createUser(t);
    const bill = await deposit(user, String(Number(amount) * 100));
    fake.payToken(payer, bill.address, usdt(amount));
    fake.produce(1 + SOLID_LAG);
    return bill.address;
  }

  it('lends the sweep its energy, sends only 1 sun to activate, takes the energy back, and burns less TRX than burning', async () => {
    const a = await paidAddress('12');
    const [lent] = await sweepTron(sweepDeps(), { energy: 'delegate' });
    expect(lent).toMatchObject({ address: a, amount: '12', energy: 'delegate', reclaimed: true });
    // 31,895 energy estimated, 120 % of it lent: 38,274 energy, 3,403 TRX of stake at 11.25 energy per TRX.
    expect(lent!.delegatedSun).toBe(stakeFor(38_274n));
    expect(lent!.delegatedSun).toBe(3_403_000_000n);
    expect(fake.tokenBalance(a)).toBe(0n);
    expect(fake.delegatedEnergySun(hot, a)).toBe(0n);
    expect(opsOf(a).map((o) => [o.type, o.amount])).toEqual([
      ['delegate', 3_403_000_000n],
      ['undelegate', 3_403_000_000n],
    ]);
    const [row] = await db().select().from(tronSweeps).where(eq(tronSweeps.address, a));
    expect(row).toMatchObject({ status: 'done', fundSun: 1n, feeSun: lent!.feeSun });
    const [sweepTx] = await txsTo('sweep', hot).then((rows) => rows.filter((r) => r.fromAddress === a));
    expect(sweepTx).toMatchObject({ status: 'success', feeSun: 0n });

    // The same sweep in burn mode, for comparison.
    const b = await paidAddress('12');
    const [burnt] = await sweepTron(sweepDeps(), { energy: 'burn' });
    expect(burnt).toMatchObject({ address: b, energy: 'burn', delegatedSun: 0n });
    expect(lent!.feeSun * 2n).toBeLessThan(burnt!.feeSun);
  });

  it('never delegates twice when a delegation answer is lost and the run fails; takes it back only on proof', async () => {
    const c = await paidAddress('20');
    // The delegation is broadcast but its answer lost; then the node fails every lookup: the run stops.
    let cut = false;
    fake.setPlan((path, body) => {
      if (isBroadcastOf('DelegateResourceContract')(path, body)) {
        cut = true;
        return { kind: 'lost' };
      }
      return cut && path.endsWith('/gettransactioninfobyid') ? { kind: '503' } : null;
    });
    // No block is made after that: the delegation waits in the node's pool, unseen by resource reads.
    await expect(sweepTron({ ...sweepDeps(), sleep: async () => void (cut || fake.produce(1)) }, { energy: 'delegate' })).rejects.toThrow(/gettransactioninfobyid: HTTP 503/);
    fake.setPlan(null);
    const [open] = await txsTo('delegate', c);
    expect(open!.status).toBe('signed');
    expect(fake.pool()).toEqual([open!.txid]);
    // The next run settles the stored delegation first and lends nothing more.
    const [swept] = await sweepTron(sweepDeps(), { energy: 'delegate' });
    expect(swept).toMatchObject({ address: c, amount: '20', energy: 'delegate', delegatedSun: 0n });
    expect((await txsTo('delegate', c)).map((r) => r.status)).toEqual(['success']);
    expect(opsOf(c).map((o) => o.type)).toEqual(['delegate', 'undelegate']);
    expect(fake.delegatedEnergySun(hot, c)).toBe(0n);

    // The sweep's broadcast answer is lost and every lookup fails: no proof, so nothing is taken back.
    const d = await paidAddress('30');
    cut = false;
    fake.setPlan((path, body) => {
      if (isBroadcastOf('TriggerSmartContract')(path, body)) {
        cut = true;
        return { kind: 'lost' };
      }
      return cut && path.endsWith('/gettransactioninfobyid') ? { kind: '503' } : null;
    });
    await expect(sweepTron(sweepDeps(), { energy: 'delegate' })).rejects.toThrow(/HTTP 503/);
    fake.setPlan(null);
    expect(fake.delegatedEnergySun(hot, d)).toBeGreaterThan(0n);
    expect(opsOf(d).map((o) => o.type)).toEqual(['delegate']);
    expect(await txsTo('reclaim', d)).toEqual([]);
    // Once the sweep's solidified info is there, a later run takes the delegation back, once.
    fake.produce(1 + SOLID_LAG);
    expect(await sweepTron(sweepDeps(), { energy: 'delegate' })).toEqual([]);
    expect(fake.tokenBalance(d)).toBe(0n);
    expect(fake.delegatedEnergySun(hot, d)).toBe(0n);
    expect(opsOf(d).map((o) => o.type)).toEqual(['delegate', 'undelegate']);
    expect((await txsTo('reclaim', d)).map((r) => r.status)).toEqual(['success']);
    expect(await sweepTron(sweepDeps(), { energy: 'delegate' })).toEqual([]);
    expect(opsOf(d)).toHaveLength(2);
  });

  it('burns TRX when the hot wallet cannot lend enough', async () => {
    const e = await paidAddress('15');
    const can = await provider().node.canDelegateEnergySun(hot);
    const spare = fake.frozenEnergySun(hot);
    // The stake is all lent elsewhere: nothing left to delegate for this sweep.
    const other = addressOfKey(randomBytes(32).toString('hex'));
    fake.fundTrx(other, 1_000_000n);
    fake.produce(1 + SOLID_LAG);
    const ref = await provider().node.nowBlock(true);
    expect(await provider().node.broadcast(signTx(buildEnergyDelegation({ from: hot, to: other, balanceSun: can, undelegate: false, ref, lifetimeMs: 60_000 }), hotKey))).toEqual({ accepted: true });
    fake.produce(1 + SOLID_LAG);
    expect(await provider().node.canDelegateEnergySun(hot)).toBe(0n);
    const [r] = await sweepTron(sweepDeps(), { energy: 'delegate' });
    expect(r).toMatchObject({ address: e, energy: 'burn', delegatedSun: 0n });
    expect(fake.tokenBalance(e)).toBe(0n);
    expect(opsOf(e)).toEqual([]);
    expect(spare).toBe(20_000_000_000n);
  });
});

describe('configuration', () => {
  it('refuses to start without the price, with a bad key or contract, naming the variable and never the secret', () => {
    expect(() => loadConfig({ PAYMENTS: 'tron', TRON_SEED: MNEMONIC })).toThrow(/TRON_TRX_USD_PRICE: required/);
    expect(() => loadConfig({ PAYMENTS: 'tron', TRON_SEED: MNEMONIC, TRON_TRX_USD_PRICE: '0.25', TRON_HOT_WALLET_KEY: 'abc' })).toThrow(/TRON_HOT_WALLET_KEY: must be/);
    expect(() => loadConfig({ PAYMENTS: 'tron', TRON_SEED: MNEMONIC, TRON_TRX_USD_PRICE: '0.25', TRON_USDT_CONTRACT: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' })).toThrow(/TRON_USDT_CONTRACT/);
    expect(() => loadConfig({ PAYMENTS: 'tron,sandbox', TRON_SEED: MNEMONIC })).toThrow(ConfigError);
    const config = loadConfig(tronEnv(hotKey));
    expect(JSON.stringify(config)).not.toContain(hotKey);
    expect(JSON.stringify(config)).not.toContain('junk');
    expect(config.rails).toEqual(['tron']);
  });

  it('takes the EVM seed when TRON_SEED is unset', () => {
    const config = loadConfig({ PAYMENTS: 'tron', EVM_SEED: MNEMONIC, TRON_TRX_USD_PRICE: '0.25' });
    expect(config.tron!.seed.reveal()).toBe(MNEMONIC);
  });
});

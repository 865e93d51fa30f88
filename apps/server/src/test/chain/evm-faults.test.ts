/**
 * The `evm` rail under faults (docs/payments.md, "What can go wrong"): the real app (PAYMENTS=evm) talks to a local
 * ganache chain through a fault-injecting JSON-RPC proxy (test/chain/rpc-proxy.ts) that times out,
 * answers 429, loses or duplicates answers, answers late, denies receipts, refuses transactions and
 * lags behind. Blocks are mined on demand; time moves by ManualClock. Nothing here asserts on timing:
 * conditions are polled with generous caps.
 */
import { randomInt } from 'node:crypto';
import { Writable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseEther, parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evmPayouts, evmTransfers } from '../../db/schema/index';
import { verifyLedger } from '../../modules/ledger/ledger.verify';
import { startTestChain, type TestChain } from './chain';
import { seeded, startFaultProxy, type Fault, type FaultPlan, type FaultProxy } from './rpc-proxy';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp, type TestUser } from '../harness';
import { createScratchDatabase, type ScratchDatabase } from '../scratch-database';
import type { EvmProvider } from '../../providers/payments/evm/index';
import { countPayoutsBehindGap, STUCK_MS } from '../../providers/payments/evm/payouts';

const MNEMONIC = 'test test test test test test test test test test test junk';
const CONFIRMATIONS = 2;
const usdt = (v: string) => parseUnits(v, 6);

let chain: TestChain;
let proxy: FaultProxy;
let t: TestApp;
let user: TestUser;
const logs: string[] = [];
let scratch: ScratchDatabase | undefined;

beforeAll(async () => {
  chain = await startTestChain(randomInt(100_000, 2_000_000_000));
  proxy = await startFaultProxy(chain.rpcUrl);
  const hotKey = generatePrivateKey();
  const hot = privateKeyToAccount(hotKey).address;
  await chain.fund(hot, parseEther('100'));
  await chain.mint(hot, usdt('1000000'));
  // A node lagging a few blocks behind still sees the hot wallet funded (see docs/payments.md, "What can go wrong").
  await chain.mine(8);
  const networks = [
    {
      name: 'ETH',
      chainId: chain.chainId,
      rpcUrl: proxy.url,
      confirmations: CONFIRMATIONS,
      blockRange: 50,
      nativeSymbol: 'ETH',
      nativeUsdPrice: '3000',
      pollingIntervalMs: 20,
      // Calls that are not meant to fail get seconds; a fault fails fast or waits for this.
      rpcTimeoutMs: 3_000,
      rpcRetries: 0,
      tokens: [{ symbol: 'USDT', address: chain.token, decimals: 6 }],
    },
  ];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  // A database of its own on PostgreSQL: payout passes claim every due `evm` bill, and another test
  // file's bills (its own chain, its own clock) would otherwise be claimed and leased by this app.
  scratch = await createScratchDatabase('coffer_evm_faults');
  t = await createTestApp(
    {
      PAYMENTS: 'evm',
      EVM_NETWORKS: JSON.stringify(networks),
      EVM_SEED: MNEMONIC,
      EVM_HOT_WALLET_KEY: hotKey,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    },
    { logStream: sink },
  );
  user = await createUser(t);
  await fund(t, user.id, '100000000');
}, 120_000);

afterAll(async () => {
  await t?.close();
  await scratch?.drop();
  await proxy?.close();
  await chain?.close();
});

const services = () => t.app.ctx.services;
const provider = () => services().provider as EvmProvider;
const db = () => t.app.ctx.database.db;
/** `coffer_evm_payouts_behind_gap` as GET /metrics reports it to a loopback client. */
async function behindGapMetric(): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  const line = res.body.split('\n').find((l) => l.startsWith('coffer_evm_payouts_behind_gap '));
  expect(line).toBeDefined();
  return Number(line!.split(' ')[1]);
}
const newAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/** A confirmed withdrawal of `points` to `to` (the bill is queued for payout). */
async function withdraw(points: string, to: Address) {
  const w = services().withdrawals;
  const { bill } = await w.create(user.id, {
    user_id: user.id,
    currency: 'usdterc20',
    network: 'ETH',
    amount: points,
    address: to,
    memo: '',
  });
  const { bill: confirmed } = await w.confirm(user.id, { bill_id: bill.id, password: md5(PASSWORD) });
  return confirmed;
}

const withdrawStatus = async (id: string) =>
  (await services().withdrawals.detail(user.id, { user_id: user.id, bill_id: id })).bill;

/** One payout pass after every lease ran out (a pass that failed to run leaves its lease 60 s). */
async function payoutPass() {
  t.clock.advance(61_000);
  return services().withdrawals.runPayouts(50);
}

/** Mines and runs payout passes, with no faults, until every bill is final (at most `cap` rounds). */
async function settle(ids: string[], cap = 20) {
  proxy.setPlan(null);
  for (let i = 0; i < cap; i++) {
    const bills = await Promise.all(ids.map(withdrawStatus));
    if (bills.every((b) => b.status === 'WithdrawStatusSuccess' || b.status === 'WithdrawStatusRefunded')) return bills;
    await chain.mine(CONFIRMATIONS);
    await payoutPass();
  }
  return Promise.all(ids.map(withdrawStatus));
}

/** A plan that gives `fault` to requests of `method` (all, or the first `times`). */
function onMethod(method: string, fault: Fault, times = Infinity): FaultPlan {
  let left = times;
  return (r) => {
    if (r.method !== method || left <= 0) return null;
    left--;
    return fault;
  };
}

async function expectLedgerOk() {
  const report = await verifyLedger(db());
  expect(report.violations).toEqual([]);
  expect(report.ok).toBe(true);
}

describe('payouts under faults', () => {
  it('pays once and never refunds a mined payout while answers are lost, late, duplicated, denied, limited or behind', async () => {
    const to = newAddress();
    const bill = await withdraw('2000', to);
    const amount = usdt(bill.currency_amount);

    // The broadcast takes effect but its answer is lost.
    proxy.setPlan(onMethod('eth_sendRawTransaction', { kind: 'drop' }));
    await payoutPass();
    expect(await chain.tokenBalance(to)).toBe(amount);
    const [row] = await db().select().from(evmPayouts).where(eq(evmPayouts.payoutId, bill.id));
    expect(row!.status).toBe('signed');
    await chain.mine(CONFIRMATIONS);

    // The node denies the receipt of the mined transaction: no refund (the nonce's block shows it is ours).
    proxy.setPlan(onMethod('eth_getTransactionReceipt', { kind: 'deny-receipt' }));
    await payoutPass();
    await payoutPass();
    expect((await withdrawStatus(bill.id)).status).toBe('WithdrawStatusProcessing');
    // Rate limits, lost answers and a node that lags behind: still no refund, no second transfer.
    for (const fault of [{ kind: '429' }, { kind: 'gateway-timeout' }, { kind: 'drop' }, { kind: 'lag', blocks: 4 }] as Fault[]) {
      proxy.setPlan(() => fault);
      await payoutPass();
      expect((await withdrawStatus(bill.id)).status).toBe('WithdrawStatusProcessing');
    }
    // A timeout, and an answer that arrives after the caller gave up.
    proxy.setPlan(onMethod('eth_getTransactionReceipt', { kind: 'timeout' }, 1));
    await payoutPass();
    proxy.setPlan(onMethod('eth_blockNumber', { kind: 'late' }, 1));
    await payoutPass();
    expect((await withdrawStatus(bill.id)).status).toBe('WithdrawStatusProcessing');

    const [done] = await settle([bill.id]);
    expect(done).toMatchObject({ status: 'WithdrawStatusSuccess', txid: row!.txHash });
    expect(await chain.tokenBalance(to)).toBe(amount);
    expect(await db().select().from(evmPayouts).where(eq(evmPayouts.payoutId, bill.id))).toHaveLength(1);
    expect(proxy.injected['deny-receipt']).toBeGreaterThan(0);
    await expectLedgerOk();
  }, 60_000);

  it('sends once when the broadcast is answered late or twice', async () => {
    const to = newAddress();
    const bill = await withdraw('1500', to);
    // Answered after the caller gave up: the transfer happens, the caller saw a timeout.
    proxy.setPlan(onMethod('eth_sendRawTransaction', { kind: 'late' }, 1));
    const first = await payoutPass();
    expect(first.refunded).toBe(0);
    // The next broadcast is delivered twice ("already known" / nonce used on the second).
    proxy.setPlan(onMethod('eth_sendRawTransaction', { kind: 'duplicate' }));
    await payoutPass();
    const [done] = await settle([bill.id]);
    expect(done!.status).toBe('WithdrawStatusSuccess');
    expect(await chain.tokenBalance(to)).toBe(usdt(bill.currency_amount));
    await expectLedgerOk();
  }, 60_000);

  it('lets overlapping instances sign one transaction: same txid, one transfer', async () => {
    const to = newAddress();
    const bill = await withdraw('1200', to);
    const request = {
      payoutId: bill.id,
      currency: 'usdterc20',
      network: 'ETH',
      address: to,
      memo: '',
      currencyAmount: bill.currency_amount,
    };
    proxy.setPlan(onMethod('eth_sendRawTransaction', { kind: 'duplicate' }));
    const outcomes = await Promise.all([
      provider().sendPayout(request),
      provider().sendPayout(request),
      provider().sendPayout(request),
    ]);
    const txids = new Set(outcomes.map((o) => ('txid' in o ? o.txid : o.status)));
    expect(txids.size).toBe(1);
    expect(outcomes.every((o) => o.status === 'pending')).toBe(true);
    const [done] = await settle([bill.id]);
    expect(done!.status).toBe('WithdrawStatusSuccess');
    expect(await chain.tokenBalance(to)).toBe(usdt(bill.currency_amount));
    await expectLedgerOk();
  }, 60_000);

  it('fills a nonce the node never takes, refunds that payout on proof, and completes the payouts behind it', async () => {
    const toStuck = newAddress();
    const toNext = newAddress();
    // The PostgreSQL database may hold other runs' rows: counts are relative.
    const blockedBefore = await countPayoutsBehindGap(db());
    const stuck = await withdraw('1100', toStuck);
    // The node refuses every broadcast of this payout's transaction.
    proxy.setPlan(onMethod('eth_sendRawTransaction', { kind: 'refuse' }));
    await payoutPass();
    const [stuckRow] = await db().select().from(evmPayouts).where(eq(evmPayouts.payoutId, stuck.id));
    expect(stuckRow!.stuckSince).not.toBeNull();
    proxy.setPlan((r) =>
      r.method === 'eth_sendRawTransaction' && r.params[0] === stuckRow!.signedTx ? { kind: 'refuse' } : null,
    );
    const next = await withdraw('1300', toNext);
    await payoutPass();
    const [nextRow] = await db().select().from(evmPayouts).where(eq(evmPayouts.payoutId, next.id));
    expect(nextRow!.nonce).toBe(stuckRow!.nonce! + 1);
    expect(nextRow!.blockedByNonce).toBe(stuckRow!.nonce);
    expect(await countPayoutsBehindGap(db())).toBe(blockedBefore + 1);
    expect(await behindGapMetric()).toBe(blockedBefore + 1);
    expect(logs.some((l) => l.includes('wait behind a nonce gap') && l.includes(next.id))).toBe(true);
    expect((await withdrawStatus(stuck.id)).status).toBe('WithdrawStatusProcessing');

    // Past the stuck time the nonce is filled by a zero-value self-transfer; the refused payout is
    // refunded only once the filler's block proves its nonce used, and the next payout goes through.
    t.clock.advance(STUCK_MS);
    let bills = await Promise.all([stuck.id, next.id].map(withdrawStatus));
    for (let i = 0; i < 20 && bills.some((b) => b.status === 'WithdrawStatusProcessing'); i++) {
      await payoutPass();
      await chain.mine(CONFIRMATIONS);
      bills = await Promise.all([stuck.id, next.id].map(withdrawStatus));
    }
    expect(bills[0]!.status).toBe('WithdrawStatusRefunded');
    expect(bills[0]!.failure_reason).toMatch(/nonce \d+ was used by another transaction/);
    expect(bills[1]!.status).toBe('WithdrawStatusSuccess');
    expect(await chain.tokenBalance(toStuck)).toBe(0n);
    expect(await chain.tokenBalance(toNext)).toBe(usdt(next.currency_amount));
    const fillers = await db()
      .select()
      .from(evmPayouts)
      .where(and(eq(evmPayouts.chainId, chain.chainId), eq(evmPayouts.kind, 'filler'), eq(evmPayouts.nonce, stuckRow!.nonce!)));
    expect(fillers.map((f) => f.status)).toEqual(['success']);
    expect(await countPayoutsBehindGap(db())).toBe(blockedBefore);
    expect(await behindGapMetric()).toBe(blockedBefore);
    await expectLedgerOk();
  }, 60_000);

  it('fills a nonce an older version freed while the next one was signed', async () => {
    const toFreed = newAddress();
    const toNext = newAddress();
    const freed = await withdraw('1100', toFreed);
    proxy.setPlan(onMethod('eth_sendRawTransaction', { kind: 'refuse' }));
    await payoutPass();
    const [freedRow] = await db().select().from(evmPayouts).where(eq(evmPayouts.payoutId, freed.id));
    proxy.setPlan((r) =>
      r.method === 'eth_sendRawTransaction' && r.params[0] === freedRow!.signedTx ? { kind: 'refuse' } : null,
    );
    const next = await withdraw('1300', toNext);
    await payoutPass();
    // What an older version did: fail the payout and free its nonce although the next one is signed.
    await db()
      .update(evmPayouts)
      .set({ status: 'failed', reason: 'freed by an older version' })
      .where(eq(evmPayouts.payoutId, freed.id));
    const bills = await settle([freed.id, next.id]);
    expect(bills.map((b) => b.status)).toEqual(['WithdrawStatusRefunded', 'WithdrawStatusSuccess']);
    expect(await chain.tokenBalance(toNext)).toBe(usdt(next.currency_amount));
    expect(await chain.tokenBalance(toFreed)).toBe(0n);
    const fillers = await db()
      .select()
      .from(evmPayouts)
      .where(and(eq(evmPayouts.chainId, chain.chainId), eq(evmPayouts.kind, 'filler'), eq(evmPayouts.nonce, freedRow!.nonce!)));
    expect(fillers.map((f) => f.status)).toEqual(['success']);
    await expectLedgerOk();
  }, 60_000);
});

describe('deposits under spam and faults', () => {
  async function depositBill(points: string) {
    const { bill } = await services().deposits.create(user.id, { amount: points, pay_currency: 'usdterc20' });
    return bill as unknown as { id: string; address: Address; currency_amount: string };
  }
  const tick = async () => (await provider().watcher()!.tick())![0]!;

  it('ignores zero-value and dust transfers with their reasons and credits the real payment after them', async () => {
    const bill = await depositBill('900');
    await tick();
    await chain.pay(bill.address, 0n);
    await chain.pay(bill.address, 1_000n); // 0.001 USDT: dust
    await chain.pay(bill.address, usdt('9'));
    await chain.mine(CONFIRMATIONS);
    proxy.setPlan(null);
    const pass = await tick();
    expect(pass).toMatchObject({ credited: 1, failed: 0 });
    const rows = await db().select().from(evmTransfers).where(eq(evmTransfers.billId, bill.id));
    expect(rows.map((r) => [r.amount, r.status, r.reason]).sort()).toEqual([
      ['0', 'ignored', 'zero-value'],
      ['1000', 'ignored', 'dust'],
      ['9000000', 'credited', null],
    ]);
    const payments = await services().deposits.payments(bill.id);
    expect(payments).toHaveLength(1);
    await expectLedgerOk();
  }, 60_000);

  it('retries a transfer whose crediting fails later with backoff and credits the others meanwhile', async () => {
    const bad = await depositBill('500');
    const good = await depositBill('600');
    await tick();
    await chain.pay(bad.address, usdt('5'));
    await chain.pay(good.address, usdt('6'));
    await chain.mine(CONFIRMATIONS);
    let failing = true;
    const credit = services().deposits.creditPayment.bind(services().deposits);
    const attached = provider().attach!({
      credit: async (p) => {
        if (failing && p.billId === bad.id) throw new Error('database hiccup');
        return credit(p);
      },
    });
    try {
      const worker = attached.workers![0]!;
      const first = ((await worker.tick()) as { credited: number; failed: number }[])[0]!;
      expect(first).toMatchObject({ credited: 1, failed: 1 });
      const [row] = await db().select().from(evmTransfers).where(eq(evmTransfers.billId, bad.id));
      expect(row).toMatchObject({ status: 'pending', attempts: 1, reason: 'database hiccup' });
      // Before its backoff ran out it is not tried again.
      const second = ((await worker.tick()) as { failed: number }[])[0]!;
      expect(second.failed).toBe(0);
      failing = false;
      t.clock.advance(31_000);
      const third = ((await worker.tick()) as { credited: number }[])[0]!;
      expect(third.credited).toBe(1);
    } finally {
      await attached.close?.();
    }
    expect(await services().deposits.payments(bad.id)).toHaveLength(1);
    expect(await services().deposits.payments(good.id)).toHaveLength(1);
    await expectLedgerOk();
  }, 60_000);
});

describe('random fault schedules', () => {
  const KINDS: Fault[] = [
    { kind: '429' },
    { kind: 'gateway-timeout' },
    { kind: 'drop' },
    { kind: 'duplicate' },
    { kind: 'deny-receipt' },
    { kind: 'lag', blocks: 1 },
    { kind: 'lag', blocks: 3 },
  ];
  const SCHEDULES = Number(process.env.EVM_SCHEDULES ?? 200);

  it(`keeps every payout paid once, every real deposit credited once and the ledger whole over ${SCHEDULES} seeded fault schedules`, async () => {
    for (let seed = 1; seed <= SCHEDULES; seed++) {
      const to = newAddress();
      const bill = await withdraw(String(1000 + ((seed * 7919) % 2000)), to);
      const rng = seeded(seed);
      const rate = rng() * 0.6;
      const pick = () => KINDS[Math.floor(rng() * KINDS.length)]!;
      const plan: FaultPlan = () => (rng() < rate ? pick() : null);
      const context = `seed ${seed}`;

      const withDeposit = seed % 8 === 0;
      const deposit = withDeposit
        ? (await services().deposits.create(user.id, { amount: '700', pay_currency: 'usdterc20' })).bill
        : null;
      if (deposit) {
        await chain.pay(deposit.address as Address, 0n);
        await chain.pay(deposit.address as Address, usdt('7'));
      }

      proxy.setPlan(plan);
      for (let round = 0; round < 2; round++) {
        await payoutPass();
        if (deposit) await provider().watcher()!.tick();
        await chain.mine(1);
      }
      proxy.setPlan(null);
      let final = await withdrawStatus(bill.id);
      for (let i = 0; i < 12 && final.status === 'WithdrawStatusProcessing'; i++) {
        await chain.mine(CONFIRMATIONS);
        await payoutPass();
        final = await withdrawStatus(bill.id);
      }
      // Nothing in these schedules is a reason to refund: every payout is paid, exactly once.
      expect(final.status, `${context}: ${final.failure_reason}`).toBe('WithdrawStatusSuccess');
      expect(await chain.tokenBalance(to), context).toBe(usdt(final.currency_amount));
      if (deposit) {
        let credited = await services().deposits.payments(deposit.id);
        for (let i = 0; i < 6 && credited.length === 0; i++) {
          await chain.mine(CONFIRMATIONS);
          await provider().watcher()!.tick();
          credited = await services().deposits.payments(deposit.id);
        }
        expect(
          credited.map((p) => parseUnits(String(p.currencyAmount), 6)),
          context,
        ).toEqual([usdt('7')]);
      }
      const report = await verifyLedger(db());
      expect(report.violations, context).toEqual([]);
    }
    const live = await db()
      .select()
      .from(evmPayouts)
      .where(and(eq(evmPayouts.chainId, chain.chainId), inArray(evmPayouts.status, ['signed', 'broadcast'])));
    expect(live).toEqual([]);
    expect(Object.keys(proxy.injected).length).toBeGreaterThanOrEqual(KINDS.length - 1);
  }, 600_000);
});

/**
 * The `tron` rail under faults (docs/payments.md, "What can go wrong", TRON rail): the real app
 * (PAYMENTS=tron) against the in-memory fake of the TRON HTTP API (./fake-node.ts), whose fault plan
 * answers 503 and 429, loses answers after acting, acts twice and repeats list entries, and answers
 * like a lagging node (lists cut short, lookups and blocks not found); the chain reorganises
 * unsolidified blocks, moving or dropping transactions. Blocks are made on demand and time moves by
 * ManualClock: no real timers. After each seeded schedule: every payout paid exactly once (the
 * recipient holds exactly its amount; none refunded, since nothing in these schedules proves a
 * payout failed), every real deposit credited exactly once, the ledger whole.
 */
import { randomBytes } from 'node:crypto';
import { Big } from '@coffer/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tronPayouts, tronTransfers, tronTxs } from '../../db/schema/index';
import { verifyLedger } from '../../modules/ledger/ledger.verify';
import { addressOfKey } from '../../providers/payments/tron/address';
import type { TronProvider } from '../../providers/payments/tron/index';
import { seeded } from '../chain/rpc-proxy';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp, type TestUser } from '../harness';
import { createScratchDatabase, type ScratchDatabase } from '../scratch-database';
import { startFakeTronNode, type FakeFault, type FakePlan, type FakeTronNode } from './fake-node';

const MNEMONIC = 'test test test test test test test test test test test junk';
const SOLID_LAG = 3;
/** 200 on PostgreSQL (CI's database pass); fewer on PGlite unless TRON_SCHEDULES says otherwise. */
const SCHEDULES = Number(process.env.TRON_SCHEDULES ?? (process.env.DATABASE_URL ? 200 : 40));
const usdt = (whole: number) => BigInt(whole) * 1_000_000n;

let fake: FakeTronNode;
let t: TestApp;
let user: TestUser;
let scratch: ScratchDatabase | undefined;
const payer = addressOfKey(randomBytes(32).toString('hex'));

beforeAll(async () => {
  fake = await startFakeTronNode({ solidLag: SOLID_LAG });
  const hotKey = randomBytes(32).toString('hex');
  const hot = addressOfKey(hotKey);
  fake.fundTrx(hot, 100_000_000_000n);
  fake.produce(SOLID_LAG + 2);
  fake.mint(hot, usdt(100_000_000));
  scratch = await createScratchDatabase('coffer_tron_faults');
  t = await createTestApp({
    PAYMENTS: 'tron',
    TRON_NODE_URL: fake.url,
    TRON_SEED: MNEMONIC,
    TRON_HOT_WALLET_KEY: hotKey,
    TRON_TRX_USD_PRICE: '0.25',
    TRON_TIMEOUT_MS: '5000',
    TRON_TX_EXPIRATION_SECONDS: '60',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  user = await createUser(t);
  await fund(t, user.id, '100000000');
}, 180_000);

afterAll(async () => {
  await t?.close();
  await scratch?.drop();
  await fake?.close();
});

const services = () => t.app.ctx.services;
const provider = () => services().provider as TronProvider;
const db = () => t.app.ctx.database.db;
const newAddress = () => addressOfKey(randomBytes(32).toString('hex'));

async function withdraw(points: string, to: string) {
  const w = services().withdrawals;
  const { bill } = await w.create(user.id, { user_id: user.id, currency: 'usdttrc20', network: 'TRX', amount: points, address: to, memo: '' });
  return (await w.confirm(user.id, { bill_id: bill.id, password: md5(PASSWORD) })).bill;
}
const withdrawStatus = async (id: string) => (await services().withdrawals.detail(user.id, { user_id: user.id, bill_id: id })).bill;
async function payoutPass() {
  t.clock.advance(61_000);
  return services().withdrawals.runPayouts(50);
}
/** A watcher pass; a node failure is what the schedule asked for (the next pass reads again). */
const tick = () => provider().watcher()!.tick().catch(() => null);

describe('the tron rail under faults', () => {
  it('re-broadcasts the same bytes when the answer is lost after acting, and pays once', async () => {
    const to = newAddress();
    const bill = await withdraw('2000', to);
    fake.setPlan((path) => (path === '/wallet/broadcasttransaction' ? { kind: 'lost' } : null));
    await payoutPass();
    await payoutPass();
    fake.setPlan(null);
    expect(fake.pool()).toHaveLength(1);
    fake.produce(1 + SOLID_LAG);
    await payoutPass();
    expect((await withdrawStatus(bill.id)).status).toBe('WithdrawStatusSuccess');
    expect(fake.tokenBalance(to)).toBe(BigInt(Math.round(Number(bill.currency_amount) * 1e6)));
    expect(await db().select().from(tronTxs).where(eq(tronTxs.ref, bill.id))).toHaveLength(1);
  }, 120_000);

  it('never refunds a mined payout whose lookups are missing, and proves nothing from a gap', async () => {
    const to = newAddress();
    const bill = await withdraw('1500', to);
    await payoutPass();
    fake.produce(1);
    // A lagging node: the payout's infos and blocks are not found, for far past the expiration.
    fake.setPlan((path) => (/gettransactioninfobyid|getblockbylimitnext/.test(path) ? { kind: 'missing' } : null));
    fake.produce(40);
    await payoutPass();
    await payoutPass();
    fake.setPlan(null);
    expect((await withdrawStatus(bill.id)).status).toBe('WithdrawStatusProcessing');
    expect(await db().select().from(tronTxs).where(eq(tronTxs.ref, bill.id))).toHaveLength(1);
    await payoutPass();
    expect((await withdrawStatus(bill.id)).status).toBe('WithdrawStatusSuccess');
    expect(fake.tokenBalance(to)).toBe(BigInt(Math.round(Number(bill.currency_amount) * 1e6)));
  }, 120_000);

  it(`keeps every payout paid once, every deposit credited once and the ledger whole over ${SCHEDULES} seeded fault schedules`, async () => {
    const KINDS: FakeFault[] = [{ kind: '503' }, { kind: '429' }, { kind: 'lost' }, { kind: 'duplicate' }, { kind: 'missing' }];
    let reorgs = 0;
    for (let seed = 1; seed <= SCHEDULES; seed++) {
      const context = `seed ${seed}`;
      const rng = seeded(seed);
      const rate = rng() * 0.5;
      const plan: FakePlan = () => (rng() < rate ? KINDS[Math.floor(rng() * KINDS.length)]! : null);
      const to = newAddress();
      const bill = await withdraw(String(1000 + ((seed * 7919) % 2000)), to);
      const withDeposit = seed % 3 === 0;
      const deposit = withDeposit ? (await services().deposits.create(user.id, { amount: '700', pay_currency: 'usdttrc20' })).bill : null;
      if (deposit) {
        fake.payToken(payer, deposit.address, 0n);
        fake.payToken(payer, deposit.address, usdt(7));
      }

      fake.setPlan(plan);
      for (let round = 0; round < 3; round++) {
        await payoutPass();
        if (deposit) await tick();
        fake.produce(1);
        if (rng() < 0.3) {
          // A reorg before solidification: the newest block's transactions move to a later block, or
          // (rarely) are dropped; a dropped deposit is paid again by its payer, a dropped payout expires.
          const drop = rng() < 0.25;
          fake.reorg(1, drop ? () => true : undefined);
          reorgs++;
        }
      }
      fake.setPlan(null);
      let final = await withdrawStatus(bill.id);
      for (let i = 0; i < 30 && final.status === 'WithdrawStatusProcessing'; i++) {
        fake.produce(1 + SOLID_LAG);
        await payoutPass();
        final = await withdrawStatus(bill.id);
      }
      expect(final.status, `${context}: ${final.failure_reason}`).toBe('WithdrawStatusSuccess');
      expect(fake.tokenBalance(to), context).toBe(BigInt(Math.round(Number(final.currency_amount) * 1e6)));
      const [payout] = await db().select().from(tronPayouts).where(eq(tronPayouts.payoutId, bill.id));
      expect(final.txid, context).toBe(payout!.txid);
      if (deposit) {
        let credited = await services().deposits.payments(deposit.id);
        for (let i = 0; i < 8 && credited.length === 0; i++) {
          if (i === 3) {
            // The payment was dropped by a reorg (never mined): its payer pays again.
            const seen = await db().select().from(tronTransfers).where(and(eq(tronTransfers.billId, deposit.id), eq(tronTransfers.status, 'pending')));
            if (!seen.length) fake.payToken(payer, deposit.address, usdt(7));
          }
          fake.produce(1 + SOLID_LAG);
          await tick();
          credited = await services().deposits.payments(deposit.id);
        }
        expect(
          credited.map((p) => new Big(String(p.currencyAmount)).toFixed(6)),
          context,
        ).toEqual(['7.000000']);
      }
      const report = await verifyLedger(db());
      expect(report.violations, context).toEqual([]);
    }
    const live = await db().select().from(tronTxs).where(inArray(tronTxs.status, ['signed', 'broadcast', 'mined']));
    expect(live).toEqual([]);
    expect(Object.keys(fake.injected).length).toBe(5);
    expect(reorgs).toBeGreaterThan(0);
  }, 600_000);
});

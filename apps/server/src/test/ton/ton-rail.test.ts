/**
 * The `ton` provider end to end: the real app (PAYMENTS=ton) against an offline TON (@ton/sandbox
 * with a USDT jetton minter, test/ton/chain.ts), reached through the rail's TonApi with faults
 * injected in between. Deposits are paid with memos and found by the watcher; payouts leave the
 * hot wallet in batches and arrive in the recipients' jetton wallets. Blocks are made on demand at
 * the chain time of the ManualClock.
 */
import { randomBytes } from 'node:crypto';
import { Big } from '@coffer/contract';
import { Writable } from 'node:stream';
import { Address, beginCell, toNano } from '@ton/core';
import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tonBatches, tonPayouts, tonScanState, tonTransfers } from '../../db/schema/index';
import { ConfigError, loadConfig } from '../../env';
import { verifyLedger } from '../../modules/ledger/ledger.verify';
import { seeded, startTestTon, type TestTon, type TonFault, type TonFaultPlan } from './chain';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp, type TestUser } from '../harness';
import { createScratchDatabase, type ScratchDatabase } from '../scratch-database';
import { Secret } from '../../providers/payments/ton/config';
import { EXPIRY_MARGIN_S } from '../../providers/payments/ton/payouts';
import { hotWalletKeyPair, TON_USDT_CODE, type TonProvider } from '../../providers/payments/ton/index';
import { OP_INTERNAL_TRANSFER, parseInternalTransfer } from '../../providers/payments/ton/jetton';

const uc = (p: string) => `/api/uc/v1/account${p}`;
/** Whole USDT (up to 8 decimals) to base units, rounded down as the rail sends them. */
const usdt = (v: string) => BigInt(new Big(v).times(1e6).round(0, Big.roundDown).toFixed(0));

let chain: TestTon;
let t: TestApp;
let words: string[];
let scratch: ScratchDatabase | undefined;
const logs: string[] = [];

const randomOwner = () => new Address(0, randomBytes(32));

beforeAll(async () => {
  const start = Date.now();
  chain = await startTestTon(Math.floor(start / 1000));
  words = await mnemonicNew();
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  // A database of its own on PostgreSQL: payout passes claim every due `ton` bill.
  scratch = await createScratchDatabase('coffer_ton');
  t = await createTestApp(
    {
      PAYMENTS: 'ton',
      TON_HOT_WALLET_MNEMONIC: words.join(' '),
      TON_USD_PRICE: '3',
      TON_USDT_MASTER: chain.usdt.master.toString(),
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    },
    { logStream: sink, adjust: (c) => void (c.ton!.api = chain.api) },
  );
  t.clock.set(start);
  const hot = provider().hotWallet!;
  await chain.fund(hot, toNano('1000'));
  await chain.usdt.mint(hot, usdt('1000000'));
}, 120_000);

afterAll(async () => {
  await t?.close();
  await scratch?.drop();
});

const services = () => t.app.ctx.services;
const provider = () => services().provider as TonProvider;
const db = () => t.app.ctx.database.db;
const nowS = () => Math.floor(t.clock.now() / 1000);
/** A block at the clock's time. */
const mine = () => chain.mine(nowS());
const tick = async () => {
  const pass = await provider().watcher()!.tick();
  expect(pass, 'the watcher ran').not.toBeNull();
  return pass!;
};

async function depositBill(user: TestUser, points: string) {
  const res = await t.call(uc('/deposit'), { amount: points, pay_currency: TON_USDT_CODE }, user.token);
  expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
  return res.body.data.bill as { id: string; address: string; extra_id: string; currency_amount: string; status: string; network: string };
}
const detail = async (user: TestUser, billId: string) =>
  (await t.call(uc('/deposit/bill/detail'), { user_id: user.id, bill_id: billId }, user.token)).body.data.bill;
const assets = async (user: TestUser) => (await t.call(uc('/assets'), { user_id: user.id }, user.token)).body.data.asset;

/** A payer (any address) holding `amount` USDT, paying it to the deposit wallet with `comment`. */
async function pay(amount: bigint, comment: string | null, forwardTon = 1n) {
  const payer = randomOwner();
  await chain.usdt.mint(payer, amount);
  await chain.payJetton(chain.usdt, payer, provider().depositWallet, amount, comment, forwardTon);
  return payer;
}

describe('currencies and deposits', () => {
  it('offers USDT on TON with the TON address pattern, a payout memo, and cash-out on', async () => {
    const res = await t.call(uc('/currency/list'), {});
    const c = res.body.data.currencies.find((x: { code: string }) => x.code === TON_USDT_CODE);
    expect(c).toMatchObject({
      symbol: 'USDT',
      network: 'TON',
      wallet_regex: '^(EQ|UQ|kQ|0Q)[0-9A-Za-z_-]{46}$',
      extra_id_exists: true,
      extra_id_regex: '^[0-9A-Za-z_-]{1,64}$',
      fiatEquivalent: '10.00',
    });
    const min = await t.call(uc('/deposit/min-amount'), { currency_from: TON_USDT_CODE });
    expect(min.body.data.result).toEqual({ min_amount: '100.00', currency_min_amount: '1.00000000', fiat_equivalent: '1.00' });
  });

  it('gives every bill the one deposit wallet and a memo of its own', async () => {
    const user = await createUser(t);
    const a = await depositBill(user, '500');
    const b = await depositBill(user, '500');
    expect(a.address).toBe(b.address);
    expect(Address.parse(a.address).equals(provider().hotWallet!)).toBe(true);
    expect(a.address.startsWith('UQ')).toBe(true);
    expect(a.extra_id).toMatch(/^[A-Z2-9]{8}$/);
    expect(b.extra_id).not.toBe(a.extra_id);
    expect((await detail(user, a.id)).extra_id).toBe(a.extra_id);
  });

  it('credits a transfer with the memo once, after its block, however often it is read', async () => {
    const user = await createUser(t);
    const bill = await depositBill(user, '2500');
    await pay(usdt('25'), bill.extra_id);
    const pass = await tick();
    expect(pass).toMatchObject({ found: 1, credited: 1 });
    expect(await detail(user, bill.id)).toMatchObject({ status: 'DepositStatusSuccess', paid_currency_amount: '25.00000000', credited_amount: '2500.00' });
    expect((await tick()).credited).toBe(0);

    // A restart that lost the watcher's memory: the position goes back and the transfers are forgotten.
    const [row] = await db().select().from(tonTransfers).where(eq(tonTransfers.billId, bill.id));
    await db().delete(tonTransfers).where(eq(tonTransfers.billId, bill.id));
    await db()
      .update(tonScanState)
      .set({ lastLt: row!.lt - 1n })
      .where(eq(tonScanState.account, row!.account));
    const again = await tick();
    expect(again.found).toBeGreaterThanOrEqual(1);
    expect((await assets(user)).available).toBe('2500.00');
    expect(await services().deposits.payments(bill.id)).toHaveLength(1);
    expect((await services().deposits.payments(bill.id))[0]!.paymentRef).toBe(`ton:${row!.lt}:${row!.txHash}`);
  });

  it('matches a memo typed in lower case with spaces, and a transfer that forwards no TON', async () => {
    const user = await createUser(t);
    const a = await depositBill(user, '300');
    const b = await depositBill(user, '400');
    await pay(usdt('3'), ` ${a.extra_id.slice(0, 4).toLowerCase()} ${a.extra_id.slice(4)} `);
    await pay(usdt('4'), b.extra_id, 0n);
    const pass = await tick();
    expect(pass.credited).toBe(2);
    expect((await assets(user)).available).toBe('700.00');
  });

  it('credits nothing for a transfer without the memo or with an unknown one, and records why', async () => {
    const user = await createUser(t);
    const bill = await depositBill(user, '500');
    await pay(usdt('5'), null);
    await pay(usdt('5'), 'NOSUCHMEMO');
    await pay(usdt('0.001'), bill.extra_id); // dust
    const pass = await tick();
    expect(pass.credited).toBe(0);
    const rows = await db().select().from(tonTransfers).where(eq(tonTransfers.status, 'ignored'));
    const reasons = rows.map((r) => r.reason);
    expect(reasons).toEqual(expect.arrayContaining(['no-memo', 'unknown-memo', 'dust']));
    expect((await assets(user)).available).toBe('0.00');
    expect(logs.some((l) => l.includes('without a known memo'))).toBe(true);
  });

  it('credits nothing for a fake USDT of another master, nor for a forged internal_transfer', async () => {
    const user = await createUser(t);
    const bill = await depositBill(user, '900');
    const fake = await chain.deployJetton();
    const payer = randomOwner();
    await fake.mint(payer, usdt('9'));
    await chain.payJetton(fake, payer, provider().depositWallet, usdt('9'), bill.extra_id);
    expect(await fake.balanceOf(provider().depositWallet)).toBe(usdt('9'));
    // Someone who is no jetton wallet sends the deposit jetton wallet an internal_transfer with the memo.
    const ours = await chain.usdt.walletOf(provider().depositWallet);
    const forged = beginCell()
      .storeUint(OP_INTERNAL_TRANSFER, 32)
      .storeUint(1, 64)
      .storeCoins(usdt('9'))
      .storeAddress(payer)
      .storeAddress(payer)
      .storeCoins(0)
      .storeBit(true)
      .storeRef(beginCell().storeUint(0, 32).storeStringTail(bill.extra_id).endCell())
      .endCell();
    const txs = await chain.sendInternal(randomOwner(), ours, forged);
    expect(txs.some((x) => x.description.type === 'generic' && x.description.aborted)).toBe(true);
    await tick();
    expect(await services().deposits.payments(bill.id)).toHaveLength(0);
    expect((await assets(user)).available).toBe('0.00');
    expect((await detail(user, bill.id)).status).toBe('DepositStatusProcessing');
  });

  it('credits a late payment within the late-payment window and ignores one after it', async () => {
    const user = await createUser(t);
    const late = await depositBill(user, '300');
    const old = await depositBill(user, '700');
    t.clock.advance(1801_000);
    await mine();
    await pay(usdt('3'), late.extra_id);
    expect((await tick()).credited).toBe(1);
    expect(await detail(user, late.id)).toMatchObject({ status: 'DepositStatusSuccess', credited_amount: '300.00' });
    t.clock.advance(169 * 3600_000);
    await mine();
    await pay(usdt('7'), old.extra_id);
    const pass = await tick();
    expect(pass).toMatchObject({ credited: 0, ignored: 1 });
    const [row] = await db().select().from(tonTransfers).where(eq(tonTransfers.billId, old.id));
    expect(row).toMatchObject({ status: 'ignored', reason: 'late' });
  });
});

/** A confirmed withdrawal of `points` to `address` by a new user (or by `by`, whose balance must cover it). */
async function confirmedWithdrawal(points: string, address: Address, memo = 'memo123', by?: TestUser) {
  const user = by ?? (await createUser(t));
  if (!by) await fund(t, user.id, points);
  const w = services().withdrawals;
  const { bill } = await w.create(user.id, {
    user_id: user.id,
    currency: TON_USDT_CODE,
    network: 'TON',
    amount: points,
    address: address.toString({ bounceable: false }),
    memo,
  });
  const { bill: confirmed } = await w.confirm(user.id, { bill_id: bill.id, password: md5(PASSWORD) });
  return { user, bill: confirmed };
}
const withdrawStatus = async (user: TestUser, id: string) => (await services().withdrawals.detail(user.id, { user_id: user.id, bill_id: id })).bill;

/** One payout pass after every lease ran out. */
async function payoutPass() {
  t.clock.advance(61_000);
  return services().withdrawals.runPayouts(50);
}

describe('payouts from the hot wallet', () => {
  it('estimates the fee from the TON a transfer carries', async () => {
    const user = await createUser(t);
    const res = await t.call(uc('/withdraw/estimate/fee'), { currency: TON_USDT_CODE, amount: '2000' }, user.token);
    expect(res.body.data.result).toMatchObject({ fee: '0.15000000', fiat_equivalent: '0.15' });
  });

  it('sends the jettons with the memo and 1 nanoton forwarded, settles on the recipient wallet, never twice', async () => {
    const to = randomOwner();
    const { user, bill } = await confirmedWithdrawal('2000', to, 'EXCH-42');
    await payoutPass();
    const [row] = await db().select().from(tonPayouts).where(eq(tonPayouts.payoutId, bill.id));
    expect(row!.status).toBe('sent');
    expect(chain.mempool()).toBe(1);
    // Asked again before the block: the same batch is broadcast again, nothing new is signed.
    await provider().sendPayout({ payoutId: bill.id, currency: TON_USDT_CODE, network: 'TON', address: to.toString(), memo: 'EXCH-42', currencyAmount: bill.currency_amount });
    expect(await db().select().from(tonBatches).where(eq(tonBatches.id, row!.batchId!))).toHaveLength(1);
    await mine();
    await payoutPass();
    const done = await withdrawStatus(user, bill.id);
    expect(done.status).toBe('WithdrawStatusSuccess');
    expect(done.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(await chain.usdt.balanceOf(to)).toBe(usdt(bill.currency_amount));
    // The recipient's jetton wallet got the comment and 1 nanoton forwarded.
    const recipientWallet = await chain.usdt.walletOf(to);
    const tx = (await chain.api.getTransactions(recipientWallet, { limit: 5 }))[0]!;
    const it = parseInternalTransfer(tx.inMessage!.body)!;
    expect(it).toMatchObject({ comment: 'EXCH-42', forwardTonAmount: 1n });
    expect(await assets(user)).toMatchObject({ available: '0.00', freeze: '0.00' });
  });

  it('batches the payouts queued while a batch is in flight into one message', async () => {
    const first = await confirmedWithdrawal('1500', randomOwner());
    await payoutPass(); // first batch: one payout
    const others = await Promise.all([1, 2, 3].map(() => randomOwner()).map((a) => confirmedWithdrawal('1200', a)));
    await payoutPass(); // the first batch is live: the others wait in the queue
    await mine();
    await payoutPass(); // the first lands; the other three go in one batch
    const rows = await db()
      .select()
      .from(tonPayouts)
      .where(eq(tonPayouts.status, 'sent'));
    const batchIds = new Set(rows.filter((r) => others.some((o) => o.bill.id === r.payoutId)).map((r) => r.batchId));
    expect(batchIds.size).toBe(1);
    await mine();
    await payoutPass();
    for (const w of [first, ...others]) expect((await withdrawStatus(w.user, w.bill.id)).status).toBe('WithdrawStatusSuccess');
  });

  it('signs a payout again only when its batch expired unused: a dropped broadcast pays once', async () => {
    const to = randomOwner();
    const { user, bill } = await confirmedWithdrawal('1300', to);
    chain.setPlan((m) => (m === 'sendBoc' ? { kind: 'dropped' } : null));
    await payoutPass();
    await mine();
    await payoutPass();
    const [row] = await db().select().from(tonPayouts).where(eq(tonPayouts.payoutId, bill.id));
    expect(row!.status).toBe('sent');
    chain.setPlan(null);
    // Past valid_until plus the margin with the seqno unused: proof it never lands; queued and signed anew.
    t.clock.advance((120 + EXPIRY_MARGIN_S) * 1000);
    await mine();
    await payoutPass();
    const [again] = await db().select().from(tonPayouts).where(eq(tonPayouts.payoutId, bill.id));
    expect(again).toMatchObject({ status: 'sent', batches: 2 });
    const [expired] = await db().select().from(tonBatches).where(eq(tonBatches.id, row!.batchId!));
    expect(expired!.status).toBe('expired');
    await mine();
    await payoutPass();
    expect((await withdrawStatus(user, bill.id)).status).toBe('WithdrawStatusSuccess');
    expect(await chain.usdt.balanceOf(to)).toBe(usdt(bill.currency_amount));
  });

  it('pays 50 payouts asked for at once in at most two batches, each once', async () => {
    const run = randomBytes(4).toString('hex');
    const requests = Array.from({ length: 50 }, (_, i) => ({
      payoutId: `many-${run}-${i}`,
      currency: TON_USDT_CODE,
      network: 'TON',
      address: randomOwner().toString(),
      memo: i % 2 ? `M${i}` : '',
      currencyAmount: `${1 + i}.5`,
    }));
    const started = performance.now();
    await Promise.all(requests.map((r) => provider().sendPayout(r)));
    for (let i = 0; i < 4; i++) {
      await mine();
      await provider().payouts.progress();
    }
    const outcomes = await Promise.all(requests.map((r) => provider().payoutStatus(r.payoutId)));
    const elapsed = performance.now() - started;
    expect(outcomes.map((o) => o.status)).toEqual(requests.map(() => 'success'));
    for (const r of requests) expect(await chain.usdt.balanceOf(Address.parse(r.address))).toBe(usdt(r.currencyAmount));
    const rows = await db().select().from(tonPayouts).where(eq(tonPayouts.wallet, provider().hotWallet!.toRawString()));
    const mine50 = rows.filter((r) => r.payoutId.startsWith(`many-${run}-`));
    expect(new Set(mine50.map((r) => r.batchId)).size).toBeLessThanOrEqual(2);
    expect(mine50.every((r) => r.batches === 1)).toBe(true);
    console.info(`ton: 50 payouts signed, landed and settled on the test chain in ${Math.round(elapsed)} ms`);
  });

  it('refunds a payout the hot wallet cannot cover, before signing anything', async () => {
    const to = randomOwner();
    const balance = await chain.usdt.balanceOf(provider().hotWallet!);
    const points = ((balance / 1_000_000n + 10n) * 100n).toString();
    const { user, bill } = await confirmedWithdrawal(points, to);
    await payoutPass();
    const refunded = await withdrawStatus(user, bill.id);
    expect(refunded).toMatchObject({ status: 'WithdrawStatusRefunded', failure_reason: 'The hot wallet holds too few USDT for this payout' });
    expect(await assets(user)).toMatchObject({ available: `${points}.00`, freeze: '0.00' });
    expect(await db().select().from(tonPayouts).where(and(eq(tonPayouts.payoutId, bill.id), eq(tonPayouts.status, 'failed')))).toHaveLength(1);
    expect(chain.mempool()).toBe(0);
  });
});

describe('random fault schedules', () => {
  const KINDS: TonFault[] = [
    { kind: '429' },
    { kind: '503' },
    { kind: 'timeout' },
    { kind: 'lost-answer' },
    { kind: 'duplicate' },
    { kind: 'dropped' },
    { kind: 'lag', blocks: 1 },
    { kind: 'lag', blocks: 3 },
    { kind: 'repeat' },
  ];
  const SCHEDULES = Number(process.env.TON_SCHEDULES ?? 30);

  it(`pays every payout once, credits every deposit once, refunds nothing and keeps the ledger whole over ${SCHEDULES} seeded fault schedules`, async () => {
    const started = Date.now();
    // One payer and one depositor for every schedule (registration hashes a password: slow on purpose).
    const payer = await createUser(t);
    await fund(t, payer.id, '100000000');
    const depositor = await createUser(t);
    for (let seed = 1; seed <= SCHEDULES; seed++) {
      const rng = seeded(seed);
      const rate = 0.2 + rng() * 0.5;
      const plan: TonFaultPlan = () => (rng() < rate ? KINDS[Math.floor(rng() * KINDS.length)]! : null);
      const context = `seed ${seed}`;
      const n = 1 + Math.floor(rng() * 3);
      const payouts = [];
      for (let i = 0; i < n; i++) {
        const to = randomOwner();
        payouts.push({ to, ...(await confirmedWithdrawal(String(1000 + Math.floor(rng() * 2000)), to, 'memo123', payer)) });
      }
      const bill = rng() < 0.5 ? await depositBill(depositor, '700') : null;
      if (bill) {
        await pay(usdt('7'), bill.extra_id);
        await pay(usdt('7'), null); // without a memo: never credited
      }

      chain.setPlan(plan);
      for (let round = 0; round < 3; round++) {
        await payoutPass().catch(() => {});
        if (bill) await provider().watcher()!.tick();
        await mine();
      }
      chain.setPlan(null);
      for (let i = 0; i < 12; i++) {
        const all = await Promise.all(payouts.map((p) => withdrawStatus(p.user, p.bill.id)));
        const credited = bill ? await services().deposits.payments(bill.id) : [];
        if (all.every((b) => b.status !== 'WithdrawStatusProcessing') && (!bill || credited.length > 0)) break;
        t.clock.advance(30_000);
        await mine();
        await payoutPass();
        if (bill) await provider().watcher()!.tick();
      }
      for (const p of payouts) {
        const final = await withdrawStatus(p.user, p.bill.id);
        // Nothing in these schedules is a reason to refund: every payout is paid, exactly once.
        expect(final.status, `${context}: ${final.failure_reason}`).toBe('WithdrawStatusSuccess');
        expect(await chain.usdt.balanceOf(p.to), context).toBe(usdt(final.currency_amount));
      }
      if (bill) {
        const credited = await services().deposits.payments(bill.id);
        expect(
          credited.map((c) => new Big(String(c.currencyAmount)).toFixed(8)),
          context,
        ).toEqual(['7.00000000']);
      }
      const report = await verifyLedger(db());
      expect(report.violations, context).toEqual([]);
    }
    const live = await db().select().from(tonPayouts).where(eq(tonPayouts.status, 'queued'));
    expect(live).toEqual([]);
    expect(Object.keys(chain.injected).length).toBeGreaterThanOrEqual(KINDS.length - 1);
    logs.push(`fault loop: ${SCHEDULES} schedules in ${Date.now() - started} ms`);
  }, 300_000);
});

describe('configuration', () => {
  it('registers the TON watcher and no gateway route', () => {
    expect(t.app.ctx.workers.map((w) => w.name)).toContain('ton-watcher');
    expect(t.app.ctx.routes.some((r) => r.url.includes('nowpayments'))).toBe(false);
  });

  it('refuses to start without a wallet or the TON price, naming the variable and never echoing a secret', () => {
    expect(() => loadConfig({ PAYMENTS: 'ton', TON_USD_PRICE: '3' })).toThrow(/TON_HOT_WALLET_MNEMONIC: required/);
    expect(() => loadConfig({ PAYMENTS: 'ton', TON_HOT_WALLET_MNEMONIC: words.join(' ') })).toThrow(/TON_USD_PRICE: required/);
    const bad = [...words.slice(0, 23), words[0] === 'abandon' ? 'zoo' : 'abandon'].join(' ');
    try {
      loadConfig({ PAYMENTS: 'ton', TON_USD_PRICE: '3', TON_HOT_WALLET_MNEMONIC: bad });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain('TON_HOT_WALLET_MNEMONIC: not a valid 24-word TON mnemonic');
      expect((err as Error).message).not.toContain(words[5]!);
    }
    expect(() => loadConfig({ PAYMENTS: 'ton', TON_USD_PRICE: '3', TON_DEPOSIT_ADDRESS: 'nope' })).toThrow(/TON_DEPOSIT_ADDRESS: not a TON address/);
  });

  it('keeps the mnemonic out of the configuration, and derives the same key as @ton/crypto', async () => {
    const config = loadConfig({ PAYMENTS: 'ton', TON_USD_PRICE: '3', TON_HOT_WALLET_MNEMONIC: words.join(' ') });
    expect(JSON.stringify(config)).not.toContain(words.join(' '));
    expect(JSON.stringify(config)).toContain('[secret]');
    const ours = hotWalletKeyPair(new Secret(words.join(' ')));
    const theirs = await mnemonicToPrivateKey(words);
    expect(ours.publicKey.equals(theirs.publicKey)).toBe(true);
    expect(ours.secretKey.equals(theirs.secretKey)).toBe(true);
  });

  it('reads the reserves: the USDT held by each owner address', async () => {
    const owner = randomOwner();
    await chain.usdt.mint(owner, usdt('1234.5'));
    const readings = await provider().reserveBalances!([
      { network: 'TON', currency: TON_USDT_CODE, address: owner.toString() },
      { network: 'TON', currency: TON_USDT_CODE, address: randomOwner().toString() },
      { network: 'TON', currency: TON_USDT_CODE, address: 'nope' },
      { network: 'ETH', currency: TON_USDT_CODE, address: owner.toString() },
    ]);
    expect(readings).toEqual([{ balance: '1234.5' }, { balance: '0' }, { error: expect.stringContaining('nope') }, { error: expect.stringContaining('ETH') }]);
  });
});

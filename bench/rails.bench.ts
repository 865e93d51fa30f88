/**
 * `npm run bench:rails`: the self-custodial USDT rails on their fakes, through the real provider
 * code and a real database (PGlite in memory by default; with DATABASE_URL=postgres://..., a fresh
 * PostgreSQL database per rail next to it, dropped at the end). Prints figures, the limit each is
 * measured against and `os.loadavg()`, never asserts a time. Every timed figure is taken
 * BENCH_ROUNDS times (default 3) and the median printed with the rounds.
 *
 * TRON (the fake HTTP node of apps/server/src/test/tron/fake-node.ts, PAYMENTS=tron):
 * - Deposit detection latency: the fake makes a block every BENCH_TRON_BLOCK_MS of real time
 *   (default 3000, TRON's block time) and solidifies BENCH_TRON_SOLID_LAG blocks behind the head
 *   (default 19, as mainnet), while the app's own `tron-watcher` worker runs every TRON_POLL_MS
 *   (the configured default, 3000). From the moment the block holding a payment is made: "seen"
 *   (the head scan stored the transfer) and "credited" (the bill has its payment). The limit the
 *   chain imposes: block time × solidification depth + poll interval. Each round starts at a random
 *   phase of the block clock.
 * - Payouts per second: BENCH_TRON_PAYOUTS (default 200) cash-outs confirmed, then the app's
 *   `payouts` worker (woken by one more confirmation) drains them; the time until every bill is
 *   broadcast ('sent', the transfer in the node's pool), the node answering at once. Then the
 *   blocks are made and every payout's status read (`payoutStatus`: success from its solidified
 *   info) at the worker's concurrency. The limit: the same count of token transfers built, signed
 *   and broadcast to the same fake with nothing else (no database), at the same concurrency.
 * - TRX per sweep: deposits of 10, 100 and 1000 USDT swept with TRON_SWEEP_ENERGY=burn and with
 *   =delegate (the hot wallet staking 200,000 TRX for energy), from the fake's energy and
 *   bandwidth accounting: `fee_sun` per sweep (what `tron_sweeps` records), TRX per USDT, TRX sent
 *   to the address. Deterministic: measured once.
 *
 * TON (@ton/sandbox with a USDT jetton minter, apps/server/src/test/ton/chain.ts, PAYMENTS=ton):
 * - Deposit detection latency: a jetton transfer with the bill's memo executed in the sandbox
 *   (final at once there), until the app's `ton-watcher` (every TON_POLL_MS, default 5000) has
 *   credited it. The limit: the poll interval.
 * - Payouts per second: BENCH_TON_PAYOUTS (default 200) payouts asked of the provider at once,
 *   batched (TON_BATCH_MAX, default 100 a message), a block made every BENCH_TON_BLOCK_MS
 *   (default 1000) until every payout's status is success. The limit: the sandbox executing the
 *   same count of jetton transfers (one internal message each, no Coffer).
 * Checks: each bill credited once, each payout sent once and landed with its amount.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Address, toNano } from '@ton/core';
import { mnemonicNew } from '@ton/crypto';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { tonPayouts, tonTransfers, tronSweeps, tronTransfers, tronTxs, withdrawBills } from '../apps/server/src/db/schema/index';
import { loadConfig } from '../apps/server/src/env';
import { TON_USDT_CODE, type TonProvider } from '../apps/server/src/providers/payments/ton/index';
import { addressOfKey } from '../apps/server/src/providers/payments/tron/address';
import type { TronProvider } from '../apps/server/src/providers/payments/tron/index';
import { sweepTron } from '../apps/server/src/providers/payments/tron/sweep';
import { buildEnergyStake, buildTokenTransfer, signTx } from '../apps/server/src/providers/payments/tron/tx';
import { startTestTon } from '../apps/server/src/test/ton/chain';
import { startFakeTronNode, type FakeTronNode } from '../apps/server/src/test/tron/fake-node';
import { createWorkerRunner } from '../apps/server/src/worker-runner';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BLOCK_MS = Number(process.env.BENCH_TRON_BLOCK_MS ?? 3000);
const SOLID_LAG = Number(process.env.BENCH_TRON_SOLID_LAG ?? 19);
const TRON_PAYOUTS = Number(process.env.BENCH_TRON_PAYOUTS ?? 200);
const TON_PAYOUTS = Number(process.env.BENCH_TON_PAYOUTS ?? 200);
const TON_BLOCK_MS = Number(process.env.BENCH_TON_BLOCK_MS ?? 1000);
const MNEMONIC = 'test test test test test test test test test test test junk';
const ONLY = process.env.BENCH_ONLY ?? '';

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (xs: number[], digits = 1) => `${median(xs).toFixed(digits)} (${xs.map((x) => x.toFixed(digits)).join(', ')})`;
const trx = (sun: bigint) => (Number(sun) / 1e6).toFixed(6);

/** Runs `job(i)` for i in [0, n) with `width` at once. */
async function pool(n: number, width: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await job(next++);
    }),
  );
}

/** Waits until `check` is true, polling every `everyMs`. @returns ms since `t0` when it became true */
async function until(check: () => Promise<boolean>, t0: number, everyMs = 10, timeoutMs = 600_000): Promise<number> {
  for (;;) {
    if (await check()) return performance.now() - t0;
    if (performance.now() - t0 > timeoutMs) throw new Error('bench:rails: timed out waiting');
    await sleep(everyMs);
  }
}

const scratch: { admin: URL; names: string[] } | null = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')
  ? { admin: new URL(process.env.DATABASE_URL!), names: [] }
  : null;

/** A fresh database URL for one app: a new PostgreSQL database, or PGlite in memory. */
async function freshDatabase(rail: string): Promise<string> {
  if (!scratch) return 'memory://';
  const name = `coffer_bench_rails_${rail}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const root = new pg.Client({ connectionString: scratch.admin.toString() });
  await root.connect();
  await root.query(`create database ${name}`);
  await root.end();
  scratch.names.push(name);
  const url = new URL(scratch.admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function startApp(rail: string, env: Record<string, string>, adjust?: (config: ReturnType<typeof loadConfig>) => void) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `coffer-bench-rails-${rail}-`));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: await freshDatabase(rail),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WORKERS: 'false',
    SERVE_WEB: 'false',
    REGISTRATIONS_PER_IP_PER_HOUR: '100000',
    ...env,
  });
  adjust?.(config);
  const app = await buildApp({ config, logger: false });
  await app.ready();
  // Seeding skips the password check of confirmations: it is the account module's cost, not the rail's.
  app.ctx.services.credentials.checkPassword = async () => undefined;
  return { app, dataDir };
}

/** A registered user holding `points` (posted through the ledger). @returns the user id */
async function fundedUser(app: FastifyInstance, points: bigint): Promise<string> {
  const tag = randomBytes(4).toString('hex');
  const res = await app.inject({
    method: 'POST',
    url: '/api/uc/v1/account/register',
    headers: { 'content-type': 'application/json' },
    payload: { username: `rails_${tag}`, email: `rails.${tag}@example.com`, password: 'a'.repeat(32) },
  });
  const body = res.json() as { code: number; data: { access_token: string } };
  if (body.code !== 10000) throw new Error(`register failed: ${res.body}`);
  const me = await app.inject({
    method: 'POST',
    url: '/api/uc/v1/account/get/me',
    headers: { authorization: `Bearer ${body.data.access_token}` },
    payload: {},
  });
  const id = (me.json() as { data: { id: string } }).data.id;
  if (points > 0n) {
    const minor = points * 100n;
    await app.ctx.services.ledger.post({
      key: `bench-fund:${id}`,
      kind: 'deposit',
      bizId: `bench-fund:${id}`,
      entries: [
        { account: { platform: 'deposits' }, amount: -minor },
        { account: { userId: id, kind: 'available' }, amount: minor },
      ],
    });
  }
  return id;
}

const results: string[] = [];
const report = (line: string) => {
  results.push(line);
  console.log(line);
};

async function benchTron() {
  const fake: FakeTronNode = await startFakeTronNode({ solidLag: SOLID_LAG });
  const hotKey = randomBytes(32).toString('hex');
  const hot = addressOfKey(hotKey);
  fake.fundTrx(hot, 1_000_000_000_000n); // 1,000,000 TRX
  fake.produce(SOLID_LAG + 2);
  fake.mint(hot, 100_000_000n * 1_000_000n);
  const { app, dataDir } = await startApp('tron', {
    PAYMENTS: 'tron',
    TRON_NODE_URL: fake.url,
    TRON_SEED: MNEMONIC,
    TRON_HOT_WALLET_KEY: hotKey,
    TRON_TRX_USD_PRICE: '0.25',
  });
  const { services } = app.ctx;
  const provider = services.provider as TronProvider;
  const db = app.ctx.database.db;
  const payer = addressOfKey(randomBytes(32).toString('hex'));
  const pollMs = provider.settings.pollMs;
  try {
    // --- deposit detection latency
    if (!ONLY || ONLY.includes('deposit')) {
      const watcher = app.ctx.workers.find((w) => w.name === 'tron-watcher')!;
      const runner = createWorkerRunner([watcher], app.log);
      let producer: NodeJS.Timeout | null = null;
      let lastBlockAt = performance.now();
      const startBlocks = () => {
        producer = setInterval(() => {
          fake.produce(1);
          lastBlockAt = performance.now();
        }, BLOCK_MS);
      };
      const user = await fundedUser(app, 0n);
      await services.deposits.create(user, { amount: '700', pay_currency: 'usdttrc20' }); // the scan starts here
      runner.start();
      startBlocks();
      const seen: number[] = [];
      const credited: number[] = [];
      const loadStart = load();
      for (let round = 0; round < ROUNDS; round++) {
        // A random phase of the block clock against the watcher's.
        clearInterval(producer!);
        await sleep(Math.random() * BLOCK_MS);
        startBlocks();
        const { bill } = await services.deposits.create(user, { amount: '700', pay_currency: 'usdttrc20' });
        const txid = fake.payToken(payer, bill.address, 7_000_000n);
        await until(async () => fake.included(txid), 0, 2);
        const t0 = lastBlockAt;
        const s = await until(
          async () => (await db.select().from(tronTransfers).where(eq(tronTransfers.txid, txid))).length > 0,
          t0,
        );
        const c = await until(async () => (await services.deposits.payments(bill.id)).length > 0, t0);
        seen.push(s / 1000);
        credited.push(c / 1000);
        console.log(
          `  tron deposit round ${round + 1}: seen ${(s / 1000).toFixed(2)} s, credited ${(c / 1000).toFixed(2)} s (load ${load()})`,
        );
      }
      clearInterval(producer!);
      await runner.stop();
      const limit = (BLOCK_MS * SOLID_LAG + pollMs) / 1000;
      report(
        `| TRON deposit detection (block ${BLOCK_MS / 1000} s, solidified ${SOLID_LAG} blocks behind, poll ${pollMs / 1000} s), s | seen ${fmt(seen, 2)}; credited ${fmt(credited, 2)} | block time × depth + poll = ${limit.toFixed(1)} s (seen: ≤ ${(pollMs / 1000).toFixed(1)} s) | ${loadStart} -> ${load()} |`,
      );
      const twice = await db.select({ n: count() }).from(tronTransfers).where(eq(tronTransfers.status, 'credited'));
      console.log(`  checks: ${twice[0]!.n} transfers credited for ${ROUNDS} payments`);
    }

    // --- TRX per sweep, burn and delegate
    if (!ONLY || ONLY.includes('sweep')) {
      const ref = await provider.node.nowBlock(true);
      const staked = await provider.node.broadcast(
        signTx(buildEnergyStake({ from: hot, balanceSun: 200_000_000_000n, ref, lifetimeMs: 60_000 }), hotKey),
      );
      if (!staked.accepted) throw new Error(`stake refused: ${staked.code}`);
      fake.produce(SOLID_LAG + 1);
      const deps = {
        db,
        node: provider.node,
        settings: provider.settings,
        keys: provider.keys,
        now: () => Date.now(),
        sleep: async () => fake.produce(1),
      };
      const user = await fundedUser(app, 0n);
      console.log('');
      console.log(
        '| energy | USDT swept | TRX burned (fee_sun) | TRX per USDT | TRX sent to the address | stake delegated, TRX |',
      );
      console.log('|---|---:|---:|---:|---:|---:|');
      const perMode: Record<string, bigint[]> = {};
      for (const energy of ['burn', 'delegate'] as const) {
        for (const usdt of [10n, 100n, 1000n]) {
          const { bill } = await services.deposits.create(user, { amount: String(usdt * 100n), pay_currency: 'usdttrc20' });
          fake.payToken(payer, bill.address, usdt * 1_000_000n);
          fake.produce(SOLID_LAG + 1);
          const swept = await sweepTron(deps, { energy, minTokens: '9' });
          const r = swept.find((x) => x.address === bill.address)!;
          const [row] = await db.select().from(tronSweeps).where(eq(tronSweeps.address, bill.address));
          (perMode[energy] ??= []).push(r.feeSun);
          const line = `| ${r.energy} | ${usdt} | ${trx(r.feeSun)} | ${(Number(r.feeSun) / 1e6 / Number(usdt)).toFixed(6)} | ${trx(row!.fundSun ?? 0n)} | ${trx(r.delegatedSun)} |`;
          console.log(line);
          results.push(line);
        }
      }
      report(
        `| TRON TRX burned per sweep, median of 10/100/1000 USDT (fake: 100 sun per energy, 31,895 energy to a holder, 1.1 TRX to activate an address) | burn ${trx(BigInt(median(perMode.burn!.map(Number))))}; delegate ${trx(BigInt(median(perMode.delegate!.map(Number))))} | — | deterministic |`,
      );
    }

    // --- payouts per second
    if (!ONLY || ONLY.includes('payout')) {
      const { withdrawals } = services;
      const worker = app.ctx.workers.find((w) => w.name === 'payouts')!;
      const width = withdrawals.payoutConcurrency;
      const broadcastRates: number[] = [];
      const settleRates: number[] = [];
      const limitRates: number[] = [];
      const loads: string[] = [];
      const user = await fundedUser(app, BigInt(TRON_PAYOUTS + 10) * 1000n * BigInt(ROUNDS));
      const confirmOne = async () => {
        const to = addressOfKey(randomBytes(32).toString('hex'));
        const { bill } = await withdrawals.create(user, {
          user_id: user,
          currency: 'usdttrc20',
          network: 'TRX',
          amount: '1000',
          address: to,
          memo: '',
        });
        await withdrawals.confirm(user, { bill_id: bill.id, password: 'x' });
        return bill.id;
      };
      for (let round = 0; round < ROUNDS; round++) {
        const ids: string[] = [];
        for (let i = 0; i < TRON_PAYOUTS; i++) ids.push(await confirmOne());
        // The worker at its configured interval; a confirmation wakes it at once.
        const runner = createWorkerRunner([worker], app.log);
        runner.start();
        const loadBefore = load();
        const t0 = performance.now();
        ids.push(await confirmOne()); // the wake-up
        const sentCount = async () =>
          (
            await db
              .select({ n: count() })
              .from(withdrawBills)
              .where(and(inArray(withdrawBills.id, ids), eq(withdrawBills.payoutState, 'sent')))
          )[0]!.n;
        let last = 0;
        await until(
          async () => {
            const n = await sentCount();
            if (performance.now() - t0 > last + 30_000) {
              last = performance.now() - t0;
              console.log(`  ... ${n}/${ids.length} sent after ${(last / 1000).toFixed(0)} s`);
            }
            return n === ids.length;
          },
          t0,
          5,
        );
        const broadcastS = (performance.now() - t0) / 1000;
        await runner.stop();
        const pooled = fake.pool().length;
        fake.produce(SOLID_LAG + 1);
        const s0 = performance.now();
        const outcomes: string[] = [];
        await pool(ids.length, width, async (i) => {
          outcomes.push((await provider.payoutStatus(ids[i]!)).status);
        });
        const settleS = (performance.now() - s0) / 1000;
        const sends = await db
          .select({ n: count() })
          .from(tronTxs)
          .where(and(eq(tronTxs.kind, 'payout'), inArray(tronTxs.ref, ids)));
        if (outcomes.some((o) => o !== 'success') || sends[0]!.n !== ids.length || pooled !== ids.length)
          throw new Error(`bench:rails: tron payouts check failed (${pooled} pooled, ${sends[0]!.n} sent)`);

        // The limit: the same count of transfers built, signed and broadcast, nothing else.
        const ref = await provider.node.nowBlock(true);
        const l0 = performance.now();
        await pool(ids.length, width, async () => {
          const to = addressOfKey(randomBytes(32).toString('hex'));
          const signed = signTx(
            buildTokenTransfer({
              from: hot,
              contract: fake.contract,
              to,
              amount: 10_000_000n,
              feeLimitSun: 50_000_000n,
              ref,
              lifetimeMs: 300_000,
            }),
            hotKey,
          );
          const a = await provider.node.broadcast(signed);
          if (!a.accepted) throw new Error(`broadcast refused: ${a.code}`);
        });
        const limitS = (performance.now() - l0) / 1000;
        fake.produce(SOLID_LAG + 1);
        // Untimed: the bills settle (the worker asks again once their 15 s recheck lease ran out), so
        // the next round's worker has only its own bills to send.
        await until(
          async () => {
            await withdrawals.runPayouts(ids.length);
            return (
              (
                await db
                  .select({ n: count() })
                  .from(withdrawBills)
                  .where(and(inArray(withdrawBills.id, ids), eq(withdrawBills.status, 'WithdrawStatusSuccess')))
              )[0]!.n === ids.length
            );
          },
          performance.now(),
          1000,
        );
        broadcastRates.push(ids.length / broadcastS);
        settleRates.push(ids.length / settleS);
        limitRates.push(ids.length / limitS);
        loads.push(`${loadBefore} -> ${load()}`);
        console.log(
          `  tron payouts round ${round + 1}: ${ids.length} broadcast in ${broadcastS.toFixed(2)} s (${(ids.length / broadcastS).toFixed(0)}/s), statuses read in ${settleS.toFixed(2)} s, raw sign+broadcast ${(ids.length / limitS).toFixed(0)}/s (load ${load()})`,
        );
      }
      report(
        `| TRON payouts (${TRON_PAYOUTS + 1} cash-outs, worker concurrency ${width}), payouts/s | broadcast ${fmt(broadcastRates, 0)}; settled from solidified infos ${fmt(settleRates, 0)} | raw build+sign+broadcast to the fake ${fmt(limitRates, 0)} | ${loads.join('; ')} |`,
      );
    }
  } finally {
    await app.close();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchTon() {
  const start = Date.now();
  const chain = await startTestTon(Math.floor(start / 1000));
  const words = await mnemonicNew();
  const { app, dataDir } = await startApp(
    'ton',
    {
      PAYMENTS: 'ton',
      TON_HOT_WALLET_MNEMONIC: words.join(' '),
      TON_USD_PRICE: '3',
      TON_USDT_MASTER: chain.usdt.master.toString(),
    },
    (c) => void (c.ton!.api = chain.api),
  );
  const { services } = app.ctx;
  const provider = services.provider as TonProvider;
  const db = app.ctx.database.db;
  const nowS = () => Math.floor(Date.now() / 1000);
  await chain.fund(provider.hotWallet!, toNano('100000'));
  await chain.usdt.mint(provider.hotWallet!, 1_000_000_000n * 1_000_000n);
  let miner: NodeJS.Timeout | null = null;
  let mining = Promise.resolve();
  const startMining = () => {
    miner = setInterval(() => {
      mining = mining.then(() => chain.mine(nowS())).catch(() => {});
    }, TON_BLOCK_MS);
  };
  try {
    startMining();
    if (!ONLY || ONLY.includes('deposit')) {
      const watcher = app.ctx.workers.find((w) => w.name === 'ton-watcher')!;
      const runner = createWorkerRunner([watcher], app.log);
      runner.start();
      const user = await fundedUser(app, 0n);
      const pollMs = watcher.intervalMs;
      const credited: number[] = [];
      const seen: number[] = [];
      const loadStart = load();
      for (let round = 0; round < ROUNDS; round++) {
        await sleep(Math.random() * pollMs);
        const { bill } = await services.deposits.create(user, { amount: '700', pay_currency: TON_USDT_CODE });
        const payer = new Address(0, randomBytes(32));
        await chain.usdt.mint(payer, 7_000_000n);
        await chain.payJetton(chain.usdt, payer, provider.depositWallet, 7_000_000n, bill.extra_id ?? '');
        const t0 = performance.now();
        const s = await until(
          async () => (await db.select().from(tonTransfers).where(eq(tonTransfers.billId, bill.id))).length > 0,
          t0,
        );
        const c = await until(async () => (await services.deposits.payments(bill.id)).length > 0, t0);
        seen.push(s / 1000);
        credited.push(c / 1000);
        console.log(
          `  ton deposit round ${round + 1}: seen ${(s / 1000).toFixed(2)} s, credited ${(c / 1000).toFixed(2)} s (load ${load()})`,
        );
      }
      await runner.stop();
      report(
        `| TON deposit detection (sandbox: final at once; poll ${pollMs / 1000} s), s | seen ${fmt(seen, 2)}; credited ${fmt(credited, 2)} | poll interval ${(pollMs / 1000).toFixed(1)} s | ${loadStart} -> ${load()} |`,
      );
    }

    if (!ONLY || ONLY.includes('payout')) {
      const rates: number[] = [];
      const limits: number[] = [];
      const loads: string[] = [];
      let batches = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const run = randomBytes(4).toString('hex');
        const requests = Array.from({ length: TON_PAYOUTS }, (_, i) => ({
          payoutId: `bench-${run}-${i}`,
          currency: TON_USDT_CODE,
          network: 'TON',
          address: new Address(0, randomBytes(32)).toString(),
          memo: i % 2 ? `M${i}` : '',
          currencyAmount: '1.5',
        }));
        const loadBefore = load();
        const t0 = performance.now();
        await Promise.all(requests.map((r) => provider.sendPayout(r)));
        let done = false;
        for (let i = 0; i < 60 && !done; i++) {
          await sleep(TON_BLOCK_MS);
          await mining;
          const outcomes = await Promise.all(requests.map((r) => provider.payoutStatus(r.payoutId)));
          done = outcomes.every((o) => o.status === 'success');
        }
        const s = (performance.now() - t0) / 1000;
        if (!done) throw new Error('bench:rails: ton payouts did not all land');
        for (const r of requests.slice(0, 5)) {
          const got = await chain.usdt.balanceOf(Address.parse(r.address));
          if (got !== 1_500_000n) throw new Error(`bench:rails: a ton payout landed ${got}`);
        }
        const rows = await db.select().from(tonPayouts);
        const mine = rows.filter((r) => r.payoutId.startsWith(`bench-${run}-`));
        batches = new Set(mine.map((r) => r.batchId)).size;
        if (mine.some((r) => r.batches !== 1)) throw new Error('bench:rails: a ton payout was signed twice');

        // The limit: the sandbox executing the same count of jetton transfers, no Coffer.
        const payer = new Address(0, randomBytes(32));
        await chain.usdt.mint(payer, BigInt(TON_PAYOUTS) * 1_500_000n);
        const l0 = performance.now();
        for (const r of requests) await chain.payJetton(chain.usdt, payer, Address.parse(r.address), 1_500_000n, r.memo || null);
        const l = (performance.now() - l0) / 1000;
        rates.push(TON_PAYOUTS / s);
        limits.push(TON_PAYOUTS / l);
        loads.push(`${loadBefore} -> ${load()}`);
        console.log(
          `  ton payouts round ${round + 1}: ${TON_PAYOUTS} landed in ${s.toFixed(2)} s (${batches} batches; ${(TON_PAYOUTS / s).toFixed(0)}/s), sandbox alone ${(TON_PAYOUTS / l).toFixed(0)}/s (load ${load()})`,
        );
      }
      report(
        `| TON payouts (${TON_PAYOUTS} at once, ${batches} batches, a block every ${TON_BLOCK_MS / 1000} s), payouts/s | ${fmt(rates, 0)} | sandbox executing the jetton transfers alone ${fmt(limits, 0)} | ${loads.join('; ')} |`,
      );
    }
  } finally {
    clearInterval(miner!);
    await mining;
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(
    `bench:rails — ${new Date().toISOString()}, ${scratch ? `PostgreSQL ${scratch.admin.host}` : 'PGlite in memory'}, ${ROUNDS} rounds, load average ${load()}`,
  );
  if (!process.env.BENCH_RAIL || process.env.BENCH_RAIL === 'tron') await benchTron();
  if (!process.env.BENCH_RAIL || process.env.BENCH_RAIL === 'ton') await benchTon();
  console.log('');
  console.log('| figure | Coffer, median (rounds) | limit, same run | load average (1 5 15 min) |');
  console.log('|---|---|---|---|');
  for (const line of results.filter((l) => l.startsWith('| TRON') || l.startsWith('| TON'))) console.log(line);
  console.log(`\nload average at the end: ${load()}`);
}

try {
  await main();
} finally {
  if (scratch && !process.env.BENCH_KEEP_DB) {
    const root = new pg.Client({ connectionString: scratch.admin.toString() });
    await root.connect();
    for (const name of scratch.names) await root.query(`drop database if exists ${name}`);
    await root.end();
  }
}

/**
 * Sweeping on TRON (docs/payments.md, "tron — USDT on TRON", "Sweeping"): moves the USDT that
 * deposits left on Coffer's HD deposit addresses to the hot wallet, energy-aware.
 *
 * For each deposit address holding at least `minTokens` (default `TRON_SWEEP_MIN_USDT`, 5 USDT;
 * smaller balances are left, since the energy would cost more than they are worth):
 * 1. the transfer of the whole balance to the hot wallet is estimated (`triggerconstantcontract`):
 *    its energy sets the fee_limit (130 % at the chain's energy price, never above
 *    `TRON_MAX_FEE_LIMIT_TRX`) and the TRX the address needs (120 % of that energy, plus bandwidth
 *    when its free bandwidth is spent);
 * 2. only when the address holds less TRX than that does the hot wallet send it the difference (a
 *    TRX transfer, which also activates an address that never held TRX), and the sweep waits until
 *    that transfer is solidified;
 * 3. the address's own key (derived from the seed, never stored) signs the token transfer, stored
 *    under its txid before broadcast, and the sweep waits until it is solidified.
 * Every transaction is recorded in `tron_txs`, every sweep in `tron_sweeps` with `fee_sun`: the TRX
 * both transactions burned (their solidified infos). Safe to run again: it reads live balances.
 */
import { Big } from '@coffer/contract';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { formatUnits, parseUnits } from 'viem';
import type { Db } from '../../../db/client';
import { tronDepositAddresses, tronSweeps, tronTxs } from '../../../db/schema/index';
import { trxToSun, type TronSettings } from './config';
import type { TronKeys } from './index';
import type { SignedTx, TronNode, TxInfo } from './node';
import { TRANSFER_BANDWIDTH } from './payouts';
import { buildTokenTransfer, buildTrxTransfer, signTx, transferData } from './tx';

export interface TronSweepOptions {
  /** Report only; send nothing. */
  dryRun?: boolean;
  /** Leave balances below this many whole tokens (default: the settings' `sweepMinTokens`). */
  minTokens?: string;
  print?: (line: string) => void;
}

export interface TronSweepResult {
  address: string;
  /** Whole tokens moved (or that would move). */
  amount: string;
  sweepTxid: string | null;
  fundTxid: string | null;
  /** TRX both transactions burned, sun (0 in a dry run). */
  feeSun: bigint;
}

export interface TronSweepDeps {
  db: Db;
  node: TronNode;
  settings: TronSettings;
  keys: TronKeys;
  now: () => number;
  /** Waits between polls for a transaction (default 3 s; tests make blocks instead). */
  sleep?: (ms: number) => Promise<void>;
}

/** TRX spent per whole token swept, over every finished sweep (null before the first). */
export async function trxPerTokenSwept(db: Db, decimals: number): Promise<string | null> {
  const [row] = await db
    .select({ fee: sql<string | null>`sum(${tronSweeps.feeSun})::text`, amount: sql<string | null>`sum(${tronSweeps.amount})::text` })
    .from(tronSweeps)
    .where(eq(tronSweeps.status, 'done'));
  if (!row?.amount || row.amount === '0') return null;
  return new Big(row.fee ?? '0').div(1_000_000).div(new Big(row.amount).div(new Big(10).pow(decimals))).toFixed(6);
}

/**
 * Sweeps deposit addresses to the hot wallet.
 * @throws Error when no hot wallet is configured, or a node call fails (what was swept stays swept)
 */
export async function sweepTron(deps: TronSweepDeps, opts: TronSweepOptions = {}): Promise<TronSweepResult[]> {
  const { db, node, settings, keys } = deps;
  const hot = keys.hot;
  if (!hot) throw new Error('TRON_HOT_WALLET_KEY is not set: there is no hot wallet to sweep to');
  const print = opts.print ?? (() => {});
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const token = settings.token;
  const min = parseUnits(opts.minTokens ?? settings.sweepMinTokens, token.decimals);
  const lifetimeMs = settings.txExpirationSeconds * 1000;
  const now = () => new Date(deps.now());
  const results: TronSweepResult[] = [];

  /** Stores, broadcasts and waits for a transaction's solidified info. @throws when it expired unmined or failed */
  async function send(kind: 'fund' | 'sweep', ref: string, from: string, signed: SignedTx, refBlock: bigint, expiration: number, to: string, amount: bigint, feeLimitSun: bigint | null): Promise<TxInfo> {
    await db.insert(tronTxs).values({
      txid: signed.txID,
      kind,
      ref,
      fromAddress: from,
      toAddress: to,
      amount: amount.toString(),
      signedTx: JSON.stringify(signed),
      refBlock,
      expiration,
      feeLimitSun,
      status: 'signed',
      createdAt: now(),
      updatedAt: now(),
    });
    for (let i = 0; ; i++) {
      const info = await node.txInfo(signed.txID, true);
      if (info) {
        await db
          .update(tronTxs)
          .set({ status: info.failed ? 'failed' : 'success', result: info.receiptResult, blockNumber: info.blockNumber, feeSun: info.feeSun, energyUsed: info.energyUsage, updatedAt: now() })
          .where(eq(tronTxs.txid, signed.txID));
        if (info.failed) throw new Error(`${kind} transaction ${signed.txID} failed on chain (${info.receiptResult})`);
        return info;
      }
      const solid = await node.nowBlock(true);
      if (solid.timestamp >= expiration + 60_000) throw new Error(`${kind} transaction ${signed.txID} expired unmined`);
      if (!(await node.txInfo(signed.txID, false))) {
        const answer = await node.broadcast(signed);
        if (!answer.accepted && answer.code !== 'DUP_TRANSACTION_ERROR' && i === 0) throw new Error(`the node refused the ${kind} transaction: ${answer.code} ${answer.message}`);
      }
      await sleep(3_000);
    }
  }

  const rows = await db.select().from(tronDepositAddresses);
  print(`TRX: ${rows.length} deposit address(es)`);
  for (const row of rows) {
    const balance = await node.tokenBalance(token.address, row.address);
    if (balance === 0n) continue;
    const amount = formatUnits(balance, token.decimals);
    if (balance < min) {
      print(`  ${row.address} ${amount} USDT: below ${formatUnits(min, token.decimals)}, left`);
      continue;
    }
    if (opts.dryRun) {
      print(`  ${row.address} ${amount} USDT: would sweep`);
      results.push({ address: row.address, amount, sweepTxid: null, fundTxid: null, feeSun: 0n });
      continue;
    }
    const sim = await node.call(row.address, token.address, transferData(hot.address, balance));
    if (sim.reverted) throw new Error(`the sweep of ${row.address} would revert: ${sim.message}`);
    const fees = await node.fees();
    const energy = BigInt(sim.energyUsed);
    const maxSun = trxToSun(settings.maxFeeLimitTrx);
    let feeLimitSun = ((energy * 13n + 9n) / 10n) * fees.energySun;
    if (feeLimitSun > maxSun) feeLimitSun = maxSun;
    const account = await node.account(row.address);
    const bandwidth = account.exists ? (await node.resources(row.address)).bandwidth : 0n;
    const needSun = ((energy * 12n + 9n) / 10n) * fees.energySun + (bandwidth >= TRANSFER_BANDWIDTH ? 0n : TRANSFER_BANDWIDTH * fees.bandwidthSun);
    const id = randomUUID();
    await db.insert(tronSweeps).values({ id, hdIndex: row.hdIndex, address: row.address, amount: balance.toString(), status: 'funding', createdAt: now(), updatedAt: now() });
    let feeSun = 0n;
    let fundTxid: string | null = null;
    try {
      if (account.balanceSun < needSun) {
        const fundSun = needSun - account.balanceSun;
        const ref = await node.nowBlock(true);
        const signed = signTx(buildTrxTransfer({ from: hot.address, to: row.address, amountSun: fundSun, ref, lifetimeMs }), hot.key);
        fundTxid = signed.txID;
        await db.update(tronSweeps).set({ fundTxid, fundSun, updatedAt: now() }).where(eq(tronSweeps.id, id));
        const info = await send('fund', id, hot.address, signed, ref.number, ref.timestamp + lifetimeMs, row.address, fundSun, null);
        feeSun += info.feeSun;
      }
      const ref = await node.nowBlock(true);
      const key = keys.deposit(row.hdIndex).key;
      const signed = signTx(buildTokenTransfer({ from: row.address, contract: token.address, to: hot.address, amount: balance, feeLimitSun, ref, lifetimeMs }), key);
      await db.update(tronSweeps).set({ status: 'sending', sweepTxid: signed.txID, updatedAt: now() }).where(eq(tronSweeps.id, id));
      const info = await send('sweep', id, row.address, signed, ref.number, ref.timestamp + lifetimeMs, hot.address, balance, feeLimitSun);
      feeSun += info.feeSun;
      await db.update(tronSweeps).set({ status: 'done', feeSun, updatedAt: now() }).where(eq(tronSweeps.id, id));
      await db.update(tronDepositAddresses).set({ sweptAt: now() }).where(eq(tronDepositAddresses.hdIndex, row.hdIndex));
      print(`  ${row.address} ${amount} USDT: swept in ${signed.txID}${fundTxid ? ` (TRX sent in ${fundTxid})` : ''}, ${formatUnits(feeSun, 6)} TRX burned`);
      results.push({ address: row.address, amount, sweepTxid: signed.txID, fundTxid, feeSun });
    } catch (err) {
      await db
        .update(tronSweeps)
        .set({ status: 'failed', feeSun, reason: err instanceof Error ? err.message.slice(0, 200) : String(err), updatedAt: now() })
        .where(eq(tronSweeps.id, id));
      throw err;
    }
  }
  return results;
}

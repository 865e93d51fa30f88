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
 * its transactions burned (their solidified infos). Safe to run again: it reads live balances.
 *
 * With `TRON_SWEEP_ENERGY=delegate` (ADR 0064, docs/payments.md "Energy and the hot wallet") the
 * energy comes from the hot wallet's stake instead (Stake 2.0): an address that never held TRX is
 * activated first (1 sun; a new account has TRON's free daily bandwidth), the hot wallet delegates
 * it the energy of 120 % of the estimate (`DelegateResourceContract`, whole TRX of stake, unlocked),
 * the address sends TRX only for bandwidth it lacks, and after the sweep the hot wallet takes the
 * delegation back (`UnDelegateResourceContract`) — only on positive proof that the sweep's transfer
 * will use no more energy: its solidified info, or the solidified chain past its expiration, or
 * the transfer never stored (so never broadcast). A delegation that could not be taken back yet is
 * taken back by a later run (the amount is the chain's own, `getdelegatedresourcev2`). Every
 * delegation and reclaim is stored under its txid before broadcast like every transaction here: a
 * lost answer re-sends the same bytes, and a run first waits for any delegation or reclaim a
 * previous run left unconfirmed, so an address is never given its energy twice. When the hot wallet
 * cannot delegate enough (`getcandelegatedmaxsize`), that sweep burns TRX as in 'burn' mode.
 */
import { Big } from '@coffer/contract';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { formatUnits, parseUnits } from 'viem';
import type { Db } from '../../../db/client';
import { tronDepositAddresses, tronSweeps, tronTxs } from '../../../db/schema/index';
import { trxToSun, type TronSettings } from './config';
import type { TronKeys } from './index';
import { TronNodeError, type SignedTx, type TronNode, type TxInfo } from './node';
import { TRANSFER_BANDWIDTH } from './payouts';
import { buildEnergyDelegation, buildTokenTransfer, buildTrxTransfer, signTx, transferData } from './tx';

export interface TronSweepOptions {
  /** Report only; send nothing. */
  dryRun?: boolean;
  /** Leave balances below this many whole tokens (default: the settings' `sweepMinTokens`). */
  minTokens?: string;
  /** How energy is paid (default: the settings' `sweepEnergy`, `TRON_SWEEP_ENERGY`). */
  energy?: 'burn' | 'delegate';
  print?: (line: string) => void;
}

export interface TronSweepResult {
  address: string;
  /** Whole tokens moved (or that would move). */
  amount: string;
  sweepTxid: string | null;
  fundTxid: string | null;
  /** TRX its transactions burned, sun (0 in a dry run). */
  feeSun: bigint;
  /** How its energy was paid (a 'delegate' run burns when the hot wallet cannot delegate enough). */
  energy: 'burn' | 'delegate';
  /** Sun of the hot wallet's stake delegated for it (0 when burning). */
  delegatedSun: bigint;
  /** Whether the delegation was taken back in this run (false also when none was made). */
  reclaimed: boolean;
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
 * @throws Error when no hot wallet is configured, or a node call fails (what was swept stays swept;
 *   a delegation not yet taken back is taken back by a later run)
 */
export async function sweepTron(deps: TronSweepDeps, opts: TronSweepOptions = {}): Promise<TronSweepResult[]> {
  const { db, node, settings, keys } = deps;
  const hot = keys.hot;
  if (!hot) throw new Error('TRON_HOT_WALLET_KEY is not set: there is no hot wallet to sweep to');
  const hotAddress = hot.address;
  const print = opts.print ?? (() => {});
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const token = settings.token;
  const mode = opts.energy ?? settings.sweepEnergy;
  const min = parseUnits(opts.minTokens ?? settings.sweepMinTokens, token.decimals);
  const lifetimeMs = settings.txExpirationSeconds * 1000;
  const now = () => new Date(deps.now());
  const results: TronSweepResult[] = [];

  /**
   * Waits for a stored transaction's solidified info, re-sending the same bytes while the node
   * knows nothing of it (a lost or refused broadcast answer only means: ask again).
   * @throws when it expired unmined or failed on chain; a node error of a lookup propagates
   */
  async function track(kind: string, signed: SignedTx, expiration: number): Promise<TxInfo> {
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
        let answer: Awaited<ReturnType<TronNode['broadcast']>> | null = null;
        try {
          answer = await node.broadcast(signed);
        } catch (err) {
          // The answer was lost: the node may hold it; the same bytes go again on the next round.
          if (!(err instanceof TronNodeError)) throw err;
        }
        if (answer && !answer.accepted && answer.code !== 'DUP_TRANSACTION_ERROR' && i === 0) throw new Error(`the node refused the ${kind} transaction: ${answer.code} ${answer.message}`);
      }
      await sleep(3_000);
    }
  }

  /** Stores a transaction under its txid, then broadcasts it and waits for it ({@link track}). */
  async function send(kind: string, ref: string, from: string, signed: SignedTx, refBlock: bigint, expiration: number, to: string, amount: bigint, feeLimitSun: bigint | null): Promise<TxInfo> {
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
    return track(kind, signed, expiration);
  }

  /** A TRX transfer from the hot wallet to `to` (activation or bandwidth). @returns its txid and fee */
  async function fund(sweepId: string, to: string, sun: bigint): Promise<{ txid: string; feeSun: bigint }> {
    const ref = await node.nowBlock(true);
    const signed = signTx(buildTrxTransfer({ from: hotAddress, to, amountSun: sun, ref, lifetimeMs }), hot!.key);
    await db.update(tronSweeps).set({ fundTxid: signed.txID, fundSun: sun, updatedAt: now() }).where(eq(tronSweeps.id, sweepId));
    const info = await send('fund', sweepId, hotAddress, signed, ref.number, ref.timestamp + lifetimeMs, to, sun, null);
    return { txid: signed.txID, feeSun: info.feeSun };
  }

  /** Delegates (`undelegate`: takes back) `sun` of the hot wallet's stake for energy to `to`. @returns the TRX burned */
  async function delegation(sweepId: string, to: string, sun: bigint, undelegate: boolean): Promise<bigint> {
    const ref = await node.nowBlock(true);
    const signed = signTx(buildEnergyDelegation({ from: hotAddress, to, balanceSun: sun, undelegate, ref, lifetimeMs }), hot!.key);
    const info = await send(undelegate ? 'reclaim' : 'delegate', sweepId, hotAddress, signed, ref.number, ref.timestamp + lifetimeMs, to, sun, null);
    return info.feeSun;
  }

  /**
   * Positive proof that no sweep transfer of `address` may still use energy: each stored one has a
   * solidified info, or the solidified chain is past its expiration (no later block may include it).
   */
  async function sweepsFinal(address: string): Promise<boolean> {
    const live = await db
      .select()
      .from(tronTxs)
      .where(and(eq(tronTxs.kind, 'sweep'), eq(tronTxs.fromAddress, address), inArray(tronTxs.status, ['signed', 'broadcast', 'mined'])));
    if (!live.length) return true;
    const solid = await node.nowBlock(true);
    for (const tx of live) {
      const info = await node.txInfo(tx.txid, true);
      if (info) {
        await db
          .update(tronTxs)
          .set({ status: info.failed ? 'failed' : 'success', result: info.receiptResult, blockNumber: info.blockNumber, feeSun: info.feeSun, energyUsed: info.energyUsage, updatedAt: now() })
          .where(eq(tronTxs.txid, tx.txid));
        continue;
      }
      if (solid.timestamp <= tx.expiration) return false;
    }
    return true;
  }

  /** Takes back what the hot wallet delegates to `address` (the chain's figure), on proof only. @returns the TRX burned, or null when not now */
  async function reclaim(sweepId: string, address: string): Promise<bigint | null> {
    const sun = await node.delegatedEnergySun(hotAddress, address);
    if (sun === 0n) return 0n;
    if (!(await sweepsFinal(address))) return null;
    return delegation(sweepId, address, sun, true);
  }

  if (!opts.dryRun) {
    // A previous run's delegation or reclaim whose outcome is unknown is settled first: never twice.
    const open = await db
      .select()
      .from(tronTxs)
      .where(and(inArray(tronTxs.kind, ['delegate', 'reclaim']), inArray(tronTxs.status, ['signed', 'broadcast', 'mined'])));
    for (const tx of open) {
      try {
        await track(tx.kind, JSON.parse(tx.signedTx) as SignedTx, tx.expiration);
      } catch (err) {
        if (err instanceof TronNodeError) throw err;
        if (/expired unmined/.test(String(err))) await db.update(tronTxs).set({ status: 'expired', updatedAt: now() }).where(eq(tronTxs.txid, tx.txid));
      }
    }
  }
  const delegatedTo = new Set(
    opts.dryRun ? [] : (await db.selectDistinct({ to: tronTxs.toAddress }).from(tronTxs).where(eq(tronTxs.kind, 'delegate'))).map((r) => r.to),
  );

  const rows = await db.select().from(tronDepositAddresses);
  print(`TRX: ${rows.length} deposit address(es)${mode === 'delegate' ? ', energy delegated from the hot wallet' : ''}`);
  for (const row of rows) {
    const balance = await node.tokenBalance(token.address, row.address);
    if (balance < min || balance === 0n) {
      if (delegatedTo.has(row.address)) {
        // A delegation an earlier run could not take back yet.
        const burned = await reclaim(`reclaim:${row.address}`, row.address);
        if (burned !== null && burned !== 0n) print(`  ${row.address}: delegation taken back, ${formatUnits(burned, 6)} TRX burned`);
      }
      if (balance > 0n) print(`  ${row.address} ${formatUnits(balance, token.decimals)} USDT: below ${formatUnits(min, token.decimals)}, left`);
      continue;
    }
    const amount = formatUnits(balance, token.decimals);
    if (opts.dryRun) {
      print(`  ${row.address} ${amount} USDT: would sweep`);
      results.push({ address: row.address, amount, sweepTxid: null, fundTxid: null, feeSun: 0n, energy: mode, delegatedSun: 0n, reclaimed: false });
      continue;
    }
    const sim = await node.call(row.address, token.address, transferData(hotAddress, balance));
    if (sim.reverted) throw new Error(`the sweep of ${row.address} would revert: ${sim.message}`);
    const fees = await node.fees();
    const energy = BigInt(sim.energyUsed);
    const needEnergy = (energy * 12n + 9n) / 10n;
    const maxSun = trxToSun(settings.maxFeeLimitTrx);
    let feeLimitSun = ((energy * 13n + 9n) / 10n) * fees.energySun;
    if (feeLimitSun > maxSun) feeLimitSun = maxSun;
    let account = await node.account(row.address);
    const id = randomUUID();
    await db.insert(tronSweeps).values({ id, hdIndex: row.hdIndex, address: row.address, amount: balance.toString(), status: 'funding', createdAt: now(), updatedAt: now() });
    let feeSun = 0n;
    let fundTxid: string | null = null;
    let used: 'burn' | 'delegate' = 'burn';
    let delegatedSun = 0n;
    let reclaimed = false;
    try {
      if (mode === 'delegate') {
        const hotRes = await node.resources(hotAddress);
        const have = account.exists ? (await node.resources(row.address)).energy : 0n;
        const short = needEnergy > have ? needEnergy - have : 0n;
        // Stake for `short` energy, rounded up to whole TRX (a delegation is at least 1 TRX).
        const totalLimit = hotRes.totalEnergyWeight > 0n ? hotRes.totalEnergyLimit : 0n;
        const stakeSun = totalLimit > 0n ? ((short * hotRes.totalEnergyWeight + totalLimit - 1n) / totalLimit) * 1_000_000n : 0n;
        const want = short === 0n ? 0n : stakeSun < 1_000_000n ? 1_000_000n : stakeSun;
        const can = want > 0n ? await node.canDelegateEnergySun(hotAddress) : 0n;
        if (short > 0n && (totalLimit === 0n || can < want)) {
          print(`  ${row.address}: the hot wallet can delegate ${formatUnits(can, 6)} TRX of stake, ${formatUnits(want, 6)} needed: burning TRX for this sweep`);
        } else {
          used = 'delegate';
          if (!account.exists) {
            // A delegation needs an activated receiver; a new account has TRON's free bandwidth.
            const f = await fund(id, row.address, 1n);
            fundTxid = f.txid;
            feeSun += f.feeSun;
            account = await node.account(row.address);
          }
          if (want > 0n) {
            feeSun += await delegation(id, row.address, want, false);
            delegatedSun = want;
            delegatedTo.add(row.address);
          }
        }
      }
      const bandwidth = account.exists ? (await node.resources(row.address)).bandwidth : 0n;
      const bandwidthSun = bandwidth >= TRANSFER_BANDWIDTH ? 0n : TRANSFER_BANDWIDTH * fees.bandwidthSun;
      const needSun = (used === 'burn' ? needEnergy * fees.energySun : 0n) + bandwidthSun;
      if (account.balanceSun < needSun) {
        const f = await fund(id, row.address, needSun - account.balanceSun);
        fundTxid = f.txid;
        feeSun += f.feeSun;
      }
      const ref = await node.nowBlock(true);
      const key = keys.deposit(row.hdIndex).key;
      const signed = signTx(buildTokenTransfer({ from: row.address, contract: token.address, to: hotAddress, amount: balance, feeLimitSun, ref, lifetimeMs }), key);
      await db.update(tronSweeps).set({ status: 'sending', sweepTxid: signed.txID, updatedAt: now() }).where(eq(tronSweeps.id, id));
      const info = await send('sweep', id, row.address, signed, ref.number, ref.timestamp + lifetimeMs, hotAddress, balance, feeLimitSun);
      feeSun += info.feeSun;
      if (delegatedTo.has(row.address)) {
        const burned = await reclaim(id, row.address);
        if (burned !== null) {
          feeSun += burned;
          reclaimed = delegatedSun > 0n;
        }
      }
      await db.update(tronSweeps).set({ status: 'done', feeSun, updatedAt: now() }).where(eq(tronSweeps.id, id));
      await db.update(tronDepositAddresses).set({ sweptAt: now() }).where(eq(tronDepositAddresses.hdIndex, row.hdIndex));
      print(
        `  ${row.address} ${amount} USDT: swept in ${signed.txID}${fundTxid ? ` (TRX sent in ${fundTxid})` : ''}${delegatedSun ? `, ${formatUnits(delegatedSun, 6)} TRX of stake delegated${reclaimed ? ' and taken back' : ' (taken back by a later run)'}` : ''}, ${formatUnits(feeSun, 6)} TRX burned`,
      );
      results.push({ address: row.address, amount, sweepTxid: signed.txID, fundTxid, feeSun, energy: used, delegatedSun, reclaimed });
    } catch (err) {
      if (delegatedTo.has(row.address) && !(err instanceof TronNodeError)) {
        // The sweep failed on chain or expired: take the energy back now if that is proven.
        try {
          const burned = await reclaim(id, row.address);
          if (burned !== null) feeSun += burned;
        } catch {
          // A later run takes it back.
        }
      }
      await db
        .update(tronSweeps)
        .set({ status: 'failed', feeSun, reason: err instanceof Error ? err.message.slice(0, 200) : String(err), updatedAt: now() })
        .where(eq(tronSweeps.id, id));
      throw err;
    }
  }
  return results;
}

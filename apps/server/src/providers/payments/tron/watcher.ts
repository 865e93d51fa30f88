/**
 * The TRON deposit watcher (product §14, docs/payments.md "tron — USDT on TRON"): a background worker
 * that finds TRC-20 Transfer events to Coffer's deposit addresses and credits them from solidified
 * blocks only.
 *
 * One pass ({@link TronWatcher.tick}):
 * 1. Head scan (early sighting, never credited): unsolidified blocks above the solidified head are
 *    read through `/wallet/*` (`getblock`, `gettransactioninfobyblocknum`), their hashes kept. When
 *    the newest kept hash no longer matches the node's block, the watcher walks back to the last
 *    block both agree on and forgets what it saw above it (a reorg before solidification).
 * 2. Solid scan (the authority): each solidified block after the saved position is read through
 *    `/walletsolidity/*` with its transaction ids and every transaction's info; the read counts only
 *    when the infos name exactly the block's transactions (a node answering for a block it does not
 *    have yet, or cutting the list short, is caught and the block read again later; repeated infos
 *    are counted once). Transfers of the configured token to watched addresses are stored once per
 *    (txid, log index) as solid; sightings of the head scan at or below that block that the
 *    solidified read did not confirm are forgotten. The position moves in the same transaction.
 * 3. Credit: solid pending transfers, oldest first, each on its own with the payment reference
 *    `tron:<txid>:<log index>`; zero-value, dust and other-token transfers are stored 'ignored' and
 *    never credited (plain TRX, such as a 1-TRX activation, is no Transfer event and is never read
 *    as a payment); a transfer first seen more than `TRON_LATE_PAYMENT_HOURS` after its bill expired
 *    is logged and ignored ('late'). A failed crediting is retried with backoff, never blocking others.
 *
 * Several instances are safe: a pass runs only while it holds a PostgreSQL advisory lock.
 */
import { and, asc, desc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatUnits, parseUnits } from 'viem';
import type { Db } from '../../../db/client';
import { tronBlocks, tronDepositAddresses, tronScanState, tronTransfers } from '../../../db/schema/index';
import type { Clock } from '../../../lib/clock';
import { AppError } from '../../../lib/errors';
import type { AdvisoryLock } from '../evm/lock';
import { retryDelayMs } from '../evm/watcher';
import type { ReceivedPayment } from '../types';
import type { TronSettings } from './config';
import { TronNodeError, transfersOf, type TransferLog, type TronNode, type TxInfo } from './node';

/** The currency code of USDT on TRON. */
export const TRON_USDT_CODE = 'usdttrc20';
/** Most unsolidified blocks one pass reads. */
const HEAD_BLOCKS_PER_PASS = 40;
/** Most solidified blocks one pass reads (a watcher that was down catches up over several passes). */
const SOLID_BLOCKS_PER_PASS = 200;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The reference a transfer is credited under: unique per real payment, the same on every report. */
export const tronPaymentRef = (txid: string, logIndex: number): string => `tron:${txid.toLowerCase()}:${logIndex}`;

/**
 * Why a transfer to a deposit address is never credited, or null when it may be: 'zero-value' (value
 * 0: address-poisoning spam), 'other-token' (not the bill's currency), 'dust' (below `dust`, whole tokens).
 */
export function tronIgnoreReason(value: bigint, billCode: string, dustBaseUnits: bigint): 'zero-value' | 'dust' | 'other-token' | null {
  if (value <= 0n) return 'zero-value';
  if (billCode !== TRON_USDT_CODE) return 'other-token';
  if (value < dustBaseUnits) return 'dust';
  return null;
}

export interface TronPass {
  head: bigint;
  solid: bigint;
  /** Solidified blocks up to here are read. */
  scannedTo: bigint;
  /** Transfers stored (first sightings, head or solid). */
  found: number;
  credited: number;
  ignored: number;
  failed: number;
  /** The first block read again after a reorg of unsolidified blocks, or null. */
  reorgFrom: bigint | null;
}

export interface TronWatcher {
  name: string;
  intervalMs: number;
  /** One pass. @returns null when another instance holds the lock; throws when the node failed */
  tick(): Promise<TronPass | null>;
  close(): Promise<void>;
}

export interface TronWatcherDeps {
  db: Db;
  node: TronNode;
  settings: TronSettings;
  clock: Clock;
  log: FastifyBaseLogger;
  lock: AdvisoryLock;
  credit(payment: ReceivedPayment): Promise<unknown>;
}

/** The solid cursor's starting point on a fresh database: the block before the first one to read. */
export async function ensureScanState(db: Db, node: TronNode, settings: TronSettings, now: Date): Promise<void> {
  const [state] = await db.select().from(tronScanState).where(eq(tronScanState.cursor, 'solid'));
  if (state) return;
  const start = settings.startBlock !== undefined ? BigInt(settings.startBlock) - 1n : (await node.nowBlock(true)).number;
  await db.insert(tronScanState).values({ cursor: 'solid', lastBlock: start, updatedAt: now }).onConflictDoNothing();
}

export function createTronWatcher(deps: TronWatcherDeps): TronWatcher {
  const { db, node, settings, clock, log } = deps;
  const token = settings.token;
  const dust = parseUnits(token.dust, token.decimals);
  const now = () => new Date(clock.now());

  async function watched() {
    const since = new Date(clock.now() - settings.watchDays * DAY_MS);
    const rows = await db
      .select({ address: tronDepositAddresses.address, billId: tronDepositAddresses.billId, code: tronDepositAddresses.code })
      .from(tronDepositAddresses)
      .where(gte(tronDepositAddresses.createdAt, since));
    return new Map(rows.map((r) => [r.address, r]));
  }

  function rowsOf(infos: TxInfo[], addresses: Map<string, { billId: string; code: string }>, solid: boolean) {
    const out: (typeof tronTransfers.$inferInsert)[] = [];
    const seen = new Set<string>();
    for (const info of infos) {
      for (const t of transfersOf(info)) {
        const key = `${t.txid}:${t.logIndex}`;
        if (seen.has(key) || t.contract !== token.address) continue;
        seen.add(key);
        const bill = addresses.get(t.to);
        if (!bill) continue;
        out.push(rowOf(t, bill, solid));
      }
    }
    return out;
  }

  function rowOf(t: TransferLog, bill: { billId: string; code: string }, solid: boolean): typeof tronTransfers.$inferInsert {
    const reason = tronIgnoreReason(t.value, bill.code, dust);
    if (reason) log.info({ txid: t.txid, billId: bill.billId, amount: t.value.toString(), reason }, 'tron: transfer ignored');
    return {
      txid: t.txid,
      logIndex: t.logIndex,
      blockNumber: t.blockNumber,
      solid,
      token: t.contract,
      fromAddress: t.from,
      toAddress: t.to,
      amount: t.value.toString(),
      billId: bill.billId,
      status: reason ? 'ignored' : 'pending',
      reason,
      createdAt: now(),
      ...(reason ? { settledAt: now() } : {}),
    };
  }

  /** The first kept unsolidified block whose hash the node no longer has, or null. */
  async function findFork(): Promise<bigint | null> {
    const stored = await db.select().from(tronBlocks).orderBy(desc(tronBlocks.number));
    if (!stored.length) return null;
    const hashAt = async (n: bigint) => (await node.block(n, false))?.hash ?? null;
    if ((await hashAt(stored[0]!.number)) === stored[0]!.hash) return null;
    let fork = stored[stored.length - 1]!.number;
    for (const b of stored) {
      if ((await hashAt(b.number)) === b.hash) {
        fork = b.number + 1n;
        break;
      }
    }
    return fork;
  }

  async function rewind(fork: bigint): Promise<void> {
    await db.transaction(async (tx) => {
      await tx
        .delete(tronTransfers)
        .where(and(eq(tronTransfers.solid, false), gte(tronTransfers.blockNumber, fork), eq(tronTransfers.status, 'pending')));
      await tx.delete(tronBlocks).where(gte(tronBlocks.number, fork));
      await tx
        .update(tronScanState)
        .set({ lastBlock: fork - 1n, updatedAt: now() })
        .where(and(eq(tronScanState.cursor, 'head'), gte(tronScanState.lastBlock, fork)));
    });
  }

  async function headScan(head: bigint, solid: bigint, addresses: Map<string, { billId: string; code: string }>, pass: TronPass) {
    const fork = await findFork();
    if (fork !== null) {
      log.warn({ fork, head }, 'tron: reorg of unsolidified blocks; reading again from the fork');
      await rewind(fork);
      pass.reorgFrom = fork;
    }
    const [state] = await db.select().from(tronScanState).where(eq(tronScanState.cursor, 'head'));
    let from = state && state.lastBlock + 1n > solid + 1n ? state.lastBlock + 1n : solid + 1n;
    const to = head < from + BigInt(HEAD_BLOCKS_PER_PASS) - 1n ? head : from + BigInt(HEAD_BLOCKS_PER_PASS) - 1n;
    for (; from <= to; from++) {
      const block = await node.block(from, false);
      if (!block) return; // the node does not have it (yet): next pass
      const [parent] = await db.select().from(tronBlocks).where(eq(tronBlocks.number, from - 1n));
      if (parent && parent.hash !== block.parentHash) return; // a reorg under way: the next pass finds the fork
      const infos = (await node.txInfosOfBlock(from, false)).filter((i) => i.blockNumber === from);
      const rows = rowsOf(infos, addresses, false);
      await db.transaction(async (tx) => {
        if (rows.length) {
          const inserted = await tx
            .insert(tronTransfers)
            .values(rows)
            .onConflictDoUpdate({
              target: [tronTransfers.txid, tronTransfers.logIndex],
              set: { blockNumber: sql`excluded.block_number` },
              where: sql`${tronTransfers.solid} = false and ${tronTransfers.status} = 'pending'`,
            })
            .returning({ txid: tronTransfers.txid });
          pass.found += inserted.length;
        }
        await tx
          .insert(tronBlocks)
          .values({ number: from, hash: block.hash })
          .onConflictDoUpdate({ target: tronBlocks.number, set: { hash: block.hash } });
        await tx
          .insert(tronScanState)
          .values({ cursor: 'head', lastBlock: from, updatedAt: now() })
          .onConflictDoUpdate({ target: tronScanState.cursor, set: { lastBlock: from, updatedAt: now() } });
      });
    }
  }

  async function solidScan(solid: bigint, addresses: Map<string, { billId: string; code: string }>, pass: TronPass) {
    await ensureScanState(db, node, settings, now());
    const [state] = await db.select().from(tronScanState).where(eq(tronScanState.cursor, 'solid'));
    pass.scannedTo = state!.lastBlock;
    let from = state!.lastBlock + 1n;
    const to = solid < from + BigInt(SOLID_BLOCKS_PER_PASS) - 1n ? solid : from + BigInt(SOLID_BLOCKS_PER_PASS) - 1n;
    for (; from <= to; from++) {
      const block = await node.blockWithTxs(from, true);
      if (!block) throw new TronNodeError(`the solidified block ${from} was not served`);
      const infos = await node.txInfosOfBlock(from, true);
      const ids = new Set(infos.map((i) => i.id));
      const complete =
        infos.every((i) => i.blockNumber === from) && ids.size === new Set(block.txids).size && block.txids.every((id) => ids.has(id));
      if (!complete) throw new TronNodeError(`the infos of solidified block ${from} do not match its transactions`);
      const unique = [...new Map(infos.map((i) => [i.id, i])).values()];
      const rows = rowsOf(unique, addresses, true);
      const n = from;
      await db.transaction(async (tx) => {
        if (rows.length) {
          const inserted = await tx
            .insert(tronTransfers)
            .values(rows)
            .onConflictDoUpdate({
              target: [tronTransfers.txid, tronTransfers.logIndex],
              set: { solid: true, blockNumber: sql`excluded.block_number`, amount: sql`excluded.amount`, toAddress: sql`excluded.to_address` },
              where: sql`${tronTransfers.solid} = false and ${tronTransfers.status} = 'pending'`,
            })
            .returning({ txid: tronTransfers.txid });
          pass.found += inserted.length;
        }
        // Sightings at or below this block that the solidified chain does not hold were reorganised away.
        await tx
          .delete(tronTransfers)
          .where(and(eq(tronTransfers.solid, false), lte(tronTransfers.blockNumber, n), eq(tronTransfers.status, 'pending')));
        await tx.delete(tronBlocks).where(lte(tronBlocks.number, n));
        await tx.update(tronScanState).set({ lastBlock: n, updatedAt: now() }).where(eq(tronScanState.cursor, 'solid'));
      });
      pass.scannedTo = n;
    }
  }

  async function creditSolid(pass: TronPass): Promise<void> {
    const due = await db
      .select()
      .from(tronTransfers)
      .where(
        and(
          eq(tronTransfers.status, 'pending'),
          eq(tronTransfers.solid, true),
          or(isNull(tronTransfers.nextAttemptAt), lte(tronTransfers.nextAttemptAt, now())),
        ),
      )
      .orderBy(asc(tronTransfers.blockNumber), asc(tronTransfers.txid), asc(tronTransfers.logIndex));
    if (!due.length) return;
    const bills = await db
      .select()
      .from(tronDepositAddresses)
      .where(inArray(tronDepositAddresses.billId, [...new Set(due.map((d) => d.billId))]));
    const billOf = new Map(bills.map((b) => [b.billId, b]));
    for (const t of due) {
      const where = and(eq(tronTransfers.txid, t.txid), eq(tronTransfers.logIndex, t.logIndex), eq(tronTransfers.status, 'pending'));
      const ignore = async (reason: string) => {
        await db.update(tronTransfers).set({ status: 'ignored', reason, settledAt: now() }).where(where);
        pass.ignored++;
      };
      const currencyAmount = formatUnits(BigInt(t.amount), token.decimals);
      const context = { txid: t.txid, logIndex: t.logIndex, billId: t.billId, currencyAmount };
      try {
        const bill = billOf.get(t.billId);
        if (!bill) throw new Error(`no deposit address row for bill ${t.billId}`);
        if (t.createdAt.getTime() > bill.expiresAt.getTime() + settings.latePaymentHours * HOUR_MS) {
          log.warn(context, 'tron: payment after the late-payment window; not credited (sweeping collects it)');
          await ignore('late');
          continue;
        }
        try {
          await deps.credit({ billId: t.billId, paymentRef: tronPaymentRef(t.txid, t.logIndex), currencyAmount });
        } catch (err) {
          if (!(err instanceof AppError && err.reason === 'NOT_FOUND')) throw err;
          log.error(context, 'tron: payment to the address of an unknown bill; not credited');
          await ignore('unknown-bill');
          continue;
        }
        await db.update(tronTransfers).set({ status: 'credited', reason: null, nextAttemptAt: null, settledAt: now() }).where(where);
        log.info(context, 'tron: deposit credited');
        pass.credited++;
      } catch (err) {
        const attempts = t.attempts + 1;
        const reason = err instanceof Error ? err.message.slice(0, 200) : String(err);
        await db
          .update(tronTransfers)
          .set({ attempts, reason, nextAttemptAt: new Date(clock.now() + retryDelayMs(attempts)) })
          .where(where)
          .catch((e: unknown) => log.error({ ...context, reason: String(e) }, 'tron: could not record a crediting failure'));
        log.error({ ...context, attempts, reason }, 'tron: crediting a transfer failed; retried later, the others go on');
        pass.failed++;
      }
    }
  }

  return {
    name: 'tron-watcher',
    intervalMs: settings.pollMs,
    async tick() {
      if (!(await deps.lock.tryAcquire())) return null;
      try {
        const solidHead = await node.nowBlock(true);
        const head = await node.nowBlock(false);
        const pass: TronPass = { head: head.number, solid: solidHead.number, scannedTo: -1n, found: 0, credited: 0, ignored: 0, failed: 0, reorgFrom: null };
        const addresses = await watched();
        let failure: unknown = null;
        try {
          await solidScan(solidHead.number, addresses, pass);
        } catch (err) {
          failure = err;
        }
        // Credits from what is solid so far, even when a later block could not be read.
        await creditSolid(pass);
        if (!failure) {
          try {
            await headScan(head.number, pass.scannedTo, addresses, pass);
          } catch (err) {
            log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'tron: reading unsolidified blocks failed; retried next pass');
          }
        }
        if (failure) throw failure;
        return pass;
      } finally {
        await deps.lock.release();
      }
    },
    close: () => deps.lock.close(),
  };
}

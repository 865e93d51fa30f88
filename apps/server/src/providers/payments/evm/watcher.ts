/**
 * The EVM deposit watcher (product §14, docs/payments.md): a background worker that finds ERC-20
 * Transfer logs to Coffer's deposit addresses and credits them once they have enough confirmations.
 *
 * One pass ({@link EvmWatcher.tick}), per configured network:
 * 1. Reorg check: the newest stored block hash is compared with the chain; if it changed, stored
 *    hashes are walked down to the last block both agree on, transfers not yet credited above it
 *    are forgotten, and scanning resumes from there (so the affected range is scanned again).
 * 2. Scan: `eth_getLogs` for Transfer events of the network's tokens whose recipient is a watched
 *    deposit address (bills made in the last `EVM_WATCH_DAYS`), from the block after the persisted
 *    position (or from the unconfirmed tail and 64 blocks below it, scanned again on every pass in
 *    case a lagging node answered without them) to the head, in ranges of at most `blockRange` blocks.
 *    Each transfer is stored once, keyed by (chain, tx hash, log index), and the position and the
 *    tail's block hashes are saved. Zero-value and dust transfers, and other tokens, are stored
 *    'ignored' with their reason ({@link ignoreReason}) and never credited.
 * 3. Credit: a stored transfer whose block has `confirmations` blocks (itself included) is handed
 *    to the deposits service's credit function with the payment reference
 *    `evm:<chain id>:<tx hash>:<log index>`, which credits each reference exactly once. A transfer
 *    first seen more than `EVM_LATE_PAYMENT_HOURS` after its bill expired, or in another token than
 *    the bill's, is not credited: it is logged (the money stays on the address; sweeping collects it).
 *    Transfers are credited oldest first, each on its own: one whose crediting fails is retried
 *    after a backoff ({@link retryDelayMs}) and never blocks the others.
 *
 * Several instances are safe: a pass runs only while it holds a PostgreSQL advisory lock.
 */
import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { erc20Abi, formatUnits, getAbiItem, parseUnits, type Address } from 'viem';
import type { Db } from '../../../db/client';
import { evmBlocks, evmDepositAddresses, evmScanState, evmTransfers } from '../../../db/schema/index';
import type { Clock } from '../../../lib/clock';
import { AppError } from '../../../lib/errors';
import type { ReceivedPayment } from '../types';
import { shortReason, type EvmChains } from './chain';
import type { EvmNetwork, EvmToken } from './config';
import type { AdvisoryLock } from './lock';

const TRANSFER_EVENT = getAbiItem({ abi: erc20Abi, name: 'Transfer' });
/** Recipients per eth_getLogs call (topic filters get large; nodes cap request sizes). */
const ADDRESSES_PER_CALL = 500;
/** Blocks below the confirmation depth that every pass scans again (one eth_getLogs call more). */
const RESCAN_BLOCKS = 64n;
/** Block hashes kept below the confirmation depth, for reorgs a little deeper than expected. */
const EXTRA_HASHES = 64n;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Backoff of a transfer whose crediting failed: 30 s doubling per attempt, at most an hour (ms). */
export const retryDelayMs = (attempts: number): number => Math.min(HOUR_MS, 30_000 * 2 ** Math.min(attempts - 1, 20));

/**
 * Why a transfer to a deposit address is never credited, or null when it may be:
 * 'zero-value' (value 0: address-poisoning spam), 'dust' (below the token's `dust`, whole tokens),
 * 'other-token' (a token the network does not list, or not the bill's). docs/payments.md, "What can go wrong".
 */
export function ignoreReason(
  value: bigint,
  token: EvmToken | undefined,
  billCode: string,
): 'zero-value' | 'dust' | 'other-token' | null {
  if (value <= 0n) return 'zero-value';
  if (!token || token.code !== billCode) return 'other-token';
  if (value < parseUnits(token.dust, token.decimals)) return 'dust';
  return null;
}

/** The reference a transfer is credited under: unique per real payment, the same on every report. */
export const paymentRefOf = (chainId: number, txHash: string, logIndex: number): string =>
  `evm:${chainId}:${txHash.toLowerCase()}:${logIndex}`;

/** Credits a received payment exactly once per `paymentRef` (the deposits service's function). */
export type CreditPayment = (payment: ReceivedPayment) => Promise<unknown>;

export interface NetworkPass {
  network: string;
  head: bigint;
  /** Blocks up to here are scanned. */
  scannedTo: bigint;
  found: number;
  credited: number;
  ignored: number;
  /** Transfers whose crediting failed in this pass (each retried later with backoff). */
  failed: number;
  /** The first block of a range that was scanned again after a reorg, or null. */
  reorgFrom: bigint | null;
}

export interface EvmWatcher {
  name: string;
  intervalMs: number;
  /** One pass over every network. @returns null when another instance holds the lock */
  tick(): Promise<NetworkPass[] | null>;
  close(): Promise<void>;
}

export interface WatcherDeps {
  db: Db;
  chains: EvmChains;
  clock: Clock;
  log: FastifyBaseLogger;
  lock: AdvisoryLock;
  credit: CreditPayment;
  pollMs: number;
  latePaymentHours: number;
  watchDays: number;
}

export function createEvmWatcher(deps: WatcherDeps): EvmWatcher {
  const { db, chains, clock, log } = deps;

  async function storedHead(chainId: number) {
    const [row] = await db
      .select()
      .from(evmBlocks)
      .where(eq(evmBlocks.chainId, chainId))
      .orderBy(desc(evmBlocks.number))
      .limit(1);
    return row ?? null;
  }

  async function hashOnChain(network: EvmNetwork, number: bigint, head: bigint): Promise<string | null> {
    if (number > head) return null;
    const block = await chains.client(network).getBlock({ blockNumber: number });
    return block.hash?.toLowerCase() ?? null;
  }

  /** Finds the first block whose stored hash no longer matches the chain. @returns it, or null */
  async function findFork(network: EvmNetwork, head: bigint): Promise<bigint | null> {
    const newest = await storedHead(network.chainId);
    if (!newest) return null;
    if ((await hashOnChain(network, newest.number, head)) === newest.hash) return null;
    // Walk down the stored hashes (newest first) to the last block the chain still agrees with.
    const stored = await db
      .select()
      .from(evmBlocks)
      .where(eq(evmBlocks.chainId, network.chainId))
      .orderBy(desc(evmBlocks.number));
    let fork = stored[stored.length - 1]!.number;
    for (const b of stored) {
      if ((await hashOnChain(network, b.number, head)) === b.hash) {
        fork = b.number + 1n;
        break;
      }
    }
    return fork;
  }

  async function rewind(network: EvmNetwork, fork: bigint): Promise<void> {
    const chainId = network.chainId;
    const lost = await db
      .select()
      .from(evmTransfers)
      .where(and(eq(evmTransfers.chainId, chainId), gte(evmTransfers.blockNumber, fork), eq(evmTransfers.status, 'credited')));
    for (const t of lost) {
      log.error(
        { network: network.name, txHash: t.txHash, logIndex: t.logIndex, billId: t.billId },
        'evm: a credited transfer was removed by a reorg deeper than the confirmations',
      );
    }
    await db.transaction(async (tx) => {
      await tx
        .delete(evmTransfers)
        .where(and(eq(evmTransfers.chainId, chainId), gte(evmTransfers.blockNumber, fork), eq(evmTransfers.status, 'pending')));
      await tx.delete(evmBlocks).where(and(eq(evmBlocks.chainId, chainId), gte(evmBlocks.number, fork)));
      await tx
        .update(evmScanState)
        .set({ lastBlock: fork - 1n, updatedAt: new Date(clock.now()) })
        .where(and(eq(evmScanState.chainId, chainId), gte(evmScanState.lastBlock, fork)));
    });
  }

  async function watched(network: EvmNetwork) {
    const since = new Date(clock.now() - deps.watchDays * DAY_MS);
    const rows = await db
      .select({ address: evmDepositAddresses.address, billId: evmDepositAddresses.billId, code: evmDepositAddresses.code })
      .from(evmDepositAddresses)
      .where(and(eq(evmDepositAddresses.chainId, network.chainId), gte(evmDepositAddresses.createdAt, since)));
    return new Map(rows.map((r) => [r.address, r]));
  }

  async function scan(network: EvmNetwork, head: bigint, pass: NetworkPass): Promise<void> {
    const chainId = network.chainId;
    const client = chains.client(network);
    let [state] = await db.select().from(evmScanState).where(eq(evmScanState.chainId, chainId));
    if (!state) {
      const start = network.startBlock !== undefined ? BigInt(network.startBlock) : head;
      await db
        .insert(evmScanState)
        .values({ chainId, lastBlock: start - 1n, updatedAt: new Date(clock.now()) })
        .onConflictDoNothing();
      [state] = await db.select().from(evmScanState).where(eq(evmScanState.chainId, chainId));
    }
    // The unconfirmed tail and {@link RESCAN_BLOCKS} below it are scanned again on every pass: an
    // eth_getLogs answered by a node that lagged behind (without the newest blocks) is made good by a
    // later pass, as long as one answer in that window comes from a node that has the block.
    const tail = head - BigInt(network.confirmations) + 1n - RESCAN_BLOCKS;
    let from = state!.lastBlock + 1n < tail ? state!.lastBlock + 1n : tail > 0n ? tail : 0n;
    pass.scannedTo = state!.lastBlock;
    if (from > head) return;
    const addresses = await watched(network);
    const recipients = [...addresses.keys()] as Address[];
    const tokens = network.tokens.map((t) => t.address);
    const tailStart = head - BigInt(network.confirmations);

    while (from <= head) {
      const to = from + BigInt(network.blockRange) - 1n < head ? from + BigInt(network.blockRange) - 1n : head;
      const found: (typeof evmTransfers.$inferInsert)[] = [];
      for (let i = 0; i < recipients.length; i += ADDRESSES_PER_CALL) {
        const logs = await client.getLogs({
          address: tokens,
          event: TRANSFER_EVENT,
          args: { to: recipients.slice(i, i + ADDRESSES_PER_CALL) },
          fromBlock: from,
          toBlock: to,
          strict: true,
        });
        for (const l of logs) {
          if (l.removed || l.blockNumber === null || l.transactionHash === null || l.logIndex === null || l.blockHash === null)
            continue;
          const recipient = l.args.to.toLowerCase();
          const bill = addresses.get(recipient);
          if (!bill) continue;
          const tokenAddress = l.address.toLowerCase();
          const token = network.tokens.find((x) => x.address === tokenAddress);
          const reason = ignoreReason(l.args.value, token, bill.code);
          found.push({
            chainId,
            txHash: l.transactionHash.toLowerCase(),
            logIndex: l.logIndex,
            blockNumber: l.blockNumber,
            blockHash: l.blockHash.toLowerCase(),
            token: tokenAddress,
            fromAddress: l.args.from.toLowerCase(),
            toAddress: recipient,
            amount: l.args.value.toString(),
            billId: bill.billId,
            status: reason ? 'ignored' : 'pending',
            reason,
            createdAt: new Date(clock.now()),
            ...(reason ? { settledAt: new Date(clock.now()) } : {}),
          });
          if (reason === 'other-token') {
            log.warn(
              { network: network.name, txHash: l.transactionHash, billId: bill.billId, token: tokenAddress, expected: bill.code },
              'evm: payment in another token than the bill asks for; not credited (sweeping collects it)',
            );
          } else if (reason) {
            // Address-poisoning spam is constant on busy chains: recorded, never credited, logged quietly.
            log.info(
              { network: network.name, txHash: l.transactionHash, billId: bill.billId, amount: l.args.value.toString(), reason },
              'evm: transfer ignored',
            );
          }
        }
      }
      // Hashes of the blocks that may still be reorganised, and always of the last one scanned.
      const hashes: { chainId: number; number: bigint; hash: string }[] = [];
      for (let n = from > tailStart ? from : tailStart; n <= to; n++) {
        if (n < 0n) continue;
        const block = await client.getBlock({ blockNumber: n });
        if (block.hash) hashes.push({ chainId, number: n, hash: block.hash.toLowerCase() });
      }
      if (!hashes.some((h) => h.number === to)) {
        const block = await client.getBlock({ blockNumber: to });
        if (block.hash) hashes.push({ chainId, number: to, hash: block.hash.toLowerCase() });
      }
      await db.transaction(async (tx) => {
        if (found.length) {
          const inserted = await tx
            .insert(evmTransfers)
            .values(found)
            .onConflictDoNothing()
            .returning({ txHash: evmTransfers.txHash });
          pass.found += inserted.length;
        }
        if (hashes.length) {
          await tx
            .insert(evmBlocks)
            .values(hashes)
            .onConflictDoUpdate({ target: [evmBlocks.chainId, evmBlocks.number], set: { hash: sql`excluded.hash` } });
        }
        await tx
          .update(evmScanState)
          .set({ lastBlock: to, updatedAt: new Date(clock.now()) })
          .where(and(eq(evmScanState.chainId, chainId), lt(evmScanState.lastBlock, to)));
      });
      pass.scannedTo = to;
      from = to + 1n;
    }
    await db.delete(evmBlocks).where(and(eq(evmBlocks.chainId, chainId), lt(evmBlocks.number, tailStart - EXTRA_HASHES)));
  }

  /**
   * Credits the confirmed pending transfers, oldest first (block, tx hash, log index), each on its
   * own: an error crediting one is recorded on its row (`attempts`, `reason`) and that row waits
   * {@link retryDelayMs} before it is tried again, so one bad row never blocks the others.
   */
  async function creditConfirmed(network: EvmNetwork, head: bigint, pass: NetworkPass): Promise<void> {
    const deepest = head - BigInt(network.confirmations) + 1n;
    const now = new Date(clock.now());
    const due = await db
      .select()
      .from(evmTransfers)
      .where(
        and(
          eq(evmTransfers.chainId, network.chainId),
          eq(evmTransfers.status, 'pending'),
          lte(evmTransfers.blockNumber, deepest),
          or(isNull(evmTransfers.nextAttemptAt), lte(evmTransfers.nextAttemptAt, now)),
        ),
      )
      .orderBy(asc(evmTransfers.blockNumber), asc(evmTransfers.txHash), asc(evmTransfers.logIndex));
    if (!due.length) return;
    const bills = await db
      .select()
      .from(evmDepositAddresses)
      .where(
        inArray(
          evmDepositAddresses.billId,
          due.map((d) => d.billId),
        ),
      );
    const billOf = new Map(bills.map((b) => [b.billId, b]));
    const decimals = new Map(network.tokens.map((t) => [t.address as string, t.decimals]));
    for (const t of due) {
      const where = and(
        eq(evmTransfers.chainId, t.chainId),
        eq(evmTransfers.txHash, t.txHash),
        eq(evmTransfers.logIndex, t.logIndex),
        eq(evmTransfers.status, 'pending'),
      );
      const ignore = async (reason: string) => {
        await db
          .update(evmTransfers)
          .set({ status: 'ignored', reason, settledAt: new Date(clock.now()) })
          .where(where);
        pass.ignored++;
      };
      const currencyAmount = formatUnits(BigInt(t.amount), decimals.get(t.token) ?? 18);
      const context = { network: network.name, txHash: t.txHash, logIndex: t.logIndex, billId: t.billId, currencyAmount };
      try {
        const bill = billOf.get(t.billId);
        if (!bill) throw new Error(`no deposit address row for bill ${t.billId}`);
        // Rows stored before zero/dust were ignored at scan time: never handed to crediting.
        const token = network.tokens.find((x) => x.address === t.token);
        const reason = ignoreReason(BigInt(t.amount), token, bill.code);
        if (reason) {
          log.info({ ...context, reason }, 'evm: transfer ignored');
          await ignore(reason);
          continue;
        }
        if (t.createdAt.getTime() > bill.expiresAt.getTime() + deps.latePaymentHours * HOUR_MS) {
          log.warn(context, 'evm: payment after the late-payment window; not credited (sweeping collects it)');
          await ignore('late');
          continue;
        }
        try {
          await deps.credit({ billId: t.billId, paymentRef: paymentRefOf(t.chainId, t.txHash, t.logIndex), currencyAmount });
        } catch (err) {
          // An address whose bill was never stored (its creation rolled back): keep the money, log, move on.
          if (!(err instanceof AppError && err.reason === 'NOT_FOUND')) throw err;
          log.error(context, 'evm: payment to the address of an unknown bill; not credited');
          await ignore('unknown-bill');
          continue;
        }
        await db
          .update(evmTransfers)
          .set({ status: 'credited', reason: null, nextAttemptAt: null, settledAt: new Date(clock.now()) })
          .where(where);
        log.info(context, 'evm: deposit credited');
        pass.credited++;
      } catch (err) {
        // This row waits (backoff); the others go on.
        const attempts = t.attempts + 1;
        const reason = shortReason(err);
        await db
          .update(evmTransfers)
          .set({ attempts, reason, nextAttemptAt: new Date(clock.now() + retryDelayMs(attempts)) })
          .where(where)
          .catch((e: unknown) => log.error({ ...context, reason: shortReason(e) }, 'evm: could not record a crediting failure'));
        log.error({ ...context, attempts, reason }, 'evm: crediting a transfer failed; retried later, the others go on');
        pass.failed++;
      }
    }
  }

  async function passNetwork(network: EvmNetwork): Promise<NetworkPass> {
    const head = await chains.client(network).getBlockNumber({ cacheTime: 0 });
    const pass: NetworkPass = {
      network: network.name,
      head,
      scannedTo: -1n,
      found: 0,
      credited: 0,
      ignored: 0,
      failed: 0,
      reorgFrom: null,
    };
    const fork = await findFork(network, head);
    if (fork !== null) {
      log.warn({ network: network.name, fork, head }, 'evm: reorg detected; scanning again from the fork');
      await rewind(network, fork);
      pass.reorgFrom = fork;
    }
    await scan(network, head, pass);
    await creditConfirmed(network, head, pass);
    return pass;
  }

  return {
    name: 'evm-watcher',
    intervalMs: deps.pollMs,
    async tick() {
      if (!(await deps.lock.tryAcquire())) return null;
      try {
        const passes: NetworkPass[] = [];
        for (const network of chains.networks) {
          try {
            passes.push(await passNetwork(network));
          } catch (err) {
            // One unreachable chain must not stop the others; the next pass resumes from the saved position.
            log.error({ network: network.name, reason: shortReason(err) }, 'evm: watcher pass failed');
          }
        }
        return passes;
      } finally {
        await deps.lock.release();
      }
    },
    close: () => deps.lock.close(),
  };
}

/**
 * Hot-wallet payouts of the `evm` provider (DESIGN 6, docs/payments.md): an ERC-20 `transfer` from
 * the hot wallet to the withdraw bill's address, exactly once per payout id (the withdraw bill id).
 *
 * - Before anything is signed, the transfer is simulated (`eth_call`) and the hot wallet's gas money
 *   checked: a revert (e.g. too few tokens) or too little gas money fails the payout, so Coffer
 *   refunds it, and nothing is broadcast.
 * - The nonce is chosen under a transaction-scoped advisory lock per chain (the chain's pending
 *   count, or one past the highest nonce of a payout still in flight), the transaction is signed,
 *   and the signed bytes, nonce and hash are stored ('signed') BEFORE broadcast. A restart at any
 *   point finds the row and broadcasts the same bytes again; it never signs a second transfer.
 * - Broadcast errors: 'already known' counts as sent; insufficient funds, nonce too low (with our
 *   transaction unknown to the chain) or underpriced replacement fail the payout (its nonce is freed);
 *   anything else (node down, timeout) is thrown and retried with the same bytes.
 * - A payout settles after `confirmations` blocks: success when the receipt says so, failed
 *   (refund) when it reverted, or when the nonce was used by another transaction.
 */
import { Big } from '@coffer/contract';
import { and, eq, inArray, max, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { encodeFunctionData, erc20Abi, getAddress, isAddress, keccak256, parseUnits, type Hex } from 'viem';
import type { Db } from '../../../db/client';
import { evmPayouts } from '../../../db/schema/index';
import type { Clock } from '../../../lib/clock';
import type { PayoutOutcome, PayoutRequest } from '../types';
import { errorText, shortReason, type EvmChains } from './chain';
import type { EvmNetwork } from './config';

/** Advisory lock class of payout nonce allocation (second key: the chain id). */
const NONCE_LOCK_CLASS = 727_070_010;

type PayoutRow = typeof evmPayouts.$inferSelect;

export interface EvmPayouts {
  send(request: PayoutRequest): Promise<PayoutOutcome>;
  status(payoutId: string): Promise<PayoutOutcome>;
  /** Network fee of one token transfer: in the token and in USD (2 decimals, rounded up). */
  estimateFee(code: string): Promise<{ fee: string; feeUsd: string }>;
}

export function createEvmPayouts(deps: { db: Db; chains: EvmChains; clock: Clock; log: FastifyBaseLogger }): EvmPayouts {
  const { db, chains, clock, log } = deps;

  const failed = (reason: string): PayoutOutcome => ({ status: 'failed', reason });

  function networkOf(row: PayoutRow): EvmNetwork {
    const n = chains.networks.find((x) => x.chainId === row.chainId);
    if (!n) throw new Error(`evm: payout ${row.payoutId} is on chain ${row.chainId}, which is no longer configured`);
    return n;
  }

  async function mark(row: PayoutRow, patch: Partial<typeof evmPayouts.$inferInsert>): Promise<PayoutRow> {
    const [updated] = await db
      .update(evmPayouts)
      .set({ ...patch, updatedAt: new Date(clock.now()) })
      .where(eq(evmPayouts.payoutId, row.payoutId))
      .returning();
    return updated!;
  }

  async function fail(row: PayoutRow, reason: string): Promise<PayoutOutcome> {
    await mark(row, { status: 'failed', reason });
    log.warn({ payoutId: row.payoutId, txHash: row.txHash, reason }, 'evm: payout failed');
    return failed(reason);
  }

  /** Sends the stored signed transaction (again). */
  async function broadcast(row: PayoutRow): Promise<PayoutOutcome> {
    const client = chains.client(networkOf(row));
    try {
      await client.sendRawTransaction({ serializedTransaction: row.signedTx as Hex });
    } catch (err) {
      const text = errorText(err);
      if (/already known|known transaction|already imported|already exists/.test(text)) {
        // The node has it from an earlier broadcast.
      } else if (/nonce too low|nonce has already been used|nonce is too low|transaction nonce is too low/.test(text)) {
        const receipt = await client.getTransactionReceipt({ hash: row.txHash as Hex }).catch(() => null);
        if (!receipt) return fail(row, 'nonce already used by another transaction');
      } else if (/insufficient funds|exceeds balance|replacement transaction underpriced|underpriced|execution reverted|revert/.test(text)) {
        return fail(row, shortReason(err));
      } else {
        throw err;
      }
    }
    if (row.status === 'signed') await mark(row, { status: 'broadcast' });
    return { status: 'pending', txid: row.txHash };
  }

  /** Moves a payout on: broadcast it, or look for its receipt and confirmations. */
  async function advance(row: PayoutRow): Promise<PayoutOutcome> {
    if (row.status === 'success') return { status: 'success', txid: row.txHash };
    if (row.status === 'failed') return failed(row.reason ?? 'Payout failed');
    if (row.status === 'signed') return broadcast(row);
    const network = networkOf(row);
    const client = chains.client(network);
    const receipt = await client.getTransactionReceipt({ hash: row.txHash as Hex }).catch(() => null);
    if (receipt) {
      const head = await client.getBlockNumber({ cacheTime: 0 });
      if (head - receipt.blockNumber + 1n < BigInt(network.confirmations)) return { status: 'pending', txid: row.txHash };
      if (receipt.status !== 'success') return fail(row, 'the token transfer reverted');
      await mark(row, { status: 'success', blockNumber: receipt.blockNumber });
      log.info({ payoutId: row.payoutId, txHash: row.txHash }, 'evm: payout confirmed');
      return { status: 'success', txid: row.txHash };
    }
    const mined = await client.getTransactionCount({ address: row.fromAddress as Hex, blockTag: 'latest' });
    if (mined > row.nonce) {
      // Our nonce is used; if not by our transaction (no receipt, checked again to avoid a race), it never will be.
      const again = await client.getTransactionReceipt({ hash: row.txHash as Hex }).catch(() => null);
      if (!again) return fail(row, 'nonce already used by another transaction');
      return { status: 'pending', txid: row.txHash };
    }
    const known = await client.getTransaction({ hash: row.txHash as Hex }).catch(() => null);
    if (!known) return broadcast(row); // dropped from the mempool: send the same bytes again
    return { status: 'pending', txid: row.txHash };
  }

  async function find(payoutId: string): Promise<PayoutRow | null> {
    const [row] = await db.select().from(evmPayouts).where(eq(evmPayouts.payoutId, payoutId));
    return row ?? null;
  }

  async function fees(network: EvmNetwork): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint }> {
    const client = chains.client(network);
    try {
      const f = await client.estimateFeesPerGas({ type: 'eip1559' });
      return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
    } catch {
      return { gasPrice: await client.getGasPrice() };
    }
  }

  return {
    async send(request) {
      const existing = await find(request.payoutId);
      if (existing) return advance(existing);

      const hot = chains.hotWallet;
      const found = chains.byCode(request.currency);
      if (!hot) return failed('Payouts are not configured (no hot wallet)');
      if (!found || found.network.name !== request.network.toUpperCase()) return failed(`Unsupported payout currency ${request.currency} on ${request.network}`);
      const { network, token } = found;
      if (!isAddress(request.address, { strict: false })) return failed('Invalid address format');
      const to = getAddress(request.address);
      const amount = parseUnits(new Big(request.currencyAmount).round(token.decimals, Big.roundDown).toFixed(token.decimals), token.decimals);
      if (amount <= 0n) return failed('The payout amount is zero');
      const client = chains.client(network);

      // Preflight: a transfer that would revert (too few tokens) or cannot pay for gas is refunded.
      try {
        await client.simulateContract({ account: hot, address: token.address, abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
      } catch (err) {
        if (/revert|insufficient|exceeds balance/.test(errorText(err))) return failed(`The hot wallet cannot send this transfer: ${shortReason(err)}`);
        throw err;
      }
      const gas = BigInt(network.transferGasLimit);
      const fee = await fees(network);
      const perGas = 'gasPrice' in fee ? fee.gasPrice : fee.maxFeePerGas;
      const native = await client.getBalance({ address: hot.address });
      if (native < gas * perGas) return failed(`The hot wallet has too little ${network.nativeSymbol} for gas`);

      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
      const from = hot.address.toLowerCase();
      const row = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${NONCE_LOCK_CLASS}, ${network.chainId})`);
        const [again] = await tx.select().from(evmPayouts).where(eq(evmPayouts.payoutId, request.payoutId));
        if (again) return again;
        const pending = await client.getTransactionCount({ address: hot.address, blockTag: 'pending' });
        const [{ highest } = { highest: null }] = await tx
          .select({ highest: max(evmPayouts.nonce) })
          .from(evmPayouts)
          .where(and(eq(evmPayouts.chainId, network.chainId), eq(evmPayouts.fromAddress, from), inArray(evmPayouts.status, ['signed', 'broadcast'])));
        const nonce = highest !== null && highest + 1 > pending ? highest + 1 : pending;
        const signedTx = await hot.signTransaction({
          chainId: network.chainId,
          to: token.address,
          data,
          nonce,
          gas,
          ...('gasPrice' in fee ? { type: 'legacy' as const, gasPrice: fee.gasPrice } : { type: 'eip1559' as const, ...fee }),
        });
        const now = new Date(clock.now());
        const [created] = await tx
          .insert(evmPayouts)
          .values({
            payoutId: request.payoutId,
            chainId: network.chainId,
            token: token.address,
            fromAddress: from,
            toAddress: to.toLowerCase(),
            amount: amount.toString(),
            nonce,
            signedTx,
            txHash: keccak256(signedTx),
            status: 'signed',
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        return created!;
      });
      log.info({ payoutId: row.payoutId, network: network.name, txHash: row.txHash, nonce: row.nonce }, 'evm: payout signed');
      return advance(row);
    },

    async status(payoutId) {
      const row = await find(payoutId);
      if (!row) return { status: 'unknown' };
      return advance(row);
    },

    async estimateFee(code) {
      const found = chains.byCode(code);
      if (!found) throw new Error(`evm: unknown currency ${code}`);
      const { network, token } = found;
      const gasPrice = await chains.client(network).getGasPrice();
      const wei = gasPrice * BigInt(network.transferGasLimit);
      const usd = new Big(wei.toString()).div('1e18').times(network.nativeUsdPrice);
      const feeUsd = usd.round(2, Big.roundUp).toFixed(2);
      const fee = usd.div(token.usdPrice).round(8, Big.roundUp).toFixed(8);
      return { fee, feeUsd };
    },
  };
}

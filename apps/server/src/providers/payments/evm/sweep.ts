/**
 * Sweeping (docs/payments.md, "Sweeping"): moves the tokens that deposits left on Coffer's HD
 * deposit addresses to the hot wallet, which pays the cash-outs.
 *
 * For each configured network, deposit address and token with a balance worth at least `minUsd`:
 * 1. if the address lacks the native coin for one token transfer (gas limit x current gas price,
 *    plus a 20% margin), the hot wallet sends the difference and the sweep waits for its receipt;
 * 2. the deposit address's key (derived from the seed, never stored) signs `transfer(hot wallet,
 *    whole balance)`, and the sweep waits for the receipt.
 * A dry run only reports what it would move. Crediting is not affected: the watcher looks only at
 * transfers *to* deposit addresses. Safe to run again at any time (it reads live balances).
 */
import { Big } from '@coffer/contract';
import { and, eq } from 'drizzle-orm';
import { createWalletClient, erc20Abi, formatUnits, http, type Address, type Hex } from 'viem';
import type { Db } from '../../../db/client';
import { evmDepositAddresses } from '../../../db/schema/index';
import type { EvmChains } from './chain';
import type { EvmNetwork, EvmToken } from './config';

export interface SweepOptions {
  /** Only this network (name), or all. */
  network?: string;
  /** Report only; send nothing. */
  dryRun?: boolean;
  /** Skip balances worth less than this many USD (default 1): gas would eat them. */
  minUsd?: string;
  /** Progress lines (default: none). */
  print?: (line: string) => void;
}

export interface SweepResult {
  network: string;
  token: string;
  address: Address;
  /** Whole tokens moved (or that would move, in a dry run). */
  amount: string;
  /** The token transfer's hash (null in a dry run). */
  txHash: Hex | null;
  /** The gas top-up's hash, if one was needed. */
  gasTxHash: Hex | null;
}

/**
 * Sweeps deposit addresses to the hot wallet.
 * @throws Error when no hot wallet is configured, or a chain call fails (what was swept stays swept)
 */
export async function sweepDeposits(deps: { db: Db; chains: EvmChains; now: () => number }, opts: SweepOptions = {}): Promise<SweepResult[]> {
  const { db, chains } = deps;
  const hot = chains.hotWallet;
  if (!hot) throw new Error('EVM_HOT_WALLET_KEY is not set: there is no hot wallet to sweep to');
  const print = opts.print ?? (() => {});
  const minUsd = new Big(opts.minUsd ?? '1');
  const results: SweepResult[] = [];
  const networks = chains.networks.filter((n) => !opts.network || n.name === opts.network.toUpperCase());
  if (opts.network && !networks.length) throw new Error(`No configured network is called ${opts.network}`);

  for (const network of networks) {
    const client = chains.client(network);
    const chain = chains.chain(network);
    const transport = http(network.rpcUrl);
    const hotClient = createWalletClient({ account: hot, chain, transport });
    const addresses = await db.select().from(evmDepositAddresses).where(eq(evmDepositAddresses.chainId, network.chainId));
    print(`${network.name}: ${addresses.length} deposit address(es)`);
    for (const row of addresses) {
      for (const token of network.tokens) {
        const balance = await client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [row.address as Address] });
        if (balance === 0n) continue;
        const amount = formatUnits(balance, token.decimals);
        if (new Big(amount).times(token.usdPrice).lt(minUsd)) {
          print(`  ${row.address} ${amount} ${token.symbol}: below ${minUsd.toFixed()} USD, left`);
          continue;
        }
        if (opts.dryRun) {
          print(`  ${row.address} ${amount} ${token.symbol}: would sweep`);
          results.push({ network: network.name, token: token.code, address: row.address as Address, amount, txHash: null, gasTxHash: null });
          continue;
        }
        const result = await sweepOne(network, token, row.hdIndex, balance, { client, hotClient, transport, chain });
        print(`  ${row.address} ${amount} ${token.symbol}: swept in ${result.txHash}${result.gasTxHash ? ` (gas sent in ${result.gasTxHash})` : ''}`);
        results.push({ network: network.name, token: token.code, address: row.address as Address, amount, ...result });
        await db
          .update(evmDepositAddresses)
          .set({ sweptAt: new Date(deps.now()) })
          .where(and(eq(evmDepositAddresses.hdIndex, row.hdIndex), eq(evmDepositAddresses.chainId, network.chainId)));
      }
    }
  }
  return results;

  async function sweepOne(
    network: EvmNetwork,
    token: EvmToken,
    hdIndex: number,
    balance: bigint,
    c: { client: ReturnType<EvmChains['client']>; hotClient: ReturnType<typeof createWalletClient>; transport: ReturnType<typeof http>; chain: ReturnType<EvmChains['chain']> },
  ): Promise<{ txHash: Hex; gasTxHash: Hex | null }> {
    const account = chains.depositAccount(hdIndex);
    const gas = BigInt(network.transferGasLimit);
    const gasPrice = await c.client.getGasPrice();
    const needed = (gas * gasPrice * 12n) / 10n;
    const native = await c.client.getBalance({ address: account.address });
    let gasTxHash: Hex | null = null;
    if (native < needed) {
      gasTxHash = await c.hotClient.sendTransaction({ account: hot!, chain: c.chain, to: account.address, value: needed - native });
      const funded = await c.client.waitForTransactionReceipt({ hash: gasTxHash });
      if (funded.status !== 'success') throw new Error(`gas top-up ${gasTxHash} failed`);
    }
    const wallet = createWalletClient({ account, chain: c.chain, transport: c.transport });
    const txHash = await wallet.writeContract({ address: token.address, abi: erc20Abi, functionName: 'transfer', args: [hot!.address, balance], gas, gasPrice });
    const receipt = await c.client.waitForTransactionReceipt({ hash: txHash });
    if (receipt.status !== 'success') throw new Error(`sweep ${txHash} reverted`);
    return { txHash, gasTxHash };
  }
}

/**
 * A local EVM JSON-RPC node for tests: ganache, in-process, listening on 127.0.0.1 (ports 8545-8549
 * are Coffer's), with the 6-decimal TestToken (TestToken.sol, compiled in test-token.json) deployed.
 * Blocks are mined one per transaction (automine) and on demand with {@link TestChain.mine}.
 * Why ganache and not Hardhat 2's node: docs/decisions/0010-local-chain.md. In its "eager" instamine
 * mode `eth_sendRawTransaction` answers once the transaction is mined, so a transaction behind a
 * nonce gap gets no answer until the gap is filled (Coffer reads that as a timeout).
 */
import ganache from 'ganache';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  parseEther,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import token from './test-token.json' with { type: 'json' };

export const TOKEN_ABI = token.abi;

/** A funded account's private key (ganache's deterministic wallet, first account). */
const FUNDER_KEY = '0x4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d' as Hex;

export interface TestChain {
  rpcUrl: string;
  chainId: number;
  /** The deployed 6-decimal token. */
  token: Address;
  /** An account with 1000 native coins and 1,000,000 tokens that deployed the token; sends test payments. */
  funder: Address;
  publicClient: ReturnType<typeof createPublicClient>;
  /** Mints `amount` base units of the token to `to` (from the funder). */
  mint(to: Address, amount: bigint): Promise<Hex>;
  /** Sends `amount` base units of the token from the funder to `to` (mined at once). */
  pay(to: Address, amount: bigint): Promise<Hex>;
  /** Sends native coins from the funder. */
  fund(to: Address, wei: bigint): Promise<Hex>;
  /** Mines `blocks` empty blocks. */
  mine(blocks: number): Promise<void>;
  /** Stops mining: transactions wait in the pool until {@link TestChain.startMining}. */
  stopMining(): Promise<void>;
  /** Mines what waits in the pool and goes back to one block per transaction. */
  startMining(): Promise<void>;
  snapshot(): Promise<Hex>;
  revert(id: Hex): Promise<void>;
  head(): Promise<bigint>;
  tokenBalance(of: Address): Promise<bigint>;
  close(): Promise<void>;
}

/** Coffer's ports for local chains; a test takes the first free one (several runs may share a machine). */
export const CHAIN_PORTS = [8545, 8546, 8547, 8548, 8549];

/**
 * Starts ganache on 127.0.0.1 (the first free port of {@link CHAIN_PORTS}) with `chainId` and
 * deploys the token.
 * @throws Error when every port is taken
 */
export async function startTestChain(chainId: number): Promise<TestChain> {
  const options = {
    logging: { quiet: true },
    chain: { chainId, hardfork: 'shanghai' as const },
    wallet: { accounts: [{ secretKey: FUNDER_KEY, balance: `0x${parseEther('1000').toString(16)}` }] },
    miner: { blockGasLimit: 30_000_000 },
  };
  let server: ReturnType<typeof ganache.server> | null = null;
  let port = 0;
  for (const candidate of CHAIN_PORTS) {
    const s = ganache.server(options);
    try {
      await s.listen(candidate, '127.0.0.1');
      server = s;
      port = candidate;
      break;
    } catch (err) {
      await s.close().catch(() => {});
      if (!/EADDRINUSE/.test(String((err as Error).message))) throw err;
    }
  }
  if (!server) throw new Error(`no free port for a local chain among ${CHAIN_PORTS.join(', ')}`);
  const rpcUrl = `http://127.0.0.1:${port}`;
  const chain = defineChain({
    id: chainId,
    name: `test-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl);
  const account = privateKeyToAccount(FUNDER_KEY);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 });
  const wallet = createWalletClient({ chain, transport, account });
  const test = createTestClient({ chain, transport, mode: 'ganache' });

  const deployHash = await wallet.deployContract({ abi: TOKEN_ABI, bytecode: token.bytecode as Hex });
  const receipt = await publicClient.waitForTransactionReceipt({ hash: deployHash });
  if (!receipt.contractAddress) throw new Error('token deployment failed');
  const tokenAddress = receipt.contractAddress;
  // The funder holds 1,000,000 tokens to pay deposits with.
  await publicClient.waitForTransactionReceipt({
    hash: await wallet.writeContract({ address: tokenAddress, abi: TOKEN_ABI, functionName: 'mint', args: [account.address, 1_000_000n * 10n ** 6n] }),
  });

  async function mined(hash: Hex): Promise<Hex> {
    const r = await publicClient.waitForTransactionReceipt({ hash });
    if (r.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return hash;
  }

  return {
    rpcUrl,
    chainId,
    token: tokenAddress,
    funder: account.address,
    publicClient: publicClient as ReturnType<typeof createPublicClient>,
    async mint(to, amount) {
      return mined(await wallet.writeContract({ address: tokenAddress, abi: TOKEN_ABI, functionName: 'mint', args: [to, amount] }));
    },
    async pay(to, amount) {
      return mined(await wallet.writeContract({ address: tokenAddress, abi: TOKEN_ABI, functionName: 'transfer', args: [to, amount] }));
    },
    async fund(to, wei) {
      return mined(await wallet.sendTransaction({ to, value: wei }));
    },
    async mine(blocks) {
      await test.mine({ blocks });
    },
    async stopMining() {
      await publicClient.request({ method: 'miner_stop' as never, params: [] as never });
    },
    async startMining() {
      await publicClient.request({ method: 'miner_start' as never, params: [] as never });
    },
    snapshot: () => test.snapshot(),
    async revert(id) {
      await test.revert({ id });
    },
    head: () => publicClient.getBlockNumber({ cacheTime: 0 }),
    async tokenBalance(of) {
      return (await publicClient.readContract({ address: tokenAddress, abi: TOKEN_ABI, functionName: 'balanceOf', args: [of] })) as bigint;
    },
    close: () => server!.close(),
  };
}

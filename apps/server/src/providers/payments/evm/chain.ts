/**
 * Chain access for the `evm` provider: one viem public client per configured network, the HD
 * deposit keys (m/44'/60'/0'/0/i) and the hot wallet account. Every call to a chain goes through
 * viem; nothing here touches the database.
 */
import type { HDKey } from '@scure/bip32';
import { BaseError, createPublicClient, defineChain, http, type Chain, type PublicClient, type Transport } from 'viem';
import { hdKeyToAccount, privateKeyToAccount, type HDAccount, type PrivateKeyAccount } from 'viem/accounts';
import { masterKey, type EvmNetwork, type EvmSettings, type EvmToken } from './config';

/** The BIP-44 path of deposit address `index` (Ethereum coin type 60, account 0, external chain). */
export const depositPath = (index: number): `m/44'/60'/0'/0/${number}` => `m/44'/60'/0'/0/${index}`;

/** A public client bound to one configured chain. */
export type EvmClient = PublicClient<Transport, Chain>;

export interface EvmChains {
  networks: EvmNetwork[];
  /** The network of a currency code and its token, or undefined. */
  byCode(code: string): { network: EvmNetwork; token: EvmToken } | undefined;
  byName(name: string): EvmNetwork | undefined;
  client(network: EvmNetwork): EvmClient;
  chain(network: EvmNetwork): Chain;
  /** The deposit account at HD index `index` (derived on demand, keys cached per index). */
  depositAccount(index: number): HDAccount;
  /** The hot wallet that pays out, or null when `EVM_HOT_WALLET_KEY` is unset. */
  hotWallet: PrivateKeyAccount | null;
}

/** Builds clients and keys from validated settings. Secrets stay inside the returned accounts. */
export function createEvmChains(settings: EvmSettings): EvmChains {
  let root: HDKey | null = null;
  const chains = new Map<number, Chain>();
  const clients = new Map<number, EvmClient>();
  for (const n of settings.networks) {
    const chain = defineChain({
      id: n.chainId,
      name: n.name,
      nativeCurrency: { name: n.nativeSymbol, symbol: n.nativeSymbol, decimals: 18 },
      rpcUrls: { default: { http: [n.rpcUrl] } },
    });
    chains.set(n.chainId, chain);
    clients.set(n.chainId, createPublicClient({ chain, transport: http(n.rpcUrl, { retryCount: n.rpcRetries, timeout: n.rpcTimeoutMs }), pollingInterval: n.pollingIntervalMs }));
  }
  const codes = new Map<string, { network: EvmNetwork; token: EvmToken }>();
  for (const network of settings.networks) for (const token of network.tokens) codes.set(token.code, { network, token });
  const hotKey = settings.hotWalletKey?.reveal();

  return {
    networks: settings.networks,
    byCode: (code) => codes.get(code),
    byName: (name) => settings.networks.find((n) => n.name === name.toUpperCase()),
    client: (n) => clients.get(n.chainId)!,
    chain: (n) => chains.get(n.chainId)!,
    depositAccount(index) {
      root ??= masterKey(settings.seed);
      return hdKeyToAccount(root, { path: depositPath(index) });
    },
    hotWallet: hotKey ? privateKeyToAccount(hotKey as `0x${string}`) : null,
  };
}

/** The node's own words for an error, lower case, from every error viem wrapped (for classification). */
export function errorText(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let i = 0; i < 8 && e; i++) {
    if (e instanceof BaseError) parts.push(e.details ?? '', e.shortMessage ?? '', e.name);
    else if (e instanceof Error) parts.push(e.message, e.name);
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(' | ').toLowerCase();
}

/**
 * The node's own words only (the innermost error's details), lower case: unlike {@link errorText} it
 * leaves out viem's readings, which call any -32000 answer of an `eth_call` a revert ("header not
 * found" from a lagging node would read as one).
 */
export function nodeText(err: unknown): string {
  let e: unknown = err;
  let words = '';
  for (let i = 0; i < 8 && e; i++) {
    if (e instanceof BaseError) words = e.details || words;
    else if (e instanceof Error) words = e.message || words;
    e = (e as { cause?: unknown }).cause;
  }
  return words.toLowerCase();
}

/** A short, single-line reason for logs and bills (no stack, no secrets). */
export function shortReason(err: unknown): string {
  const text = err instanceof BaseError ? err.shortMessage : err instanceof Error ? err.message : String(err);
  return text.split('\n')[0]!.slice(0, 200);
}

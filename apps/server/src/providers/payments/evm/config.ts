/**
 * Configuration of the `evm` payment provider (docs/payments.md, "Running Coffer on real chains").
 *
 * Networks come from `EVM_NETWORKS` (JSON) or `EVM_NETWORKS_FILE` (a path to the same JSON): an
 * array of networks, each with its chain id, RPC URL, confirmations and ERC-20 tokens. Secrets come
 * from `EVM_SEED` / `EVM_SEED_FILE` (a BIP-39 mnemonic or a master xprv: the deposit addresses
 * m/44'/60'/0'/0/i) and `EVM_HOT_WALLET_KEY` / `EVM_HOT_WALLET_KEY_FILE` (the 0x-hex private key that
 * pays out). Secrets are wrapped in {@link Secret}, which never prints its value.
 *
 * {@link loadEvmSettings} is called by `loadConfig` when `PAYMENTS=evm` and throws one message line
 * per problem (`EVM_NETWORKS: 0.tokens.0.address: ...`), so the server refuses to start.
 */
import { inspect } from 'node:util';
import { createRequire } from 'node:module';
import type { HDKey } from '@scure/bip32';
import { z } from 'zod';
import { fromEnvOrFile } from '../env-file';

/** A secret value: `reveal()` gives it; logging, JSON and inspection show `[secret]`. */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return '[secret]';
  }
  toJSON(): string {
    return '[secret]';
  }
  [inspect.custom](): string {
    return '[secret]';
  }
}

const decimalString = z.string().regex(/^\d{1,18}(\.\d{1,18})?$/, 'must be a decimal number such as "1" or "2500.5"');

/** NOWPayments-style code suffix per well-known network name (usdterc20, usdtbsc, usdtmatic...). */
const CODE_SUFFIX: Record<string, string> = {
  ETH: 'erc20',
  BSC: 'bsc',
  MATIC: 'matic',
  POLYGON: 'matic',
  ARB: 'arb',
  BASE: 'base',
  OP: 'op',
  AVAX: 'avaxc',
};
const TOKEN_NAME: Record<string, string> = { USDT: 'Tether USD', USDC: 'USD Coin', DAI: 'Dai' };
const NETWORK_LABEL: Record<string, string> = {
  ETH: 'ERC-20',
  BSC: 'BEP-20',
  MATIC: 'Polygon',
  POLYGON: 'Polygon',
  ARB: 'Arbitrum',
  BASE: 'Base',
  OP: 'Optimism',
  AVAX: 'Avalanche C-Chain',
};

const TokenSchema = z.object({
  /** Ticker, e.g. USDT, USDC. */
  symbol: z
    .string()
    .regex(/^[A-Za-z0-9]{2,10}$/, 'must be 2-10 letters or digits')
    .transform((s) => s.toUpperCase()),
  /** The ERC-20 contract. */
  // The format only, as viem's isAddress(a, { strict: false }) checks it (no EIP-55 checksum), without
  // loading viem (about 25 MB) in a server that does not run the EVM rail.
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address of 40 hex digits'),
  /** The token's decimals (USDT: 6 on Ethereum, 18 on BSC). */
  decimals: z.number().int().min(0).max(36),
  /** Currency code; default symbol + network suffix, e.g. `usdterc20`, `usdtbsc`. */
  code: z
    .string()
    .regex(/^[a-z0-9]{2,20}$/, 'must be 2-20 lower-case letters or digits')
    .optional(),
  /** Display name; default e.g. "Tether USD (ERC-20)", "USD Coin (BEP-20)". */
  name: z.string().min(1).max(80).optional(),
  /** USD per whole token (stablecoins: 1). */
  usdPrice: decimalString.default('1'),
  /** Smallest deposit in whole tokens. */
  minDeposit: decimalString.default('1'),
  /**
   * Dust in whole tokens: a transfer to a deposit address below this (address-poisoning spam) is
   * recorded as ignored ('dust') and never credited; zero-value transfers always are (docs/payments.md, "What can go wrong").
   */
  dust: decimalString.default('0.01'),
  /** Cash-out minimum in USD (product §3 fiatEquivalent). */
  payoutMinUsd: decimalString.default('10'),
  /** Offer cash-out in this token (default: USDT only, product §9). */
  payout: z.boolean().optional(),
  /** Logo file name under the app's currency logos (default: the symbol, lower case). */
  logo: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/)
    .optional(),
});

const NetworkSchema = z.object({
  /** Network code shown to users, upper case: ETH, BSC, MATIC, ARB, BASE... */
  name: z
    .string()
    .regex(/^[A-Za-z0-9]{2,12}$/, 'must be 2-12 letters or digits')
    .transform((s) => s.toUpperCase()),
  /** EIP-155 chain id (stored as a 32-bit integer). */
  chainId: z.number().int().positive().max(2_147_483_647, 'must be at most 2147483647'),
  rpcUrl: z.url(),
  /** Blocks a transfer needs (its own block counts as one) before it is credited or a payout settles. */
  confirmations: z.number().int().min(1).max(1000).default(12),
  /** At most this many blocks per eth_getLogs call (public RPCs cap it; 500-2000 is common). */
  blockRange: z.number().int().min(1).max(100_000).default(1000),
  /** First block to scan on a fresh database; default: the chain head at the first scan. */
  startBlock: z.number().int().min(0).optional(),
  /** Native coin ticker, for fee display and sweeping (ETH, BNB, POL...). */
  nativeSymbol: z
    .string()
    .regex(/^[A-Za-z0-9]{2,10}$/)
    .default('ETH'),
  /** USD per native coin: payout fee estimates convert gas cost with it. */
  nativeUsdPrice: decimalString,
  /** Gas limit of one ERC-20 transfer (payouts and sweeps). */
  transferGasLimit: z.number().int().min(21_000).max(1_000_000).default(100_000),
  /** Milliseconds between RPC polls when waiting for a receipt (sweeps); default 4000. */
  pollingIntervalMs: z.number().int().min(10).max(60_000).default(4_000),
  /** Milliseconds before one RPC call counts as timed out (then: try again later); default 20000. */
  rpcTimeoutMs: z.number().int().min(1_000).max(120_000).default(20_000),
  /** Retries of a failed RPC call inside one attempt (viem's backoff); default 2. */
  rpcRetries: z.number().int().min(0).max(5).default(2),
  tokens: z.array(TokenSchema).min(1, 'needs at least one token'),
});

export const EvmNetworksSchema = z
  .array(NetworkSchema)
  .min(1, 'needs at least one network')
  .superRefine((nets, ctx) => {
    const names = new Set<string>();
    const chains = new Set<number>();
    const codes = new Set<string>();
    nets.forEach((n, i) => {
      if (names.has(n.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate network ${n.name}` });
      if (chains.has(n.chainId))
        ctx.addIssue({ code: 'custom', path: [i, 'chainId'], message: `duplicate chain id ${n.chainId}` });
      names.add(n.name);
      chains.add(n.chainId);
      n.tokens.forEach((t, j) => {
        const code = tokenCode(n.name, t.symbol, t.code);
        if (codes.has(code))
          ctx.addIssue({ code: 'custom', path: [i, 'tokens', j, 'code'], message: `duplicate currency code ${code}` });
        codes.add(code);
      });
    });
  });

type RawNetwork = z.infer<typeof NetworkSchema>;
type RawToken = z.infer<typeof TokenSchema>;

/** The currency code of a token: explicit, or symbol + network suffix (`usdt` + `erc20`). */
export function tokenCode(network: string, symbol: string, explicit?: string): string {
  if (explicit) return explicit;
  return `${symbol.toLowerCase()}${CODE_SUFFIX[network] ?? network.toLowerCase()}`;
}

export interface EvmToken extends Omit<RawToken, 'code' | 'name' | 'payout' | 'address' | 'logo'> {
  code: string;
  name: string;
  /** Lower-case 0x address. */
  address: `0x${string}`;
  payout: boolean;
  logo: string;
}

export interface EvmNetwork extends Omit<RawNetwork, 'tokens'> {
  tokens: EvmToken[];
}

export interface EvmSettings {
  networks: EvmNetwork[];
  /** BIP-39 mnemonic or master xprv of the deposit addresses. */
  seed: Secret;
  /** 0x private key of the hot wallet that pays out; without it cash-out is off. */
  hotWalletKey: Secret | null;
  /** Milliseconds between watcher passes. */
  pollMs: number;
  /** Hours after a bill's expiry during which a payment to its address is still credited (a late payment). */
  latePaymentHours: number;
  /** Days after a bill's creation during which its address is watched at all (later payments are logged). */
  watchDays: number;
}

/** The raw variables {@link loadEvmSettings} reads (a subset of the validated environment). */
export interface EvmEnv {
  EVM_NETWORKS?: string | undefined;
  EVM_NETWORKS_FILE?: string | undefined;
  EVM_SEED?: string | undefined;
  EVM_SEED_FILE?: string | undefined;
  EVM_HOT_WALLET_KEY?: string | undefined;
  EVM_HOT_WALLET_KEY_FILE?: string | undefined;
  EVM_POLL_MS: number;
  EVM_LATE_PAYMENT_HOURS: number;
  EVM_WATCH_DAYS: number;
}

/**
 * @scure/bip32 and @scure/bip39 (with @noble/curves' secp256k1 beneath), loaded when a seed is
 * first checked or used: a server on the sandbox or ton rail never loads them (docs/operations.md
 * "Memory"). Their CommonJS builds, since the configuration is read synchronously at start-up.
 */
const requireCjs = createRequire(import.meta.url);
const bip32 = () => requireCjs('@scure/bip32') as typeof import('@scure/bip32');
const bip39 = () => requireCjs('@scure/bip39') as typeof import('@scure/bip39');
const english = () => (requireCjs('@scure/bip39/wordlists/english') as typeof import('@scure/bip39/wordlists/english')).wordlist;

/** True for a BIP-39 English mnemonic or a master (depth 0) xprv. Never echoes the value. */
export function isValidSeed(seed: string): boolean {
  if (seed.startsWith('xprv')) {
    try {
      const key = bip32().HDKey.fromExtendedKey(seed);
      return key.depth === 0 && !!key.privateKey;
    } catch {
      return false;
    }
  }
  return bip39().validateMnemonic(seed.split(/\s+/).join(' '), english());
}

/** The master HD key of a validated seed (mnemonic without passphrase, or xprv). */
export function masterKey(seed: Secret): HDKey {
  const value = seed.reveal();
  if (value.startsWith('xprv')) return bip32().HDKey.fromExtendedKey(value);
  return bip32().HDKey.fromMasterSeed(bip39().mnemonicToSeedSync(value.split(/\s+/).join(' ')));
}

/**
 * Validates the evm variables and reads the files they name.
 * @returns the settings, or `problems` (one `NAME: message` line each) when anything is wrong
 */
export function loadEvmSettings(env: EvmEnv): { settings: EvmSettings | null; problems: string[] } {
  const problems: string[] = [];
  const networksText = fromEnvOrFile(env, 'EVM_NETWORKS', problems);
  const seedText = fromEnvOrFile(env, 'EVM_SEED', problems);
  const hotText = fromEnvOrFile(env, 'EVM_HOT_WALLET_KEY', problems);

  let networks: EvmNetwork[] | null = null;
  if (!networksText) {
    if (!problems.some((p) => p.startsWith('EVM_NETWORKS')))
      problems.push('EVM_NETWORKS: required when PAYMENTS=evm (JSON, or a file path in EVM_NETWORKS_FILE)');
  } else {
    let json: unknown;
    try {
      json = JSON.parse(networksText);
    } catch {
      problems.push('EVM_NETWORKS: not valid JSON');
    }
    if (json !== undefined) {
      const parsed = EvmNetworksSchema.safeParse(json);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          problems.push(`EVM_NETWORKS: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
      } else {
        networks = parsed.data.map((n) => ({
          ...n,
          tokens: n.tokens.map((t) => ({
            ...t,
            code: tokenCode(n.name, t.symbol, t.code),
            name: t.name ?? `${TOKEN_NAME[t.symbol] ?? t.symbol} (${NETWORK_LABEL[n.name] ?? n.name})`,
            address: t.address.toLowerCase() as `0x${string}`,
            payout: t.payout ?? t.symbol === 'USDT',
            logo: t.logo ?? t.symbol.toLowerCase(),
          })),
        }));
      }
    }
  }

  if (!seedText) {
    if (!problems.some((p) => p.startsWith('EVM_SEED')))
      problems.push('EVM_SEED: required when PAYMENTS=evm (a BIP-39 mnemonic or xprv, or a file path in EVM_SEED_FILE)');
  } else if (!isValidSeed(seedText)) {
    problems.push('EVM_SEED: not a valid BIP-39 English mnemonic or master xprv');
  }

  if (hotText && !/^0x[0-9a-fA-F]{64}$/.test(hotText))
    problems.push('EVM_HOT_WALLET_KEY: must be a 0x-prefixed 32-byte hex private key');

  if (problems.length || !networks || !seedText) return { settings: null, problems };
  return {
    settings: {
      networks,
      seed: new Secret(seedText),
      hotWalletKey: hotText ? new Secret(hotText) : null,
      pollMs: env.EVM_POLL_MS,
      latePaymentHours: env.EVM_LATE_PAYMENT_HOURS,
      watchDays: env.EVM_WATCH_DAYS,
    },
    problems,
  };
}

/**
 * Configuration of the `ton` payment provider (docs/payments.md, "ton — USDT on TON"): USDT jetton
 * deposits to one wallet with a memo per bill (ADR 0055) and payouts from a hot wallet in batches
 * (ADR 0056), through a toncenter v2 API.
 *
 * {@link TON_ENV} is the variables' zod shape (spread into the server's ConfigSchema);
 * {@link loadTonSettings} validates them when `PAYMENTS=ton` and returns one `NAME: message` line
 * per problem, so the server refuses to start. Secrets (`TON_API_KEY`, `TON_HOT_WALLET_MNEMONIC`,
 * each also from a file named by `NAME_FILE`) are wrapped in {@link Secret} and never printed.
 */
import { createHmac, pbkdf2Sync } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Address } from '@ton/core';
import { z } from 'zod';
import { Secret } from '../evm/config';
import type { TonApi } from './api';
import { fromEnvOrFile } from '../env-file';

export { Secret };

const decimalString = z.string().regex(/^\d{1,18}(\.\d{1,18})?$/, 'must be a decimal number such as "1" or "0.05"');

/** The USDT jetton master on TON mainnet (Tether's, https://tether.to/en/supported-protocols). */
export const MAINNET_USDT_MASTER = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';

/** The variables of the ton rail, as the server's ConfigSchema reads them (all optional there). */
export const TON_ENV = {
  /** toncenter v2 JSON-RPC endpoint (or any API of the same shape). */
  TON_API_URL: z.url().default('https://toncenter.com/api/v2/jsonRPC'),
  TON_API_KEY: z.string().optional(),
  TON_API_KEY_FILE: z.string().optional(),
  /** Milliseconds before one API call counts as failed (then: try again later). */
  TON_API_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
  /** Addresses are shown in their testnet form. */
  TON_TESTNET: z.enum(['true', 'false', '1', '0']).optional(),
  /** The USDT jetton master; only jettons of this master are credited. */
  TON_USDT_MASTER: z.string().default(MAINNET_USDT_MASTER),
  TON_USDT_DECIMALS: z.coerce.number().int().min(0).max(18).default(6),
  /** 24 words of the hot wallet (W5, v5r1): pays out; also the deposit wallet unless TON_DEPOSIT_ADDRESS is set. */
  TON_HOT_WALLET_MNEMONIC: z.string().optional(),
  TON_HOT_WALLET_MNEMONIC_FILE: z.string().optional(),
  /** The wallet (owner address) deposits are sent to, with the bill's memo; default the hot wallet. */
  TON_DEPOSIT_ADDRESS: z.string().optional(),
  /** USD per TON: payout fee estimates convert the TON a transfer costs with it. */
  TON_USD_PRICE: decimalString.optional(),
  /** TON attached to each payout's jetton transfer (gas; the unused part comes back). */
  TON_JETTON_TRANSFER_TON: decimalString.default('0.05'),
  /** forward_ton_amount of each payout, nanotons (at least 1: the recipient's wallet then sees the transfer and its comment). */
  TON_FORWARD_TON_NANO: z.coerce.number().int().min(1).max(1_000_000_000).default(1),
  TON_MIN_DEPOSIT: decimalString.default('1'),
  /** Transfers below this many USDT are recorded as dust and never credited. */
  TON_DUST: decimalString.default('0.01'),
  TON_PAYOUT_MIN_USD: decimalString.default('10'),
  /** Seconds a signed batch stays valid (its valid_until); past it plus a margin, proof that it never lands. */
  TON_MESSAGE_TTL_S: z.coerce.number().int().min(30).max(3_600).default(120),
  /** Most payouts in one external message (a v5r1 wallet sends at most 255). */
  TON_BATCH_MAX: z.coerce.number().int().min(1).max(254).default(100),
  /** Milliseconds between watcher passes. */
  TON_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  /** Hours after a bill's expiry during which a payment with its memo is still credited. */
  TON_LATE_PAYMENT_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 365)
    .default(168),
};

export const TonEnvSchema = z.object(TON_ENV);
/** The validated variables {@link loadTonSettings} reads. */
export type TonEnv = z.infer<typeof TonEnvSchema>;

export interface TonSettings {
  apiUrl: string;
  apiKey: Secret | null;
  apiTimeoutMs: number;
  testnet: boolean;
  usdtMaster: Address;
  decimals: number;
  /** The hot wallet's 24 words, or null (cash-out off). */
  hotWalletMnemonic: Secret | null;
  /** The deposit wallet, or null: then the hot wallet's address. */
  depositAddress: Address | null;
  tonUsdPrice: string;
  jettonTransferTon: string;
  /** forward_ton_amount of each payout, nanotons. */
  forwardTonNano: number;
  minDeposit: string;
  dust: string;
  payoutMinUsd: string;
  messageTtlS: number;
  batchMax: number;
  pollMs: number;
  latePaymentHours: number;
  /** A client to use instead of toncenter (set by tests: the offline chain); never from a variable. */
  api?: TonApi;
}

/** Parses a TON address in any form (raw `0:<hex>`, or user-friendly). @returns null when it is none */
export function parseTonAddress(text: string): Address | null {
  try {
    return tonCore().Address.parse(text.trim());
  } catch {
    return null;
  }
}

/**
 * @ton/core and @ton/crypto (CommonJS packages: `require` returns the same instance an `import`
 * does), loaded when the ton rail's variables are checked: a server without `PAYMENTS=ton` never
 * loads them (about 3 MB of heap; docs/operations.md "Memory").
 */
const requireCjs = createRequire(import.meta.url);
const tonCore = () => requireCjs('@ton/core') as typeof import('@ton/core');
let tonWordList: ReadonlySet<string> | undefined;
const tonWords = () => (tonWordList ??= new Set((requireCjs('@ton/crypto') as typeof import('@ton/crypto')).mnemonicWordList));

/**
 * True for a TON wallet mnemonic without password: 24 words of the list whose entropy is a "basic
 * seed" (tonlib's Mnemonic::is_basic_seed, the check `mnemonicValidate` of @ton/crypto makes),
 * computed synchronously. Never echoes the words.
 */
export function isTonMnemonic(words: string[]): boolean {
  if (words.length !== 24 || !words.every((w) => tonWords().has(w))) return false;
  const entropy = createHmac('sha512', words.join(' ')).update('').digest();
  return pbkdf2Sync(entropy, 'TON seed version', Math.floor(100_000 / 256), 64, 'sha512')[0] === 0;
}

/**
 * Validates the ton variables and reads the files they name.
 * @returns the settings, or `problems` (one `NAME: message` line each) when anything is wrong
 */
export function loadTonSettings(env: TonEnv): { settings: TonSettings | null; problems: string[] } {
  const problems: string[] = [];
  const apiKey = fromEnvOrFile(env, 'TON_API_KEY', problems);
  const mnemonic = fromEnvOrFile(env, 'TON_HOT_WALLET_MNEMONIC', problems);
  const words = mnemonic?.toLowerCase().split(/\s+/) ?? [];
  if (mnemonic && !isTonMnemonic(words)) problems.push('TON_HOT_WALLET_MNEMONIC: not a valid 24-word TON mnemonic');
  const master = parseTonAddress(env.TON_USDT_MASTER);
  if (!master) problems.push('TON_USDT_MASTER: not a TON address');
  const deposit = env.TON_DEPOSIT_ADDRESS ? parseTonAddress(env.TON_DEPOSIT_ADDRESS) : null;
  if (env.TON_DEPOSIT_ADDRESS && !deposit) problems.push('TON_DEPOSIT_ADDRESS: not a TON address');
  if (!mnemonic && !env.TON_DEPOSIT_ADDRESS && !problems.some((p) => p.startsWith('TON_HOT_WALLET_MNEMONIC')))
    problems.push('TON_HOT_WALLET_MNEMONIC: required when PAYMENTS=ton (or TON_DEPOSIT_ADDRESS for deposits only)');
  if (!env.TON_USD_PRICE) problems.push('TON_USD_PRICE: required when PAYMENTS=ton (USD per TON, for payout fees)');
  if (problems.length || !master) return { settings: null, problems };
  return {
    settings: {
      apiUrl: env.TON_API_URL,
      apiKey: apiKey ? new Secret(apiKey) : null,
      apiTimeoutMs: env.TON_API_TIMEOUT_MS,
      testnet: env.TON_TESTNET === 'true' || env.TON_TESTNET === '1',
      usdtMaster: master,
      decimals: env.TON_USDT_DECIMALS,
      hotWalletMnemonic: mnemonic ? new Secret(words.join(' ')) : null,
      depositAddress: deposit,
      tonUsdPrice: env.TON_USD_PRICE!,
      jettonTransferTon: env.TON_JETTON_TRANSFER_TON,
      forwardTonNano: env.TON_FORWARD_TON_NANO,
      minDeposit: env.TON_MIN_DEPOSIT,
      dust: env.TON_DUST,
      payoutMinUsd: env.TON_PAYOUT_MIN_USD,
      messageTtlS: env.TON_MESSAGE_TTL_S,
      batchMax: env.TON_BATCH_MAX,
      pollMs: env.TON_POLL_MS,
      latePaymentHours: env.TON_LATE_PAYMENT_HOURS,
    },
    problems,
  };
}

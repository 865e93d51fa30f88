/**
 * Configuration of the `tron` payment provider (docs/payments.md, "tron — USDT on TRON"): USDT
 * (TRC-20) on TRON, self-custodial, against any node's HTTP API (TronGrid or an own full node).
 *
 * Variables (validated by `loadConfig` when `PAYMENTS` lists `tron`; one `NAME: problem` line each):
 * - `TRON_NODE_URL` (the `/wallet/*` API) and `TRON_SOLIDITY_URL` (the `/walletsolidity/*` API; a
 *   full node serves it on its own port, 8091 by default; default: `TRON_NODE_URL`), `TRON_API_KEY`
 *   (sent as `TRON-PRO-API-KEY`, TronGrid's header);
 * - `TRON_SEED` / `TRON_SEED_FILE` (BIP-39 mnemonic or master xprv; deposit addresses
 *   m/44'/195'/0'/0/i; default: the EVM seed, whose TRON keys differ by coin type) and
 *   `TRON_HOT_WALLET_KEY` / `TRON_HOT_WALLET_KEY_FILE` (64 hex digits, optional 0x: pays out);
 * - the token (`TRON_USDT_CONTRACT`, `TRON_USDT_DECIMALS`), prices and limits (whole tokens, TRX,
 *   USD: decimal strings), and timing (ms, s, hours, days as named).
 * Secrets are {@link Secret}s and never printed.
 */
import { isValidSeed, Secret } from '../evm/config';
import { isTronAddress } from './address-format';
import { fromEnvOrFile } from '../env-file';

/** USDT's TRC-20 contract on TRON mainnet (Tether's published address). */
export const MAINNET_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

export interface TronSettings {
  /** Base URL of the `/wallet/*` API (no trailing slash). */
  nodeUrl: string;
  /** Base URL of the `/walletsolidity/*` API (no trailing slash). */
  solidityUrl: string;
  /** TronGrid API key (`TRON-PRO-API-KEY` header), or null. */
  apiKey: Secret | null;
  /** BIP-39 mnemonic or master xprv of the deposit addresses (m/44'/195'/0'/0/i). */
  seed: Secret;
  /** Hex private key (64 digits, no 0x) of the hot wallet; null: cash-out off. */
  hotWalletKey: Secret | null;
  token: {
    /** Base58 (T...) address of the TRC-20 contract. */
    address: string;
    decimals: number;
    /** Smallest deposit, whole tokens. */
    minDeposit: string;
    /** Transfers below this (whole tokens) are ignored as dust, never credited. */
    dust: string;
    /** Cash-out minimum in USD. */
    payoutMinUsd: string;
  };
  /** USD per TRX (fee estimates, the sweep report). */
  trxUsdPrice: string;
  /** Highest fee_limit of one token transfer, TRX (decimal string; {@link trxToSun} gives sun). */
  maxFeeLimitTrx: string;
  /** Energy of one token transfer assumed by fee estimates (the real payout estimates its own). */
  payoutEnergy: number;
  /** Sweeps leave deposit balances below this (whole tokens). */
  sweepMinTokens: string;
  /**
   * How a sweep pays the energy of its token transfer (`TRON_SWEEP_ENERGY`, ADR 0064): 'burn' sends
   * the deposit address the TRX to burn; 'delegate' lends it the energy of the hot wallet's staked
   * TRX (Stake 2.0) for the sweep and takes it back after.
   */
  sweepEnergy: 'burn' | 'delegate';
  /** Seconds a signed transaction stays valid after its reference block. */
  txExpirationSeconds: number;
  /** Milliseconds one HTTP call to the node may take. */
  timeoutMs: number;
  /** Milliseconds between watcher passes. */
  pollMs: number;
  latePaymentHours: number;
  watchDays: number;
  /** First block to scan on a fresh database; default: the solidified head at the first scan. */
  startBlock: number | undefined;
}

/** The raw variables {@link loadTronSettings} reads (a subset of the validated environment). */
export interface TronEnv {
  TRON_NODE_URL: string;
  TRON_SOLIDITY_URL?: string | undefined;
  TRON_API_KEY?: string | undefined;
  TRON_SEED?: string | undefined;
  TRON_SEED_FILE?: string | undefined;
  TRON_HOT_WALLET_KEY?: string | undefined;
  TRON_HOT_WALLET_KEY_FILE?: string | undefined;
  EVM_SEED?: string | undefined;
  EVM_SEED_FILE?: string | undefined;
  TRON_USDT_CONTRACT: string;
  TRON_USDT_DECIMALS: number;
  TRON_MIN_DEPOSIT: string;
  TRON_DUST: string;
  TRON_PAYOUT_MIN_USD: string;
  TRON_TRX_USD_PRICE?: string | undefined;
  TRON_MAX_FEE_LIMIT_TRX: string;
  TRON_PAYOUT_ENERGY: number;
  TRON_SWEEP_MIN_USDT: string;
  TRON_SWEEP_ENERGY?: 'burn' | 'delegate' | undefined;
  TRON_TX_EXPIRATION_SECONDS: number;
  TRON_TIMEOUT_MS: number;
  TRON_POLL_MS: number;
  TRON_LATE_PAYMENT_HOURS: number;
  TRON_WATCH_DAYS: number;
  TRON_START_BLOCK?: number | undefined;
}

/** TRX amount (decimal string, at most 6 decimals) in sun. */
export function trxToSun(trx: string): bigint {
  const [whole, frac = ''] = trx.split('.');
  return BigInt(whole!) * 1_000_000n + BigInt((frac + '000000').slice(0, 6));
}

/**
 * Validates the tron variables and reads the files they name.
 * @returns the settings, or `problems` (one `NAME: message` line each) when anything is wrong
 */
export function loadTronSettings(env: TronEnv): { settings: TronSettings | null; problems: string[] } {
  const problems: string[] = [];
  let seedText = fromEnvOrFile(env, 'TRON_SEED', problems);
  if (!seedText && !problems.some((p) => p.startsWith('TRON_SEED'))) {
    // The same seed as the EVM rail may serve: coin type 195 gives other keys than 60.
    seedText = fromEnvOrFile(env, 'EVM_SEED', problems);
    if (!seedText && !problems.some((p) => p.startsWith('EVM_SEED')))
      problems.push(
        'TRON_SEED: required when PAYMENTS lists tron (a BIP-39 mnemonic or xprv, or a file path in TRON_SEED_FILE; default: EVM_SEED)',
      );
  }
  if (seedText && !isValidSeed(seedText)) problems.push('TRON_SEED: not a valid BIP-39 English mnemonic or master xprv');
  const hotText = fromEnvOrFile(env, 'TRON_HOT_WALLET_KEY', problems);
  if (hotText && !/^(0x)?[0-9a-fA-F]{64}$/.test(hotText))
    problems.push('TRON_HOT_WALLET_KEY: must be a 32-byte hex private key (64 hex digits, 0x optional)');
  if (!isTronAddress(env.TRON_USDT_CONTRACT)) problems.push('TRON_USDT_CONTRACT: must be a base58 TRON address (T...)');
  if (!env.TRON_TRX_USD_PRICE)
    problems.push('TRON_TRX_USD_PRICE: required when PAYMENTS lists tron (USD per TRX, for fee estimates)');
  const maxFeeLimitSun = trxToSun(env.TRON_MAX_FEE_LIMIT_TRX);
  if (maxFeeLimitSun > 15_000n * 1_000_000n) problems.push('TRON_MAX_FEE_LIMIT_TRX: at most 15000 (the network maximum)');
  if (maxFeeLimitSun < 1_000_000n) problems.push('TRON_MAX_FEE_LIMIT_TRX: at least 1');
  if (problems.length || !seedText) return { settings: null, problems };
  const trim = (u: string) => u.replace(/\/+$/, '');
  return {
    settings: {
      nodeUrl: trim(env.TRON_NODE_URL),
      solidityUrl: trim(env.TRON_SOLIDITY_URL ?? env.TRON_NODE_URL),
      apiKey: env.TRON_API_KEY ? new Secret(env.TRON_API_KEY) : null,
      seed: new Secret(seedText),
      hotWalletKey: hotText ? new Secret(hotText.replace(/^0x/, '').toLowerCase()) : null,
      token: {
        address: env.TRON_USDT_CONTRACT,
        decimals: env.TRON_USDT_DECIMALS,
        minDeposit: env.TRON_MIN_DEPOSIT,
        dust: env.TRON_DUST,
        payoutMinUsd: env.TRON_PAYOUT_MIN_USD,
      },
      trxUsdPrice: env.TRON_TRX_USD_PRICE!,
      maxFeeLimitTrx: env.TRON_MAX_FEE_LIMIT_TRX,
      payoutEnergy: env.TRON_PAYOUT_ENERGY,
      sweepMinTokens: env.TRON_SWEEP_MIN_USDT,
      sweepEnergy: env.TRON_SWEEP_ENERGY ?? 'burn',
      txExpirationSeconds: env.TRON_TX_EXPIRATION_SECONDS,
      timeoutMs: env.TRON_TIMEOUT_MS,
      pollMs: env.TRON_POLL_MS,
      latePaymentHours: env.TRON_LATE_PAYMENT_HOURS,
      watchDays: env.TRON_WATCH_DAYS,
      startBlock: env.TRON_START_BLOCK,
    },
    problems,
  };
}

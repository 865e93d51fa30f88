/**
 * Configuration (product §18), parsed once at boot with zod. Nothing else reads `process.env`.
 * A bad value makes {@link loadConfig} throw a {@link ConfigError} whose message names each bad
 * variable on its own line.
 */
import { EARNINGS_HOLD_DAYS_DEFAULT, STEP_UP_MINUTES_DEFAULT } from '@coffer/contract/constants';
import path from 'node:path';
import { z } from 'zod';
import { loadEvmSettings, type EvmSettings } from './providers/payments/evm/config';
import { loadNowPaymentsSettings, type NowPaymentsSettings } from './providers/payments/nowpayments/config';
import { loadTonSettings, TON_ENV, type TonSettings } from './providers/payments/ton/config';
import { loadTronSettings, MAINNET_USDT, type TronSettings } from './providers/payments/tron/config';

/** The payment rails `PAYMENTS` may name (docs/payments.md "Providers"); real rails combine, e.g. `evm,tron`. */
export const PAYMENT_RAILS = ['sandbox', 'evm', 'tron', 'ton', 'nowpayments'] as const;
export type PaymentRail = (typeof PAYMENT_RAILS)[number];

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Unset: PGlite in `$DATA_DIR/db`. `memory://` keeps PGlite in memory (tests). */
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|memory:\/\/)/, 'must start with postgres:// or postgresql:// (or memory://)')
    .optional(),
  /** The public origin for presigned links; default http://HOST:PORT. */
  PUBLIC_URL: z.url().optional(),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /**
   * One rail, or several real rails separated by commas (`evm,tron`): each currency is served by the
   * rail that lists it. Unset: `sandbox`, except with NODE_ENV=production, where it must be set (see {@link loadConfig}).
   */
  PAYMENTS: z
    .string()
    .transform((v) => v.split(',').map((r) => r.trim().toLowerCase()))
    .superRefine((rails, ctx) => {
      for (const r of rails)
        if (!(PAYMENT_RAILS as readonly string[]).includes(r)) ctx.addIssue({ code: 'custom', message: `unknown rail "${r}" (use ${PAYMENT_RAILS.join(', ')})` });
      if (new Set(rails).size !== rails.length) ctx.addIssue({ code: 'custom', message: 'names a rail twice' });
      if (rails.length > 1 && rails.includes('sandbox')) ctx.addIssue({ code: 'custom', message: 'sandbox cannot be combined with real rails' });
    })
    .transform((rails) => rails as PaymentRail[])
    .optional(),
  /** Explicit opt-in to run PAYMENTS=sandbox (anyone can mint points) with NODE_ENV=production. */
  ALLOW_SANDBOX_IN_PRODUCTION: bool.default(false),
  /** Sandbox payments: USD price of each non-stable coin, `SYMBOL=price` pairs (USDT is always 1). */
  SANDBOX_PRICES: z
    .string()
    .regex(/^[A-Za-z]+=\d{1,12}(\.\d{1,8})?(,[A-Za-z]+=\d{1,12}(\.\d{1,8})?)*$/, 'must look like BTC=60000,ETH=3000')
    .default('BTC=60000,ETH=3000'),
  /** Sandbox payments: payout (cash-out) fee in USD per network, `NETWORK=fee` pairs. */
  SANDBOX_PAYOUT_FEES: z
    .string()
    .regex(
      /^[A-Za-z]+=\d{1,6}(\.\d{1,2})?(,[A-Za-z]+=\d{1,6}(\.\d{1,2})?)*$/,
      'must look like TRX=1,ETH=5 (USD, at most 2 decimals)',
    )
    .default('TRX=1,ETH=5,BSC=0.5,MATIC=0.2,TON=0.3'),
  /** PAYMENTS=evm (docs/payments.md): networks JSON, or a path to it; the HD seed and hot wallet key, or paths to them. */
  EVM_NETWORKS: z.string().optional(),
  EVM_NETWORKS_FILE: z.string().optional(),
  EVM_SEED: z.string().optional(),
  EVM_SEED_FILE: z.string().optional(),
  EVM_HOT_WALLET_KEY: z.string().optional(),
  EVM_HOT_WALLET_KEY_FILE: z.string().optional(),
  /** Milliseconds between EVM watcher passes. */
  EVM_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  /** Hours after a bill's expiry during which a payment to its address is still credited. */
  EVM_LATE_PAYMENT_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 365)
    .default(168),
  /** Days after a bill's creation during which its address is watched. */
  EVM_WATCH_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** PAYMENTS lists tron (docs/payments.md, "tron — USDT on TRON"): the node's /wallet and /walletsolidity APIs, API key, keys. */
  TRON_NODE_URL: z.url().default('https://api.trongrid.io'),
  TRON_SOLIDITY_URL: z.url().optional(),
  TRON_API_KEY: z.string().optional(),
  TRON_SEED: z.string().optional(),
  TRON_SEED_FILE: z.string().optional(),
  TRON_HOT_WALLET_KEY: z.string().optional(),
  TRON_HOT_WALLET_KEY_FILE: z.string().optional(),
  /** The USDT TRC-20 contract (default: mainnet's) and its decimals. */
  TRON_USDT_CONTRACT: z.string().default(MAINNET_USDT),
  TRON_USDT_DECIMALS: z.coerce.number().int().min(0).max(36).default(6),
  /** Smallest deposit and dust threshold (whole USDT), cash-out minimum (USD). */
  TRON_MIN_DEPOSIT: z.string().regex(/^\d{1,12}(\.\d{1,6})?$/, 'must be a USDT amount such as 1').default('1'),
  TRON_DUST: z.string().regex(/^\d{1,12}(\.\d{1,6})?$/, 'must be a USDT amount such as 0.01').default('0.01'),
  TRON_PAYOUT_MIN_USD: z.string().regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be a USD amount such as 10').default('10'),
  /** USD per TRX, for fee estimates (required with tron). */
  TRON_TRX_USD_PRICE: z.string().regex(/^\d{1,9}(\.\d{1,8})?$/, 'must be a USD price such as 0.25').optional(),
  /** Highest fee_limit of one token transfer, TRX (the network allows 15000; a payout sets it from its energy estimate). */
  TRON_MAX_FEE_LIMIT_TRX: z.string().regex(/^\d{1,5}(\.\d{1,6})?$/, 'must be a TRX amount such as 50').default('50'),
  /** Energy of one USDT transfer assumed by cash-out fee estimates (65000: a transfer to an address that holds none). */
  TRON_PAYOUT_ENERGY: z.coerce.number().int().min(1).max(10_000_000).default(65_000),
  /** Sweeps move a deposit address's USDT only from this balance up (whole USDT). */
  TRON_SWEEP_MIN_USDT: z.string().regex(/^\d{1,12}(\.\d{1,6})?$/, 'must be a USDT amount such as 5').default('5'),
  /** How a sweep pays its energy: `burn` (TRX sent to the deposit address, burned) or `delegate` (the hot wallet's staked TRX lends the energy, taken back after; ADR 0064). */
  TRON_SWEEP_ENERGY: z.enum(['burn', 'delegate']).default('burn'),
  /** Seconds a signed transaction stays valid after its (solidified) reference block. */
  TRON_TX_EXPIRATION_SECONDS: z.coerce.number().int().min(30).max(86_000).default(300),
  /** Milliseconds one call to the node may take. */
  TRON_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  /** Milliseconds between TRON watcher passes (a block every 3 s). */
  TRON_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(3_000),
  TRON_LATE_PAYMENT_HOURS: z.coerce.number().int().min(0).max(24 * 365).default(168),
  TRON_WATCH_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** First block to scan on a fresh database; default: the solidified head when the first bill is made. */
  TRON_START_BLOCK: z.coerce.number().int().min(0).optional(),
  /** PAYMENTS=nowpayments (docs/payments.md): API key, IPN secret, payout login and 2FA secret, API base URL. */
  NOWPAYMENTS_API_KEY: z.string().optional(),
  NOWPAYMENTS_IPN_SECRET: z.string().optional(),
  NOWPAYMENTS_EMAIL: z.string().optional(),
  NOWPAYMENTS_PASSWORD: z.string().optional(),
  NOWPAYMENTS_2FA_SECRET: z.string().optional(),
  NOWPAYMENTS_BASE_URL: z.url().default('https://api.nowpayments.io'),
  /** Where the gateway posts IPNs; default PUBLIC_URL + /api/payments/nowpayments/ipn. */
  NOWPAYMENTS_IPN_URL: z.url().optional(),
  /** Currency codes offered through the gateway. */
  NOWPAYMENTS_CURRENCIES: z
    .string()
    .regex(/^[a-z0-9]{2,20}(,[a-z0-9]{2,20})*$/, 'must look like usdttrc20,usdterc20,btc')
    .default('usdttrc20,usdterc20,usdtbsc,usdtmatic,btc,eth'),
  /** Cash-out minimum in USD through the gateway. */
  NOWPAYMENTS_PAYOUT_MIN_USD: z
    .string()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be a USD amount such as 10')
    .default('10'),
  /** Milliseconds between polls of open gateway payments (IPNs can be lost). */
  NOWPAYMENTS_POLL_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  /** PAYMENTS=ton (docs/payments.md "ton — USDT on TON"): the TON_* variables of providers/payments/ton/config.ts. */
  ...TON_ENV,
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Coffer <no-reply@coffer.local>'),
  /** Milliseconds one attempt of a queued mail waits for the mail server before it is retried (docs/decisions/0032-mail-queue.md). */
  MAIL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  POINTS_PER_USD: z
    .string()
    .regex(/^\d+(\.\d{1,8})?$/, 'must be a positive decimal number')
    .default('100'),
  PLATFORM_FEE_BPS: z.coerce.number().int().min(0).max(10_000).default(0),
  /** Days a sale's proceeds stay pending before they clear (product.md "Clearance"); 0 turns holds off. */
  EARNINGS_HOLD_DAYS: z.coerce.number().int().min(0).max(365).default(EARNINGS_HOLD_DAYS_DEFAULT),
  /** Minutes a step-up (sign-in, password or code) lets a session spend (product.md "Step-up"). */
  STEP_UP_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(STEP_UP_MINUTES_DEFAULT),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(168),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Bearer token that lets non-loopback clients read `/metrics` (docs/operations.md); unset: loopback only. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Key sealing two-factor secrets and keying recovery-code hashes (>= 32 chars); default generated into DATA_DIR/two-factor-key. */
  TWO_FACTOR_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Secret for HMAC-signed local storage URLs; default derived and persisted in DATA_DIR. */
  STORAGE_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Max bytes of one uploaded resource (default 2 GiB). */
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(2 * 1024 * 1024 * 1024),
  /**
   * Which proxies to trust for the client address (X-Forwarded-For) used by per-IP limits
   * (docs/abuse.md). Unset: none (the socket address). A hop count (`1`), or a comma-separated list
   * of addresses and CIDRs (`10.0.0.0/8,127.0.0.1`).
   */
  TRUST_PROXY: z
    .string()
    .regex(
      /^(\d{1,2}|[0-9A-Fa-f:.]+(\/\d{1,3})?(\s*,\s*[0-9A-Fa-f:.]+(\/\d{1,3})?)*)$/,
      'must be a hop count such as 1, or addresses/CIDRs such as 10.0.0.0/8,127.0.0.1',
    )
    .optional(),
  /** Shared rate-limit counters, password budgets and session revocations across instances (redis:// or rediss://). Unset: this process's memory. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  /** Prefix of every Redis key and channel Coffer uses (several deployments or test runs on one Redis). */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1-64 letters, digits, colons, underscores or dashes')
    .default('coffer:'),
  /** Open (Processing) deposit bills one user may hold at once (docs/abuse.md). */
  MAX_OPEN_DEPOSIT_BILLS: z.coerce.number().int().min(1).max(10_000).default(10),
  /** Bytes one user may store across uploads not failed (default 10 GiB, docs/abuse.md). */
  STORAGE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(10 * 1024 * 1024 * 1024),
  /** Requests one client (signed-in user, else address) may make per API_RATE_LIMIT_WINDOW_SECONDS (docs/api.md "Rate limits"). */
  API_RATE_LIMIT_MAX: z.coerce.number().int().min(1).max(100_000_000).default(600),
  /** Window of the per-client API budget, in seconds. */
  API_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Accounts one client address may register per hour (docs/abuse.md). */
  REGISTRATIONS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Payouts one worker pass sends at once (capped by the rail: evm 1, nowpayments 4, ton 4; docs/payments.md). */
  PAYOUT_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /**
   * The addresses that hold the reserves (proof of liabilities, product §22): comma-separated
   * `NETWORK:currency:address`, e.g. `ETH:usdterc20:0xabc...,BSC:usdtbsc:0xdef...`; read by
   * `npm run reserves:publish` through the payment rail.
   */
  RESERVE_ADDRESSES: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const out: { network: string; currency: string; address: string }[] = [];
      for (const item of text.split(',').map((s) => s.trim()).filter(Boolean)) {
        const [network, currency, address, ...rest] = item.split(':').map((s) => s.trim());
        if (!network || !currency || !address || rest.length) {
          ctx.addIssue({ code: 'custom', message: `"${item}" must be NETWORK:currency:address` });
          return z.NEVER;
        }
        out.push({ network: network.toUpperCase(), currency: currency.toLowerCase(), address });
      }
      return out;
    }),
  /** Milliseconds a webhook POST may take before it counts as failed (docs/decisions/0025-seller-events-and-webhooks.md). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * Webhook URLs may be http://localhost and may reach private or loopback addresses. Default: on
   * outside production, off with NODE_ENV=production (https to public addresses only).
   */
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false', '1', '0']).optional(),
  /** Run background workers (payouts, expiry) in this process. */
  WORKERS: bool.default(true),
  /** Set by `npm run dev`: static web hosting is off, Vite serves the app. */
  SERVE_WEB: bool.default(true),
});

/** Secret variables: read once into {@link Config.evm} / {@link Config.nowpayments} as `Secret`s, never kept as text. */
const SECRET_VARS = [
  'EVM_SEED',
  'EVM_HOT_WALLET_KEY',
  'TRON_SEED',
  'TRON_HOT_WALLET_KEY',
  'TRON_API_KEY',
  'NOWPAYMENTS_API_KEY',
  'NOWPAYMENTS_IPN_SECRET',
  'NOWPAYMENTS_PASSWORD',
  'NOWPAYMENTS_2FA_SECRET',
  'TON_API_KEY',
  'TON_HOT_WALLET_MNEMONIC',
] as const;

export type Config = Omit<z.infer<typeof ConfigSchema>, (typeof SECRET_VARS)[number] | 'PAYMENTS'> & {
  /** The payments rails as `PAYMENTS` names them, comma-separated (`evm`, `evm,tron`); `sandbox` when unset outside production. */
  PAYMENTS: string;
  /** The rails of `PAYMENTS`, in its order. */
  rails: PaymentRail[];
  dataDir: string;
  publicUrl: string;
  /** Set when PAYMENTS lists evm. */
  evm?: EvmSettings;
  /** Set when PAYMENTS lists tron. */
  tron?: TronSettings;
  /** Set when PAYMENTS=nowpayments. */
  nowpayments?: NowPaymentsSettings;
  /** Set when PAYMENTS=ton. */
  ton?: TonSettings;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses configuration from an environment-like record.
 * @throws ConfigError listing each bad variable as `NAME: problem`
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const parsedData = parsed.data;
  // Points minted by the sandbox must never reach a production server by default (docs/abuse.md).
  if (parsedData.NODE_ENV === 'production' && !parsedData.PAYMENTS) {
    throw new ConfigError(
      'Invalid configuration:\nPAYMENTS: required when NODE_ENV=production (evm or nowpayments; sandbox also needs ALLOW_SANDBOX_IN_PRODUCTION=true)',
    );
  }
  if (parsedData.NODE_ENV === 'production' && parsedData.PAYMENTS?.[0] === 'sandbox' && !parsedData.ALLOW_SANDBOX_IN_PRODUCTION) {
    throw new ConfigError(
      'Invalid configuration:\nPAYMENTS: sandbox lets anyone mint points; with NODE_ENV=production set ALLOW_SANDBOX_IN_PRODUCTION=true to run it anyway',
    );
  }
  const rails: PaymentRail[] = parsedData.PAYMENTS ?? ['sandbox'];
  const c = { ...parsedData, PAYMENTS: rails.join(','), rails };
  if (c.STORAGE === 's3') {
    const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => !c[k]);
    if (missing.length)
      throw new ConfigError(`Invalid configuration:\n${missing.map((k) => `${k}: required when STORAGE=s3`).join('\n')}`);
  }
  const dataDir = path.resolve(c.DATA_DIR);
  const publicUrl = (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${c.PORT}`).replace(/\/$/, '');
  const payments: Pick<Config, 'evm' | 'tron' | 'nowpayments' | 'ton'> = {};
  const problems: string[] = [];
  if (rails.includes('evm')) {
    const loaded = loadEvmSettings(c);
    problems.push(...loaded.problems);
    if (loaded.settings) payments.evm = loaded.settings;
  }
  if (rails.includes('tron')) {
    const loaded = loadTronSettings(c);
    problems.push(...loaded.problems);
    if (loaded.settings) payments.tron = loaded.settings;
  }
  if (rails.includes('ton')) {
    const loaded = loadTonSettings(c);
    problems.push(...loaded.problems);
    if (loaded.settings) payments.ton = loaded.settings;
  }
  if (rails.includes('nowpayments')) {
    const loaded = loadNowPaymentsSettings(c, publicUrl);
    problems.push(...loaded.problems);
    if (loaded.settings) payments.nowpayments = loaded.settings;
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const rest: Record<string, unknown> = { ...c };
  for (const k of SECRET_VARS) delete rest[k];
  return { ...(rest as Omit<typeof c, (typeof SECRET_VARS)[number]>), dataDir, publicUrl, ...payments };
}

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
  /** Unset: `sandbox`, except with NODE_ENV=production, where it must be set (see {@link loadConfig}). */
  PAYMENTS: z.enum(['sandbox', 'evm', 'nowpayments', 'ton']).optional(),
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
  'NOWPAYMENTS_API_KEY',
  'NOWPAYMENTS_IPN_SECRET',
  'NOWPAYMENTS_PASSWORD',
  'NOWPAYMENTS_2FA_SECRET',
  'TON_API_KEY',
  'TON_HOT_WALLET_MNEMONIC',
] as const;

export type Config = Omit<z.infer<typeof ConfigSchema>, (typeof SECRET_VARS)[number] | 'PAYMENTS'> & {
  /** The payments rail; `sandbox` when unset outside production. */
  PAYMENTS: 'sandbox' | 'evm' | 'nowpayments' | 'ton';
  dataDir: string;
  publicUrl: string;
  /** Set when PAYMENTS=evm. */
  evm?: EvmSettings;
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
  if (parsedData.NODE_ENV === 'production' && parsedData.PAYMENTS === 'sandbox' && !parsedData.ALLOW_SANDBOX_IN_PRODUCTION) {
    throw new ConfigError(
      'Invalid configuration:\nPAYMENTS: sandbox lets anyone mint points; with NODE_ENV=production set ALLOW_SANDBOX_IN_PRODUCTION=true to run it anyway',
    );
  }
  const c = { ...parsedData, PAYMENTS: parsedData.PAYMENTS ?? ('sandbox' as const) };
  if (c.STORAGE === 's3') {
    const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => !c[k]);
    if (missing.length)
      throw new ConfigError(`Invalid configuration:\n${missing.map((k) => `${k}: required when STORAGE=s3`).join('\n')}`);
  }
  const dataDir = path.resolve(c.DATA_DIR);
  const publicUrl = (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${c.PORT}`).replace(/\/$/, '');
  const payments: Pick<Config, 'evm' | 'nowpayments' | 'ton'> = {};
  if (c.PAYMENTS === 'evm') {
    const { settings, problems } = loadEvmSettings(c);
    if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
    payments.evm = settings!;
  }
  if (c.PAYMENTS === 'nowpayments') {
    const { settings, problems } = loadNowPaymentsSettings(c, publicUrl);
    if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
    payments.nowpayments = settings!;
  }
  if (c.PAYMENTS === 'ton') {
    const { settings, problems } = loadTonSettings(c);
    if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
    payments.ton = settings!;
  }
  const rest: Record<string, unknown> = { ...c };
  for (const k of SECRET_VARS) delete rest[k];
  return { ...(rest as Omit<typeof c, (typeof SECRET_VARS)[number]>), dataDir, publicUrl, ...payments };
}

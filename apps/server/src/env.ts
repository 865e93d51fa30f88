/**
 * Configuration (DESIGN 9), parsed once at boot with zod. Nothing else reads `process.env`.
 * A bad value makes {@link loadConfig} throw a {@link ConfigError} whose message names each bad
 * variable on its own line.
 */
import path from 'node:path';
import { z } from 'zod';

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
  PAYMENTS: z.enum(['sandbox', 'evm', 'nowpayments']).default('sandbox'),
  /** Sandbox payments: USD price of each non-stable coin, `SYMBOL=price` pairs (USDT is always 1). */
  SANDBOX_PRICES: z
    .string()
    .regex(/^[A-Za-z]+=\d{1,12}(\.\d{1,8})?(,[A-Za-z]+=\d{1,12}(\.\d{1,8})?)*$/, 'must look like BTC=60000,ETH=3000')
    .default('BTC=60000,ETH=3000'),
  /** Sandbox payments: payout (cash-out) fee in USD per network, `NETWORK=fee` pairs. */
  SANDBOX_PAYOUT_FEES: z
    .string()
    .regex(/^[A-Za-z]+=\d{1,6}(\.\d{1,2})?(,[A-Za-z]+=\d{1,6}(\.\d{1,2})?)*$/, 'must look like TRX=1,ETH=5 (USD, at most 2 decimals)')
    .default('TRX=1,ETH=5,BSC=0.5,MATIC=0.2,TON=0.3'),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().default('Coffer <no-reply@coffer.local>'),
  POINTS_PER_USD: z.string().regex(/^\d+(\.\d{1,8})?$/, 'must be a positive decimal number').default('100'),
  PLATFORM_FEE_BPS: z.coerce.number().int().min(0).max(10_000).default(0),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 365).default(168),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Secret for HMAC-signed local storage URLs; default derived and persisted in DATA_DIR. */
  STORAGE_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Max bytes of one uploaded resource (default 2 GiB). */
  MAX_UPLOAD_BYTES: z.coerce.number().int().min(1).default(2 * 1024 * 1024 * 1024),
  /** Run background workers (payouts, expiry) in this process. */
  WORKERS: bool.default(true),
  /** Set by `npm run dev`: static web hosting is off, Vite serves the app. */
  SERVE_WEB: bool.default(true),
});

export type Config = z.infer<typeof ConfigSchema> & { dataDir: string; publicUrl: string };

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
  const c = parsed.data;
  if (c.STORAGE === 's3') {
    const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => !c[k]);
    if (missing.length) throw new ConfigError(`Invalid configuration:\n${missing.map((k) => `${k}: required when STORAGE=s3`).join('\n')}`);
  }
  const dataDir = path.resolve(c.DATA_DIR);
  const publicUrl = (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${c.PORT}`).replace(/\/$/, '');
  return { ...c, dataDir, publicUrl };
}

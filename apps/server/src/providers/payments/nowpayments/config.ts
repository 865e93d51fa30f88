/**
 * Configuration of the `nowpayments` gateway adapter (docs/payments.md, "Running Coffer on the
 * NOWPayments gateway"). Required: `NOWPAYMENTS_API_KEY` and `NOWPAYMENTS_IPN_SECRET`. Cash-out
 * also needs the account login (`NOWPAYMENTS_EMAIL`, `NOWPAYMENTS_PASSWORD`: payouts take a JWT
 * from `/v1/auth`); with `NOWPAYMENTS_2FA_SECRET` (the account's TOTP secret) payouts are verified
 * automatically, otherwise someone verifies each one in the gateway's dashboard.
 */
import { Secret } from '../evm/config';

export interface NowPaymentsSettings {
  apiKey: Secret;
  ipnSecret: Secret;
  /** API origin without `/v1`, e.g. https://api.nowpayments.io (tests point it at a local fake). */
  baseUrl: string;
  /** Where the gateway posts IPNs (payments and payouts). */
  ipnUrl: string;
  /** Payout login; null when cash-out is off. */
  login: { email: string; password: Secret } | null;
  /** Base32 TOTP secret for payout verification codes, or null. */
  totpSecret: Secret | null;
  /** Currency codes offered (lower case, NOWPayments codes). */
  currencies: string[];
  /** Cash-out minimum in USD. */
  payoutMinUsd: string;
  /** Milliseconds between polls of open gateway payments. */
  pollMs: number;
}

export interface NowPaymentsEnv {
  NOWPAYMENTS_API_KEY?: string | undefined;
  NOWPAYMENTS_IPN_SECRET?: string | undefined;
  NOWPAYMENTS_EMAIL?: string | undefined;
  NOWPAYMENTS_PASSWORD?: string | undefined;
  NOWPAYMENTS_2FA_SECRET?: string | undefined;
  NOWPAYMENTS_BASE_URL: string;
  NOWPAYMENTS_IPN_URL?: string | undefined;
  NOWPAYMENTS_CURRENCIES: string;
  NOWPAYMENTS_PAYOUT_MIN_USD: string;
  NOWPAYMENTS_POLL_MS: number;
}

/**
 * Validates the gateway variables.
 * @returns the settings, or `problems` (one `NAME: message` line each)
 */
export function loadNowPaymentsSettings(env: NowPaymentsEnv, publicUrl: string): { settings: NowPaymentsSettings | null; problems: string[] } {
  const problems: string[] = [];
  if (!env.NOWPAYMENTS_API_KEY) problems.push('NOWPAYMENTS_API_KEY: required when PAYMENTS=nowpayments');
  if (!env.NOWPAYMENTS_IPN_SECRET) problems.push('NOWPAYMENTS_IPN_SECRET: required when PAYMENTS=nowpayments (IPN signatures are always verified)');
  if (!!env.NOWPAYMENTS_EMAIL !== !!env.NOWPAYMENTS_PASSWORD) problems.push('NOWPAYMENTS_EMAIL: set both NOWPAYMENTS_EMAIL and NOWPAYMENTS_PASSWORD, or neither');
  if (env.NOWPAYMENTS_2FA_SECRET && !/^[A-Z2-7]+=*$/i.test(env.NOWPAYMENTS_2FA_SECRET.replace(/\s+/g, ''))) {
    problems.push('NOWPAYMENTS_2FA_SECRET: must be the base32 secret of the account 2FA');
  }
  if (problems.length) return { settings: null, problems };
  return {
    settings: {
      apiKey: new Secret(env.NOWPAYMENTS_API_KEY!),
      ipnSecret: new Secret(env.NOWPAYMENTS_IPN_SECRET!),
      baseUrl: env.NOWPAYMENTS_BASE_URL.replace(/\/+$/, ''),
      ipnUrl: env.NOWPAYMENTS_IPN_URL ?? `${publicUrl}/api/payments/nowpayments/ipn`,
      login: env.NOWPAYMENTS_EMAIL && env.NOWPAYMENTS_PASSWORD ? { email: env.NOWPAYMENTS_EMAIL, password: new Secret(env.NOWPAYMENTS_PASSWORD) } : null,
      totpSecret: env.NOWPAYMENTS_2FA_SECRET ? new Secret(env.NOWPAYMENTS_2FA_SECRET.replace(/\s+/g, '').toUpperCase()) : null,
      currencies: env.NOWPAYMENTS_CURRENCIES.split(','),
      payoutMinUsd: env.NOWPAYMENTS_PAYOUT_MIN_USD,
      pollMs: env.NOWPAYMENTS_POLL_MS,
    },
    problems,
  };
}

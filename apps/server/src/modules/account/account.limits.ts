/**
 * Rate limits of the account calls (product §12), documented in docs/api.md. Each call has a limit per
 * client IP (counted before the body is read) and, except `login` (login-guard.ts), one per account
 * (the lower-cased username or email of the body, counted once the body is valid). Past either, the call answers HTTP 429 with
 * reason RATE_LIMITED and a `Retry-After` header, and changes nothing.
 */
const MINUTE = 60_000;

export interface Limit {
  max: number;
  /** Fixed window length in milliseconds. */
  timeWindowMs: number;
}

export const ACCOUNT_RATE_LIMITS = {
  /**
   * Password guessing: 30 tries a minute from one IP. Per account, only wrong passwords count, per
   * (account, address) and per account as a whole (login-guard.ts): a per-account limit on every try
   * would let anyone lock an owner out.
   */
  login: { perIp: { max: 30, timeWindowMs: MINUTE } },
  /** Mail bombing: 3 reset mails per email and 10 per IP in 10 minutes. */
  sendMail: { perIp: { max: 10, timeWindowMs: 10 * MINUTE }, perAccount: { max: 3, timeWindowMs: 10 * MINUTE } },
  /** Code guessing (on top of the code's own 5 tries): 10 per email and 30 per IP in 10 minutes. */
  passwordForget: { perIp: { max: 30, timeWindowMs: 10 * MINUTE }, perAccount: { max: 10, timeWindowMs: 10 * MINUTE } },
} as const satisfies Record<string, { perIp: Limit; perAccount?: Limit }>;

/** The `rateLimit` option of `defineEndpoint` for a per-IP limit. */
export const perIp = (limit: Limit) => ({ max: limit.max, timeWindow: limit.timeWindowMs });

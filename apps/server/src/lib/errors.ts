/**
 * The one error class of the server (product §12, STYLE habit 5). Services throw `AppError`; the global
 * handler turns it into the envelope `{code, msg, reason}` with the HTTP status of `ERROR_TABLE`.
 */
import { ERROR_TABLE, type ErrorReason } from '@coffer/contract';

export class AppError extends Error {
  override name = 'AppError';
  readonly reason: ErrorReason;
  readonly code: number;
  readonly status: number;

  /** Sent as the envelope's `data` (e.g. the challenge of TWO_FACTOR_REQUIRED); absent for most errors. */
  readonly data: unknown;

  /** Seconds a client should wait before trying again, sent as `Retry-After` (RATE_LIMITED); absent for most errors. */
  readonly retryAfterSeconds: number | undefined;

  constructor(reason: ErrorReason, msg: string, options?: { cause?: unknown; data?: unknown; retryAfterSeconds?: number }) {
    super(msg, options?.cause === undefined ? undefined : { cause: options.cause });
    this.data = options?.data;
    this.retryAfterSeconds = options?.retryAfterSeconds;
    this.reason = reason;
    this.code = ERROR_TABLE[reason].code;
    this.status = ERROR_TABLE[reason].status;
  }
}

/** Shorthands for the common kinds. Each returns (does not throw) an AppError. */
export const errors = {
  validation: (msg: string) => new AppError('VALIDATION_FAILED', msg),
  unauthorized: (msg = 'Your session has expired. Please log in again.') => new AppError('UNAUTHORIZED', msg),
  invalidCredentials: (msg = 'Incorrect password') => new AppError('INVALID_CREDENTIALS', msg),
  forbidden: (msg = 'You do not have permission to perform this action.') => new AppError('FORBIDDEN', msg),
  notFound: (msg = 'Record does not exist') => new AppError('NOT_FOUND', msg),
  conflict: (msg: string) => new AppError('CONFLICT', msg),
  insufficientBalance: (msg = 'Insufficient balance') => new AppError('INSUFFICIENT_BALANCE', msg),
  rateLimited: (msg = 'Too many attempts. Please try again later.', retryAfterSeconds?: number) =>
    new AppError('RATE_LIMITED', msg, retryAfterSeconds === undefined ? undefined : { retryAfterSeconds }),
  tooLarge: (msg: string) => new AppError('PAYLOAD_TOO_LARGE', msg),
  twoFactorRequired: (msg: string, data?: unknown) => new AppError('TWO_FACTOR_REQUIRED', msg, { data }),
  /** Spending needs a fresh proof (product.md "Step-up"); `data.method` is 'password' or 'code'. */
  stepUpRequired: (msg: string, method: 'password' | 'code') => new AppError('STEP_UP_REQUIRED', msg, { data: { method } }),
  priceChanged: (msg = 'The price has changed. Please review the new amount and confirm again.', data?: unknown) =>
    new AppError('PRICE_CHANGED', msg, { data }),
  /** The spec's 'Order Expired' wording (product §4) for a lapsed pending order. */
  orderExpired: () => new AppError('ORDER_EXPIRED', 'Order Expired'),
};

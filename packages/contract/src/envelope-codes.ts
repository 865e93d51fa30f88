/**
 * The envelope's success code, error reasons and their codes/statuses (product §7, §9, §12), zod-free
 * so that `@coffer/contract/constants` can export them; `./envelope` re-exports them with its schema.
 */

/** product §9: "API success code". */
export const SUCCESS_CODE = 10000;

/** Stable machine reasons carried by failed envelopes (product §12). */
export const ErrorReason = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  UNAUTHORIZED: 'UNAUTHORIZED',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  INSUFFICIENT_BALANCE: 'INSUFFICIENT_BALANCE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL: 'INTERNAL',
  /** The password was right but two-factor sign-in is on: send a code (product §26). */
  TWO_FACTOR_REQUIRED: 'TWO_FACTOR_REQUIRED',
  /** product §27: the account is suspended by Coffer (sign-in, cash-out). */
  ACCOUNT_SUSPENDED: 'ACCOUNT_SUSPENDED',
  /**
   * Spending needs a fresh proof of the account holder (product.md "Step-up"): `data.method` says
   * which, 'password' or 'code' (two-factor on). Nothing changed.
   */
  STEP_UP_REQUIRED: 'STEP_UP_REQUIRED',
  /** The order's amount is not the one the buyer confirmed, or its quote is stale: buy again to re-quote. */
  PRICE_CHANGED: 'PRICE_CHANGED',
  /** A pending order's quote lapsed (ORDER_QUOTE_TTL_SECONDS): msg 'Order Expired'; buy again to re-quote. */
  ORDER_EXPIRED: 'ORDER_EXPIRED',
  /**
   * An `Idempotency-Key` already used with another body or call (draft-ietf-httpapi-idempotency-key-header
   * §2.7): 422. Nothing was done; send a new key for a new request.
   */
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  /** The first request with this `Idempotency-Key` is still being processed: 409. Retry after it answers. */
  IDEMPOTENCY_KEY_IN_USE: 'IDEMPOTENCY_KEY_IN_USE',
  /**
   * A personal access token without the scope the call needs, or on a call that takes a signed-in
   * session only (ADR 0059): 403, `data.scope` names the scope needed (null: a session only).
   */
  INSUFFICIENT_SCOPE: 'INSUFFICIENT_SCOPE',
} as const;
export type ErrorReason = (typeof ErrorReason)[keyof typeof ErrorReason];

/**
 * One row per reason: the envelope `code` and the HTTP status it answers with.
 * Codes are distinct per kind so that clients and logs can tell failures apart.
 */
export const ERROR_TABLE: Record<ErrorReason, { code: number; status: number }> = {
  VALIDATION_FAILED: { code: 10001, status: 400 },
  UNAUTHORIZED: { code: 10002, status: 401 },
  INVALID_CREDENTIALS: { code: 10003, status: 400 },
  FORBIDDEN: { code: 10004, status: 403 },
  NOT_FOUND: { code: 10005, status: 404 },
  CONFLICT: { code: 10006, status: 409 },
  INSUFFICIENT_BALANCE: { code: 10007, status: 409 },
  PAYLOAD_TOO_LARGE: { code: 10008, status: 413 },
  RATE_LIMITED: { code: 10009, status: 429 },
  INTERNAL: { code: 10010, status: 500 },
  TWO_FACTOR_REQUIRED: { code: 10011, status: 403 },
  ACCOUNT_SUSPENDED: { code: 10012, status: 403 },
  STEP_UP_REQUIRED: { code: 10013, status: 403 },
  PRICE_CHANGED: { code: 10014, status: 409 },
  ORDER_EXPIRED: { code: 10015, status: 409 },
  IDEMPOTENCY_KEY_REUSED: { code: 10016, status: 422 },
  IDEMPOTENCY_KEY_IN_USE: { code: 10017, status: 409 },
  INSUFFICIENT_SCOPE: { code: 10018, status: 403 },
};

/** A successful envelope around `data`. */
export interface SuccessEnvelope<T> {
  code: typeof SUCCESS_CODE;
  msg: string;
  data: T;
}

/** A failed envelope. */
export interface FailureEnvelope {
  code: number;
  msg: string;
  reason: ErrorReason;
  data?: unknown;
}

export type Envelope<T> = SuccessEnvelope<T> | FailureEnvelope;

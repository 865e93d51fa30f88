/**
 * The API client of product §7/§8: every call is POST with a JSON body and the access token in the
 * Authorization header; success iff the envelope's `code` is 10000 (then `data` is returned).
 *
 * Failures throw {@link ApiError} with the envelope's code/msg/reason and the HTTP status, and a
 * `message` chosen by product §8's rules. Session expiry (product §4: a body with reason UNAUTHORIZED on
 * a request that carried a token) is handled once per request: the message is shown at most once
 * per 5 s, then the handler installed with {@link setSessionExpiredHandler} clears the session.
 */
// Types only from the main entry (erased from the bundle): zod stays out of the first screen (ADR 0016, 0018).
import type { EndpointBody, EndpointData } from '@coffer/contract';
import {
  endpointPath,
  ErrorReason,
  SESSION_EXPIRED_SUPPRESS_MS,
  SUCCESS_CODE,
  type EndpointKey,
} from '@coffer/contract/constants';
import toast from 'react-hot-toast';
import { failureMessage, type MessagePreference } from './error-message';
import { getAccessToken } from './storage';

/** product §8, session and generic. */
export const ErrorMessages = {
  sessionExpired: 'Your session has expired. Please log in again.',
  recordMissing: 'User record does not exist. Please log in again.',
  business: 'A business logic error occurred. Please try again later.',
  forbidden: 'You do not have permission to perform this action.',
  notFound: 'The requested resource was not found.',
  server: 'Server error. Please try again later.',
  unexpected: 'An unexpected error occurred.',
} as const;

/** A failed call: the envelope's `code`, `msg` and `reason` plus the HTTP `status` (0 when no answer arrived). */
export class ApiError extends Error {
  readonly code: number;
  readonly msg: string;
  readonly reason: string | undefined;
  readonly status: number;
  readonly data: unknown;
  /** True when this failure ended the session (the expiry message has been handled already). */
  readonly sessionExpired: boolean;

  constructor(init: {
    message: string;
    code: number;
    msg: string;
    reason?: string;
    status: number;
    data?: unknown;
    sessionExpired?: boolean;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    this.msg = init.msg;
    this.reason = init.reason;
    this.status = init.status;
    this.data = init.data;
    this.sessionExpired = init.sessionExpired ?? false;
  }
}

/**
 * The message product §8 gives for a failed answer.
 * 403, 404 and 5xx always read as the permission, not-found and server texts (product §8: "404: 'The
 * requested resource was not found.'", whatever msg the server sent; the msg stays on
 * `ApiError.msg`, and a screen may keep its own heading above the text); any other failure shows
 * the server msg, else the business-error text.
 */
export function messageForFailure(status: number, msg: string | undefined, isEnvelope: boolean): string {
  if (status === 403) return ErrorMessages.forbidden;
  if (status >= 500) return ErrorMessages.server;
  if (status === 404) return ErrorMessages.notFound;
  if (msg) return msg;
  if (isEnvelope) return ErrorMessages.business;
  return ErrorMessages.unexpected;
}

type SessionExpiredHandler = () => void;
let sessionExpiredHandler: SessionExpiredHandler | null = null;
let lastExpiryMessageAt = Number.NEGATIVE_INFINITY;

/** Installs what happens on session expiry (the app clears auth and cached data, then goes to /). */
export function setSessionExpiredHandler(handler: SessionExpiredHandler | null): void {
  sessionExpiredHandler = handler;
}

/** Forgets when the expiry message was last shown (tests). */
export function resetSessionExpiryThrottle(): void {
  lastExpiryMessageAt = Number.NEGATIVE_INFINITY;
}

/**
 * Ends the session: shows the expiry message unless it was shown less than 5 s ago (product §9), then
 * runs the installed handler. Also used by the current-user query for 'Record does not exist'.
 */
export function expireSession(message: string = ErrorMessages.sessionExpired): void {
  const now = Date.now();
  if (now - lastExpiryMessageAt >= SESSION_EXPIRED_SUPPRESS_MS) {
    lastExpiryMessageAt = now;
    toast.error(message, { id: 'session-expired' });
  }
  sessionExpiredHandler?.();
}

let baseUrl = '';

/** Sets the origin calls go to ('' = the page's own origin). */
export function setApiBaseUrl(url: string): void {
  baseUrl = url.replace(/\/$/, '');
}

function resolveUrl(path: string): string {
  if (baseUrl) return `${baseUrl}${path}`;
  if (typeof window !== 'undefined' && window.location?.origin && window.location.origin !== 'null') {
    return `${window.location.origin}${path}`;
  }
  return path;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Overrides the stored token (e.g. right after login, before the store has it). */
  token?: string | null;
  /** Do not treat UNAUTHORIZED as session expiry (logout: the session is ending anyway). */
  skipSessionExpiry?: boolean;
  /**
   * Sent as the `Idempotency-Key` header (an RFC 8941 string) on the calls the endpoint table marks
   * `idempotent`: the same key for every send of one action (./idempotency.ts).
   */
  idempotencyKey?: string;
}

interface EnvelopeLike {
  code: number;
  msg?: string;
  data?: unknown;
  reason?: string;
}

function isEnvelope(value: unknown): value is EnvelopeLike {
  return typeof value === 'object' && value !== null && typeof (value as EnvelopeLike).code === 'number';
}

/**
 * Calls `key` of the endpoint table (`ENDPOINTS`, docs/decisions/0018-endpoint-table.md): POSTs
 * `body` as JSON to the call's path and returns the envelope's `data`. The body and the answer
 * are typed from the call's contract schemas (`EndpointBody`, `EndpointData`).
 * @example callApi('collectionBuy', { collection_id: id })
 * @throws ApiError on a non-10000 code, a non-2xx status without envelope, a non-JSON answer or a network failure
 */
export function callApi<K extends EndpointKey>(
  key: K,
  body: EndpointBody<K>,
  options: RequestOptions = {},
): Promise<EndpointData<K>> {
  return postEnvelope(endpointPath(key), body, options) as Promise<EndpointData<K>>;
}

/**
 * A signed-in call the document's inline script started before the JavaScript loaded
 * (public/theme-init.js, docs/decisions/0043-signed-in-first-call-from-the-document.md): `body` is
 * the JSON it sent, `response` null when the request failed.
 */
interface EarlyCall {
  path: string;
  body: string;
  token: string;
  response: Promise<Response | null>;
}

/**
 * Takes (once) the early call of the same path, JSON body and token, when the API is this origin
 * (`VITE_API_BASE` unset, as the server that wrote the document serves it).
 * @param signal the caller's: when it aborts first, this rejects with its AbortError, as the
 *   caller's own fetch would (the early request itself, a read, is left to finish unread)
 * @returns its response, or null when there is none (or it failed): then the caller sends the call
 */
async function takeEarlyResponse(
  path: string,
  body: string,
  token: string | null,
  signal?: AbortSignal,
): Promise<Response | null> {
  const calls = typeof window === 'undefined' ? undefined : (window as { __cofferEarlyCalls?: EarlyCall[] }).__cofferEarlyCalls;
  if (!calls?.length || !token || baseUrl) return null;
  const i = calls.findIndex((c) => c.path === path && c.body === body && c.token === token);
  if (i < 0) return null;
  const [call] = calls.splice(i, 1);
  const early = call!.response.catch(() => null);
  if (!signal) return (await early) ?? null;
  const abortError = () => (signal.reason instanceof DOMException ? signal.reason : new DOMException('Aborted', 'AbortError'));
  if (signal.aborted) throw abortError();
  let onAbort = () => undefined as void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return (await Promise.race([early, aborted])) ?? null;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** POSTs `body` to `path`; resolves with the envelope's `data` (see {@link callApi}). */
async function postEnvelope(path: string, body: unknown, options: RequestOptions): Promise<unknown> {
  const token = options.token !== undefined ? options.token : getAccessToken();
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.idempotencyKey) headers['Idempotency-Key'] = `"${options.idempotencyKey.replace(/["\\]/g, '\\$&')}"`;
  const json = JSON.stringify(body ?? {});

  let response: Response;
  try {
    response =
      (await takeEarlyResponse(path, json, token, options.signal)) ??
      (await fetch(resolveUrl(path), {
        method: 'POST',
        headers,
        body: json,
        signal: options.signal,
      }));
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    const message = err instanceof Error && err.message ? err.message : ErrorMessages.unexpected;
    throw new ApiError({ message, code: 0, msg: '', status: 0 });
  }

  let payload: unknown = null;
  try {
    payload = await response.json();
  } catch {
    payload = null;
  }

  if (isEnvelope(payload) && payload.code === SUCCESS_CODE && response.ok) {
    return payload.data;
  }

  const envelope = isEnvelope(payload) ? payload : null;
  const reason = envelope?.reason;
  // product §4: a body with reason UNAUTHORIZED counts as expiry, handled once per request. A request
  // without a token was never signed in, so its UNAUTHORIZED is not an expiry. A bare HTTP 401
  // without the envelope (a proxy's, say) is "nothing extra" (§8): it does not end the session.
  const expired = !options.skipSessionExpiry && Boolean(token) && reason === ErrorReason.UNAUTHORIZED;
  if (expired) expireSession();

  throw new ApiError({
    message: expired ? ErrorMessages.sessionExpired : messageForFailure(response.status, envelope?.msg, Boolean(envelope)),
    code: envelope?.code ?? response.status,
    msg: envelope?.msg ?? '',
    reason,
    status: response.status,
    data: envelope?.data,
    sessionExpired: expired,
  });
}

/**
 * The text to show for a failed call or action (the policy of ./error-message.ts): the error's
 * message (already mapped by product §8's rules for ApiError), else `fallback` (e.g. 'Failed to
 * login'); with `prefer` 'server', the server's msg or `fallback` unless 403, 404 or 5xx.
 */
export function getErrorMessage(error: unknown, fallback: string = ErrorMessages.unexpected, prefer?: MessagePreference): string {
  return failureMessage(error, error instanceof ApiError ? error : null, fallback, prefer);
}

/**
 * Shows a failure toast unless the failure already ended the session (whose message the client
 * showed, throttled).
 */
export function toastError(error: unknown, fallback?: string, prefer?: MessagePreference): void {
  if (error instanceof ApiError && error.sessionExpired) return;
  toast.error(getErrorMessage(error, fallback, prefer));
}

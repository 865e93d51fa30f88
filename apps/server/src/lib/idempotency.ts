/**
 * The `Idempotency-Key` request header (draft-ietf-httpapi-idempotency-key-header-07, §2) as the
 * endpoint table's `idempotent` calls read it (lib/route.ts), and the store they keep keys in
 * (implemented by modules/idempotency). docs/decisions/0051-idempotency-keys.md.
 */
import { createHash } from 'node:crypto';
import stableStringify from 'safe-stable-stringify';
import { errors } from './errors';

/** Longest accepted key (characters); UUIDs (36) and prefixed ids fit. */
export const IDEMPOTENCY_KEY_MAX = 255;

/**
 * The key of an `Idempotency-Key` header value: an RFC 8941 sf-string (`"8e03978e-…"`, as the draft
 * writes it) or the same characters unquoted (as Stripe's clients send it).
 * @returns the key, or null when the header is absent
 * @throws AppError VALIDATION_FAILED when it is sent twice (an array, or values joined by a comma), empty, longer than
 *   {@link IDEMPOTENCY_KEY_MAX} or holds anything but printable ASCII
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const bad = errors.validation(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters, sent once`);
  if (Array.isArray(header)) throw bad;
  let value = header.trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    value = value.slice(1, -1);
    // sf-string escapes are \" and \\ only; a bare quote means two values joined (`"a", "b"`).
    if (/\\(?!["\\])|(?<!\\)"/.test(value)) throw bad;
    value = value.replace(/\\(["\\])/g, '$1');
  } else if (/[",]/.test(value)) {
    // Unquoted keys hold no quotes or commas: a comma is how a header sent twice arrives (`a, b`).
    throw bad;
  }
  if (value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX || !/^[\x20-\x7e]+$/.test(value)) throw bad;
  return value;
}

/**
 * What identifies a request for its key: SHA-256 (hex) of the call's operationId and the canonical
 * JSON (keys sorted) of its validated body, so a repeat whose fields come in another order matches.
 */
export function requestFingerprint(operation: string, body: unknown): string {
  return createHash('sha256')
    .update(operation)
    .update('\0')
    .update(stableStringify(body ?? null) ?? 'null')
    .digest('hex');
}

/** A key this request holds: `lockedAt` identifies the claim (a later take-over makes another). */
export interface IdempotencyClaim {
  userId: string;
  key: string;
  lockedAt: Date;
}

/** What {@link IdempotencyStore.begin} decides. */
export type IdempotencyBegin =
  | { kind: 'claimed'; claim: IdempotencyClaim }
  | { kind: 'replay'; status: number; response: string };

/** Where keys live (modules/idempotency/idempotency.service.ts). */
export interface IdempotencyStore {
  /**
   * Claims `key` for this request, or answers the stored response of its first request.
   * @throws AppError IDEMPOTENCY_KEY_REUSED (422) when the key was used with another call or body;
   *   IDEMPOTENCY_KEY_IN_USE (409) while its first request is still running
   */
  begin(input: { userId: string; key: string; operation: string; fingerprint: string }): Promise<IdempotencyBegin>;
  /** Stores the claim's successful answer (status and the exact body sent) for replays. */
  complete(claim: IdempotencyClaim, status: number, response: string): Promise<void>;
  /** Gives the key up after a failed request (nothing was done; a retry runs again). */
  release(claim: IdempotencyClaim): Promise<void>;
}

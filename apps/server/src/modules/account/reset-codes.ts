/**
 * Password-reset codes (product §12): 6 random digits, stored only as an HMAC-SHA256 keyed by the
 * code's row id (so equal codes of two rows never share a hash), compared in constant time.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { RESET_CODE_LENGTH } from '@coffer/contract';

/** A fresh code of RESET_CODE_LENGTH digits from the CSPRNG, e.g. `'042917'`. */
export function newResetCode(): string {
  return randomInt(0, 10 ** RESET_CODE_LENGTH)
    .toString()
    .padStart(RESET_CODE_LENGTH, '0');
}

/** Hex HMAC-SHA256 of `code` under the row id. */
export function hashResetCode(rowId: string, code: string): string {
  return createHmac('sha256', rowId).update(code).digest('hex');
}

/** True when `code` is the one whose hash was stored for the row. */
export function resetCodeMatches(rowId: string, code: string, storedHash: string): boolean {
  const a = Buffer.from(hashResetCode(rowId, code), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

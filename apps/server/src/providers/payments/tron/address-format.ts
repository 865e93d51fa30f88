/**
 * The format of a TRON address (docs/payments.md, "tron — USDT on TRON"), checked without tronweb:
 * base58check (`T...`, 34 characters) of 21 bytes, the version byte 0x41 and a 20-byte account id,
 * the checksum being the first 4 bytes of SHA-256(SHA-256(payload)). The configuration (env.ts)
 * and the payout form check addresses with this, so a server that does not run the TRON rail never
 * loads tronweb (about 25 MB of memory); ./address.ts converts and derives with tronweb.
 */
import { sha256 } from '@noble/hashes/sha2';
import { createBase58check } from '@scure/base';

/** The pattern a TRON payout address must match (what `wallet_regex` says). */
export const TRON_WALLET_REGEX = '^T[1-9A-HJ-NP-Za-km-z]{33}$';
const WALLET_RE = new RegExp(TRON_WALLET_REGEX);
const base58check = createBase58check(sha256);

/** True for a base58check TRON address (right length, alphabet, version byte 0x41 and checksum). */
export function isTronAddress(value: string): boolean {
  if (!WALLET_RE.test(value)) return false;
  try {
    const bytes = base58check.decode(value);
    return bytes.length === 21 && bytes[0] === 0x41;
  } catch {
    return false;
  }
}

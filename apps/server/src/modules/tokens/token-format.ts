/**
 * The personal access token format (docs/decisions/0058-personal-access-tokens.md):
 * `coffer_pat_` + 30 base62 characters drawn uniformly from the CSPRNG + 6 base62 characters of the
 * CRC-32 (zlib's, IEEE 802.3) of those 30, left-padded with '0', as GitHub's tokens. The checksum
 * lets secret scanners tell a real token from look-alikes and lets the server refuse a mistyped
 * token without reading the database; it is no secret and proves nothing about who made the token.
 */
import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { BASE62_ALPHABET, TOKEN_CHECKSUM_LENGTH, TOKEN_LENGTH, TOKEN_PREFIX, TOKEN_RANDOM_LENGTH } from '@coffer/contract';

/** `n` (a uint32) in base62, left-padded with '0' to {@link TOKEN_CHECKSUM_LENGTH} characters. */
export function base62Checksum(n: number): string {
  let out = '';
  let rest = n >>> 0;
  do {
    out = BASE62_ALPHABET[rest % 62]! + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(TOKEN_CHECKSUM_LENGTH, '0');
}

/** The checksum characters of a random part. */
const checksumOf = (random: string): string => base62Checksum(crc32(random));

/** A new token: prefix, 30 random base62 characters (randomInt: no modulo bias), checksum. */
export function newAccessToken(): string {
  let random = '';
  for (let i = 0; i < TOKEN_RANDOM_LENGTH; i++) random += BASE62_ALPHABET[randomInt(62)];
  return `${TOKEN_PREFIX}${random}${checksumOf(random)}`;
}

const SHAPE = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${TOKEN_RANDOM_LENGTH + TOKEN_CHECKSUM_LENGTH}}$`);

/** True when `token` has the shape of a token and its checksum matches (no database read). */
export function isWellFormedAccessToken(token: string): boolean {
  if (token.length !== TOKEN_LENGTH || !SHAPE.test(token)) return false;
  const random = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + TOKEN_RANDOM_LENGTH);
  return checksumOf(random) === token.slice(TOKEN_PREFIX.length + TOKEN_RANDOM_LENGTH);
}

/** What is stored and looked up: SHA-256 hex of the whole token. */
export const hashAccessToken = (token: string): string => createHash('sha256').update(token).digest('hex');

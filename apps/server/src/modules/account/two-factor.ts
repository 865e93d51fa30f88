/**
 * Two-factor sign-in primitives (product §26, docs/decisions/0028-two-factor-and-sessions.md):
 *
 * - TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps) through the `otpauth` library; a code is
 *   accepted for the current step and one step either side, and {@link matchTotp} answers the
 *   step matched so the caller can refuse a step already used (no replay).
 * - The TOTP secret is sealed with AES-256-GCM under the two-factor key (`TWO_FACTOR_KEY`, or a
 *   key generated once into `DATA_DIR/two-factor-key`), with the user id as associated data: a
 *   database dump alone yields no secret, and a sealed secret moved to another user does not open.
 * - Recovery codes: 16 characters of Crockford base32 (80 bits of entropy), shown as
 *   `xxxx-xxxx-xxxx-xxxx`. Stored as HMAC-SHA256 under the same key: with 80 random bits a slow hash
 *   (argon2) buys nothing, and the key keeps a dump alone from being checked offline at all.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS } from '@coffer/contract';
import { Secret, TOTP } from 'otpauth';

/** TOTP step length, in seconds (RFC 6238 default). */
export const TOTP_PERIOD_SECONDS = 30;
/** Steps either side of now whose codes are accepted (clock drift between phone and server). */
export const TOTP_WINDOW = 1;
const ISSUER = 'Coffer';

/**
 * The 32-byte two-factor key: `TWO_FACTOR_KEY` (base64 or hex of 32 bytes, or any string of at
 * least 32 characters, hashed to 32 bytes) when set, else the key generated once into
 * `<dataDir>/two-factor-key` (mode 0600; kept by `npm run backup`).
 */
export function twoFactorKey(config: { TWO_FACTOR_KEY?: string | undefined; dataDir: string }): Buffer {
  const derive = (text: string) => createHash('sha256').update(text).digest();
  if (config.TWO_FACTOR_KEY) return derive(config.TWO_FACTOR_KEY);
  const file = path.join(config.dataDir, 'two-factor-key');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return derive(existing);
  } catch {
    // first start: generate below
  }
  mkdirSync(config.dataDir, { recursive: true });
  const generated = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, generated, { mode: 0o600, flag: 'wx' });
    return derive(generated);
  } catch {
    // another process wrote it first
    return derive(readFileSync(file, 'utf8').trim());
  }
}

/** Seals `plain` for `userId`: `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
export function seal(key: Buffer, userId: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(userId));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** Opens what {@link seal} sealed for `userId`. @throws Error when the key, user or text does not match */
export function unseal(key: Buffer, userId: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown sealed format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(userId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** A fresh base32 TOTP secret (160 bits, RFC 4226's recommended length). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpFor(secret: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** The `otpauth://` URI an authenticator app scans. */
export function otpauthUri(secret: string, username: string): string {
  return totpFor(secret, username).toString();
}

/** The code of `secret` at `nowMs` (tests, and the demo). */
export function totpCode(secret: string, nowMs: number): string {
  return totpFor(secret).generate({ timestamp: nowMs });
}

/** True when `code` looks like a TOTP code (6 digits, spaces ignored) rather than a recovery code. */
export function isTotpShaped(code: string): boolean {
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code.replace(/\s/g, ''));
}

/**
 * The 30-second step whose code `code` is, within {@link TOTP_WINDOW} steps of `nowMs`, or null.
 * Steps count from the Unix epoch.
 */
export function matchTotp(secret: string, code: string, nowMs: number): number | null {
  const token = code.replace(/\s/g, '');
  const delta = totpFor(secret).validate({ token, timestamp: nowMs, window: TOTP_WINDOW });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** Crockford base32 without I, L, O, U: easy to read aloud and type. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** {@link RECOVERY_CODE_COUNT} fresh recovery codes, `xxxx-xxxx-xxxx-xxxx` (80 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let raw = '';
    for (let i = 0; i < 16; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
    return raw.match(/.{4}/g)!.join('-');
  });
}

/** Upper-case, without spaces and dashes; Crockford's look-alikes (I, L -> 1, O -> 0) folded. */
export function normaliseRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

/** Hex HMAC-SHA256 of the normalised code under the two-factor key. */
export function hashRecoveryCode(key: Buffer, code: string): string {
  return createHmac('sha256', key).update(normaliseRecoveryCode(code)).digest('hex');
}

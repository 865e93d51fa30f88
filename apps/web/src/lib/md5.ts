/**
 * MD5 of a clear-text password (product §5: "Passwords are sent as an MD5 hex digest, never in clear
 * text; the hashing needs a non-empty string"). Uses hash-wasm's WebAssembly MD5.
 */
import { PasswordMessages } from '@coffer/contract';
import { md5 } from 'hash-wasm';

/**
 * @param password the clear-text password
 * @returns the lower-case 32-character hex digest
 * @throws Error 'Invalid password: must be a non-empty string' (product §8) on empty or non-string input
 */
export async function hashPassword(password: unknown): Promise<string> {
  if (typeof password !== 'string' || password.length === 0) throw new Error(PasswordMessages.emptyForHash);
  return md5(password);
}

/**
 * Password storage (product §12): the client's MD5 hex digest is the secret; the server keeps only
 * argon2id of it (@node-rs/argon2, OWASP parameters).
 */
import { hash, verify } from '@node-rs/argon2';

const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** argon2id hash (PHC string) of a lower-case MD5 hex digest. */
export function hashPasswordDigest(digest: string): Promise<string> {
  return hash(digest, OPTIONS);
}

/** True when `digest` matches the stored hash; false on any malformed hash. */
export async function verifyPasswordDigest(storedHash: string, digest: string): Promise<boolean> {
  try {
    return await verify(storedHash, digest);
  } catch {
    return false;
  }
}

/** A hash of a random digest, verified against when the account does not exist so timing stays alike. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPasswordDigest('0'.repeat(32));
  return dummy;
}

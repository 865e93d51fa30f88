/**
 * The leaves of one proof-of-liabilities publication (docs/decisions/0048-private-liability-proofs.md):
 * every user's balance split into random shares, the tree filled to a power of two of at least
 * {@link MIN_LEAVES} leaves, each leaf with its own random salt, all in a shuffled order.
 *
 * Pure apart from the random source, which is `node:crypto` unless a caller passes another
 * (tests pass a seeded one to replay a layout; the app and `reserves:publish` never do).
 */
import { randomBytes } from 'node:crypto';
import { splitIntoShares } from '@coffer/contract';

/** `size` random bytes. Production: `crypto.randomBytes`. */
export type RandomSource = (size: number) => Uint8Array;

/** Shares each balance is split into at least (ADR 0048); with few users, more, to fill the tree. */
export const SHARES_PER_USER = 3;
/** The fewest leaves a tree has: padding hides how many users there are below this. */
export const MIN_LEAVES = 64;

/** Leaves of a tree over `shares` shares: the next power of two, at least {@link MIN_LEAVES}. */
export function paddedLeafCount(shares: number): number {
  let size = MIN_LEAVES;
  while (size < shares) size *= 2;
  return size;
}

/** An unbiased random integer in 0..n-1 (0 for n <= 1), by rejection sampling over `random`'s bytes. */
export function randomBelow(n: bigint, random: RandomSource = randomBytes): bigint {
  if (n <= 1n) return 0n;
  const bytes = Math.ceil(n.toString(16).length / 2) + 1;
  const range = 1n << BigInt(bytes * 8);
  const limit = range - (range % n);
  for (;;) {
    let v = 0n;
    for (const b of random(bytes)) v = (v << 8n) | BigInt(b);
    if (v < limit) return v % n;
  }
}

/** One leaf of a layout: `real` false only for the zero leaves of an empty ledger (never stored). */
export interface LaidOutLeaf {
  userId: string;
  /** This share of the user's balance, minor units (>= 0). */
  balance: bigint;
  /** 32 random bytes, 64 lower-case hex characters. */
  salt: string;
  real: boolean;
}

/**
 * Lays out the leaves of a publication over `users` (balances in minor units, >= 0):
 * - the tree has {@link paddedLeafCount}(users × {@link SHARES_PER_USER}) leaves, all of them shares:
 *   each user gets `size / users` shares (the first `size % users` users one more), so with few
 *   users a balance is cut into many shares rather than the tree padded with zeros (a zero-padded
 *   subtree could hold one user's shares alone, and its sum would be that balance);
 * - each balance is cut at random points ({@link splitIntoShares}): the shares add up to it exactly
 *   and each is at least 1 unit when the balance allows;
 * - only an empty ledger gets zero leaves, each for a random user id that is never stored;
 * - every leaf has a fresh 32-byte salt, and the whole array is shuffled (Fisher-Yates).
 * @returns the leaves in tree order (index = leaf position); their balances add up to the users' total
 * @throws RangeError on a negative balance
 */
export function layoutShares(
  users: readonly { userId: string; balance: bigint }[],
  random: RandomSource = randomBytes,
): LaidOutLeaf[] {
  const hex = (size: number) => Buffer.from(random(size)).toString('hex');
  const size = paddedLeafCount(users.length * SHARES_PER_USER);
  const base = users.length ? Math.floor(size / users.length) : 0;
  const extra = users.length ? size % users.length : 0;
  const leaves: LaidOutLeaf[] = [];
  for (const [i, u] of users.entries()) {
    for (const share of splitIntoShares(u.balance, base + (i < extra ? 1 : 0), (n) => randomBelow(n, random))) {
      leaves.push({ userId: u.userId, balance: share, salt: hex(32), real: true });
    }
  }
  while (leaves.length < size) leaves.push({ userId: hex(16), balance: 0n, salt: hex(32), real: false });
  for (let i = leaves.length - 1; i > 0; i--) {
    const j = Number(randomBelow(BigInt(i + 1), random));
    [leaves[i], leaves[j]] = [leaves[j]!, leaves[i]!];
  }
  return leaves;
}

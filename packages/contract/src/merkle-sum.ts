/**
 * The Merkle sum tree of Coffer's proof of liabilities (docs/product.md §22,
 * docs/decisions/0024-proof-of-liabilities.md). Zod-free and pure: the server builds the tree with
 * it and the web verifies a user's inclusion proof with the very same code (exported from
 * `@coffer/contract/constants`). SHA-256 is @noble/hashes (no native code, Node and browsers).
 *
 * Encoding (every integer fixed-width big-endian; sums are bigint minor units, never floats):
 * - leaf  = SHA-256(0x00 || salt[32] || SHA-256(utf8(user_id))[32] || balance[16]), sum = balance;
 * - node  = SHA-256(0x01 || left.hash[32] || left.sum[16] || right.hash[32] || right.sum[16]),
 *   sum = left.sum + right.sum;
 * - a level of odd length (other than the root's) is completed with the padding node
 *   `SHA-256(0x02 || "coffer-pad")`, sum 0;
 * - an empty tree's root is the padding node.
 * A sum must be 0 <= sum < 2^128; the 0x00/0x01/0x02 prefixes keep a leaf from passing for a node.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';
import { toUnits } from './money';

/** One node of the tree: its hash (64 lower-case hex characters) and its sum (minor units). */
export interface SumNode {
  hash: string;
  sum: bigint;
}

/** What a leaf commits to: the user, a 32-byte salt (64 hex characters) and the balance in minor units. */
export interface LeafInput {
  userId: string;
  salt: string;
  balance: bigint;
}

/** Bytes of a sum in the hash input. */
const SUM_BYTES = 16;
const MAX_SUM = 2n ** 128n;
const HEX64 = /^[0-9a-f]{64}$/;

/**
 * A sum as 16 big-endian bytes.
 * @throws RangeError when the sum is negative or does not fit 128 bits
 */
function encodeSum(sum: bigint): Uint8Array {
  if (typeof sum !== 'bigint' || sum < 0n || sum >= MAX_SUM) throw new RangeError(`Sum out of range: ${String(sum)}`);
  const out = new Uint8Array(SUM_BYTES);
  let v = sum;
  for (let i = SUM_BYTES - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** @throws RangeError unless `hex` is 64 lower-case hex characters */
function hash32(hex: string): Uint8Array {
  if (typeof hex !== 'string' || !HEX64.test(hex)) throw new RangeError('A hash or salt must be 64 lower-case hex characters');
  return hexToBytes(hex);
}

/**
 * The padding node that completes a level of odd length (sum 0). Its hash is
 * SHA-256(0x02 || "coffer-pad"), written out (merkle-sum.test.ts recomputes it) so that this module
 * runs no code at load and the web's first screen does not carry SHA-256 (ADR 0016).
 */
export const PAD_NODE: Readonly<SumNode> = {
  hash: 'abc7b2b4901aa75792fac306e6940dea9017cb895ec0602d4c01c5a9d39295b2',
  sum: 0n,
};

/**
 * The leaf of one user.
 * @throws RangeError on a salt that is not 64 hex characters or a balance outside 0..2^128-1
 */
export function leafNode(leaf: LeafInput): SumNode {
  const hash = sha256(
    concatBytes(new Uint8Array([0]), hash32(leaf.salt), sha256(utf8ToBytes(leaf.userId)), encodeSum(leaf.balance)),
  );
  return { hash: bytesToHex(hash), sum: leaf.balance };
}

/**
 * The parent of two nodes: the hash of both hashes and sums, and the sum of the sums.
 * @throws RangeError when a hash is malformed or a sum (or their total) is outside 0..2^128-1
 */
export function parentNode(left: SumNode, right: SumNode): SumNode {
  const sum = left.sum + right.sum;
  encodeSum(sum);
  const hash = sha256(
    concatBytes(new Uint8Array([1]), hash32(left.hash), encodeSum(left.sum), hash32(right.hash), encodeSum(right.sum)),
  );
  return { hash: bytesToHex(hash), sum };
}

/**
 * Builds every level of the tree over `leaves` (in the order given).
 * @returns the levels, leaves first (odd levels completed with {@link PAD_NODE}), the last one
 * holding only the root; `[[PAD_NODE]]` for no leaves
 */
export function buildLevels(leaves: readonly SumNode[]): SumNode[][] {
  if (leaves.length === 0) return [[PAD_NODE]];
  const levels: SumNode[][] = [];
  let level = [...leaves];
  while (level.length > 1) {
    if (level.length % 2 === 1) level.push(PAD_NODE);
    levels.push(level);
    const up: SumNode[] = [];
    for (let i = 0; i < level.length; i += 2) up.push(parentNode(level[i]!, level[i + 1]!));
    level = up;
  }
  levels.push(level);
  return levels;
}

/** The root of built levels (see {@link buildLevels}). */
export function rootOf(levels: readonly SumNode[][]): SumNode {
  return levels[levels.length - 1]![0]!;
}

/**
 * The level and index of every sibling on the way from leaf `index` to the root, leaf level first
 * (what a server looks up to answer a proof).
 */
export function siblingPositions(index: number, depth: number): { level: number; index: number }[] {
  const out: { level: number; index: number }[] = [];
  let i = index;
  for (let level = 0; level < depth; level++) {
    out.push({ level, index: i ^ 1 });
    i >>= 1;
  }
  return out;
}

/** The sibling path of leaf `index` in built levels, leaf level first. */
export function proofPath(levels: readonly SumNode[][], index: number): SumNode[] {
  return siblingPositions(index, levels.length - 1).map((p) => levels[p.level]![p.index]!);
}

/**
 * Checks that the leaf at `index` with sibling `path` leads to `root` (hash and sum).
 * @returns true only when every hash is well formed, every sum lies in 0..2^128-1, the index fits
 * the path, and the recomputed root's hash and sum both equal `root`'s. Never throws.
 */
export function verifyInclusion(input: { root: SumNode; leaf: LeafInput; index: number; path: readonly SumNode[] }): boolean {
  const { root, leaf, index, path } = input;
  try {
    if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** path.length) return false;
    let node = leafNode(leaf);
    let i = index;
    for (const sibling of path) {
      node = i % 2 === 0 ? parentNode(node, sibling) : parentNode(sibling, node);
      i = Math.floor(i / 2);
    }
    return node.hash === root.hash && node.sum === root.sum && typeof root.sum === 'bigint';
  } catch {
    return false;
  }
}

/** One share of a user's balance as the API sends it: its leaf (position, salt, amount) and sibling path. */
export interface WireShare {
  index: number;
  salt: string;
  /** Points, 2 decimals. */
  balance: string;
  /** Sibling hash and sum per level, leaf level first. */
  path: readonly { hash: string; sum: string }[];
}

/**
 * An inclusion proof as the API sends it (`reserves/proof`, docs/api.md): the user's balance split
 * into shares, each a leaf of the tree with its own path (docs/decisions/0048-private-liability-proofs.md).
 * Points as 2-decimal strings.
 */
export interface WireInclusionProof {
  root_hash: string;
  /** The published total, points. */
  total: string;
  user_id: string;
  /** The user's balance at publication (available + frozen + pending), points: the sum of the shares. */
  balance: string;
  shares: readonly WireShare[];
}

/**
 * Verifies a proof as the API sends it: every share's leaf leads by its path to the root (hash and
 * sum), the shares sit at distinct positions, and they add up to `balance` exactly.
 * @returns false on any malformed field, a share that does not verify, or shares that do not sum to
 *   the balance (never throws)
 */
export function verifyWireProof(proof: WireInclusionProof): boolean {
  try {
    if (!proof.shares.length) return false;
    const root = { hash: proof.root_hash, sum: toUnits(proof.total, 2) };
    let sum = 0n;
    const seen = new Set<number>();
    for (const share of proof.shares) {
      if (seen.has(share.index)) return false;
      seen.add(share.index);
      const amount = toUnits(share.balance, 2);
      sum += amount;
      const ok = verifyInclusion({
        root,
        leaf: { userId: proof.user_id, salt: share.salt, balance: amount },
        index: share.index,
        path: share.path.map((p) => ({ hash: p.hash, sum: toUnits(p.sum, 2) })),
      });
      if (!ok) return false;
    }
    return sum === toUnits(proof.balance, 2);
  } catch {
    return false;
  }
}

/**
 * Splits `balance` (minor units) into `parts` shares that add up to it exactly, at cut points drawn
 * by `randomBelow(n)` (an integer in 0..n-1; the server passes a cryptographic generator). Every
 * share is at least 1 when the balance allows it; a balance smaller than `parts` becomes shares of
 * 1 and zeros. So no share holds a whole balance of 2 units or more when `parts` >= 2
 * (docs/decisions/0048-private-liability-proofs.md).
 * @throws RangeError when `balance` is negative or `parts` is not a positive integer
 */
export function splitIntoShares(balance: bigint, parts: number, randomBelow: (n: bigint) => bigint): bigint[] {
  if (balance < 0n) throw new RangeError('A balance cannot be negative');
  if (!Number.isSafeInteger(parts) || parts < 1) throw new RangeError('parts must be a positive integer');
  const n = BigInt(parts);
  if (balance < n) {
    // Too small to give every share a unit: units and zeros, in random order.
    const out = Array.from({ length: parts }, (_, i): bigint => (BigInt(i) < balance ? 1n : 0n));
    for (let i = parts - 1; i > 0; i--) {
      const j = Number(randomBelow(BigInt(i + 1)));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
  // parts - 1 distinct cut points in 1..balance-1.
  const cuts = new Set<bigint>();
  while (BigInt(cuts.size) < n - 1n) cuts.add(1n + randomBelow(balance - 1n));
  const sorted = [...cuts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: bigint[] = [];
  let last = 0n;
  for (const c of sorted) {
    out.push(c - last);
    last = c;
  }
  out.push(balance - last);
  return out;
}

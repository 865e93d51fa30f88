/**
 * The leaf layout of a publication (docs/decisions/0048-private-liability-proofs.md), without a
 * database: what each user's proof would show for layouts drawn from many seeds, and, for random
 * balance sets, that every user's proof verifies with the contract's (the browser's) verifier.
 */
import { buildLevels, leafNode, minorToPoints, proofPath, rootOf, verifyWireProof, type SumNode } from '@coffer/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test/simulation';
import {
  layoutShares,
  MIN_LEAVES,
  paddedLeafCount,
  randomBelow,
  SHARES_PER_USER,
  type LaidOutLeaf,
  type RandomSource,
} from './share-layout';

/** A deterministic byte source from a 32-bit seed (the app uses node:crypto). */
function seeded(seed: number): RandomSource {
  const next = mulberry32(seed);
  return (size) => Uint8Array.from({ length: size }, () => Math.floor(next() * 256));
}

/** The proof `reserves/proof` answers for `userId` over a layout: every share with its sibling path. */
function proofOf(leaves: readonly LaidOutLeaf[], levels: SumNode[][], userId: string) {
  const mine = leaves.flatMap((l, index) => (l.real && l.userId === userId ? [{ l, index }] : []));
  const root = rootOf(levels);
  return {
    root_hash: root.hash,
    total: minorToPoints(root.sum),
    user_id: userId,
    balance: minorToPoints(mine.reduce((s, { l }) => s + l.balance, 0n)),
    shares: mine.map(({ l, index }) => ({
      index,
      salt: l.salt,
      balance: minorToPoints(l.balance),
      path: proofPath(levels, index).map((p) => ({ hash: p.hash, sum: minorToPoints(p.sum) })),
    })),
  };
}

/** Every amount a proof shows (total, balance, each share's amount, every sibling sum). */
function amountsIn(proof: ReturnType<typeof proofOf>): string[] {
  return [proof.total, proof.balance, ...proof.shares.flatMap((s) => [s.balance, ...s.path.map((p) => p.sum)])];
}

describe('share layout', () => {
  it("the review's repro: over 1,000 seeds, neither of two users funded 234.56 and 345.67 sees the other's balance in their proof", () => {
    for (const order of [
      ['a', 'b'],
      ['b', 'a'],
    ]) {
      const balances: Record<string, bigint> = { a: 23456n, b: 34567n };
      for (let seed = 1; seed <= 1000; seed++) {
        const users = order.map((userId) => ({ userId, balance: balances[userId]! }));
        const leaves = layoutShares(users, seeded(seed));
        const levels = buildLevels(leaves.map(leafNode));
        expect(rootOf(levels).sum).toBe(23456n + 34567n);
        for (const [me, other] of [
          ['a', 'b'],
          ['b', 'a'],
        ] as const) {
          const proof = proofOf(leaves, levels, me);
          expect(proof.balance).toBe(minorToPoints(balances[me]!));
          expect(amountsIn(proof), `seed ${seed}: ${me}'s proof`).not.toContain(minorToPoints(balances[other]!));
          if (seed <= 20) expect(verifyWireProof(proof)).toBe(true);
        }
      }
    }
  }, 300_000); // 1,000 seeds: about 10 s on a quiet 2-core machine, over 60 s under CI's load

  it('for random balance sets, every user has at least 3 shares adding up to the balance, and every proof verifies', () => {
    const users = fc.uniqueArray(
      fc.record({
        userId: fc.uuid(),
        balance: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n }), fc.bigInt({ min: 0n, max: 10n ** 14n })),
      }),
      { minLength: 1, maxLength: 45, selector: (u) => u.userId },
    );
    fc.assert(
      fc.property(users, fc.integer(), (us, seed) => {
        const leaves = layoutShares(us, seeded(seed));
        expect(leaves).toHaveLength(paddedLeafCount(us.length * SHARES_PER_USER));
        expect(leaves.length).toBeGreaterThanOrEqual(MIN_LEAVES);
        expect(leaves.every((l) => l.real)).toBe(true); // filled with shares, no zero padding
        expect(new Set(leaves.map((l) => l.salt)).size).toBe(leaves.length);
        const levels = buildLevels(leaves.map(leafNode));
        expect(levels[0]).toHaveLength(leaves.length); // a power of two: no padding node anywhere
        expect(rootOf(levels).sum).toBe(us.reduce((s, u) => s + u.balance, 0n));
        for (const u of us) {
          const proof = proofOf(leaves, levels, u.userId);
          expect(proof.shares.length).toBeGreaterThanOrEqual(SHARES_PER_USER);
          expect(proof.balance).toBe(minorToPoints(u.balance));
          expect(verifyWireProof(proof)).toBe(true);
        }
        // Someone else's shares do not pass for this user's.
        if (us.length > 1)
          expect(verifyWireProof({ ...proofOf(leaves, levels, us[1]!.userId), user_id: us[0]!.userId })).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('an empty ledger gets zero leaves for random ids, and a tree of the minimum size', () => {
    const leaves = layoutShares([], seeded(7));
    expect(leaves).toHaveLength(MIN_LEAVES);
    expect(leaves.every((l) => !l.real && l.balance === 0n && /^[0-9a-f]{32}$/.test(l.userId))).toBe(true);
    expect(rootOf(buildLevels(leaves.map(leafNode))).sum).toBe(0n);
  });

  it('grows the tree to the next power of two past 64 leaves', () => {
    expect(paddedLeafCount(0)).toBe(64);
    expect(paddedLeafCount(63)).toBe(64);
    expect(paddedLeafCount(66)).toBe(128);
    const users = Array.from({ length: 22 }, (_, i) => ({ userId: `u${i}`, balance: BigInt(i * 1000) }));
    const leaves = layoutShares(users, seeded(3));
    expect(leaves).toHaveLength(128);
    for (const u of users) {
      const mine = leaves.filter((l) => l.userId === u.userId);
      expect([5, 6]).toContain(mine.length);
      expect(mine.reduce((s, l) => s + l.balance, 0n)).toBe(u.balance);
    }
  });

  it('draws integers below n from the bytes, without bias from the modulo', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 20n }), fc.integer(), (n, seed) => {
        const v = randomBelow(n, seeded(seed));
        expect(v >= 0n && v < n).toBe(true);
      }),
    );
    // Bytes that would fall in the biased tail are refused: 0xffff is past the last whole multiple of 3.
    const bytes = [
      [0xff, 0xff],
      [0x00, 0x05],
    ];
    expect(randomBelow(3n, () => Uint8Array.from(bytes.shift()!))).toBe(2n);
  });
});

/**
 * Property tests of the Merkle sum tree (docs/product.md §22): the root commits to every balance,
 * the root's sum is the total, and a proof verifies for the right leaf only.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minorToPoints } from './money';
import {
  buildLevels,
  leafNode,
  PAD_NODE,
  proofPath,
  rootOf,
  verifyInclusion,
  splitIntoShares,
  verifyWireProof,
  type LeafInput,
} from './merkle-sum';

const hex32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(bytesToHex);
const balance = fc.bigInt({ min: 0n, max: 10n ** 15n });
/** 1..40 users with distinct ids, random salts and balances. */
const users = fc.uniqueArray(fc.record({ userId: fc.string({ minLength: 1, maxLength: 12 }), salt: hex32, balance }), {
  minLength: 1,
  maxLength: 40,
  selector: (u) => u.userId,
});

const treeOf = (us: LeafInput[]) => buildLevels(us.map(leafNode));

describe('merkle sum tree', () => {
  it('the root sum equals the total of the balances', () => {
    fc.assert(
      fc.property(users, (us) => {
        expect(rootOf(treeOf(us)).sum).toBe(us.reduce((s, u) => s + u.balance, 0n));
      }),
    );
  });

  it('changing any one balance changes the root hash', () => {
    fc.assert(
      fc.property(users, fc.nat(), balance, (us, pick, other) => {
        const i = pick % us.length;
        fc.pre(other !== us[i]!.balance);
        const changed = us.map((u, j) => (j === i ? { ...u, balance: other } : u));
        expect(rootOf(treeOf(changed)).hash).not.toBe(rootOf(treeOf(us)).hash);
      }),
    );
  });

  it('a proof verifies for every leaf, and fails for a wrong amount, salt, user, index or path', () => {
    fc.assert(
      fc.property(users, fc.nat(), fc.bigInt({ min: 1n, max: 10n ** 12n }), hex32, (us, pick, delta, salt) => {
        const levels = treeOf(us);
        const root = rootOf(levels);
        const index = pick % us.length;
        const leaf = us[index]!;
        const path = proofPath(levels, index);
        expect(verifyInclusion({ root, leaf, index, path })).toBe(true);

        // A wrong amount, up or down (the sum at the root would change too, so both checks catch it).
        expect(verifyInclusion({ root, leaf: { ...leaf, balance: leaf.balance + delta }, index, path })).toBe(false);
        if (leaf.balance > 0n) {
          const lower = leaf.balance > delta ? leaf.balance - delta : 0n;
          expect(verifyInclusion({ root, leaf: { ...leaf, balance: lower }, index, path })).toBe(false);
        }
        // A wrong salt or another user's id.
        fc.pre(salt !== leaf.salt);
        expect(verifyInclusion({ root, leaf: { ...leaf, salt }, index, path })).toBe(false);
        expect(verifyInclusion({ root, leaf: { ...leaf, userId: `${leaf.userId}x` }, index, path })).toBe(false);
        if (path.length > 0) {
          // Another position, a changed sibling hash or sibling sum, a shortened path.
          expect(verifyInclusion({ root, leaf, index: index ^ 1, path })).toBe(false);
          const at = pick % path.length;
          const withHash = path.map((p, j) => (j === at ? { ...p, hash: salt } : p));
          expect(verifyInclusion({ root, leaf, index, path: withHash })).toBe(false);
          const withSum = path.map((p, j) => (j === at ? { ...p, sum: p.sum + delta } : p));
          expect(verifyInclusion({ root, leaf, index, path: withSum })).toBe(false);
          expect(verifyInclusion({ root, leaf, index, path: path.slice(0, -1) })).toBe(false);
        }
        // The right path against another root sum (a total that was not published).
        expect(verifyInclusion({ root: { ...root, sum: root.sum + delta }, leaf, index, path })).toBe(false);
      }),
    );
  });

  it('refuses negative sums, malformed hashes and out-of-range indexes instead of throwing', () => {
    const us = [
      { userId: 'a', salt: '11'.repeat(32), balance: 500n },
      { userId: 'b', salt: '22'.repeat(32), balance: 700n },
    ];
    const levels = treeOf(us);
    const root = rootOf(levels);
    const path = proofPath(levels, 0);
    expect(verifyInclusion({ root, leaf: us[0]!, index: 0, path })).toBe(true);
    // A negative sibling sum cannot hide a balance: the encoding refuses it.
    expect(verifyInclusion({ root, leaf: us[0]!, index: 0, path: [{ ...path[0]!, sum: -700n }] })).toBe(false);
    expect(verifyInclusion({ root, leaf: us[0]!, index: 0, path: [{ ...path[0]!, hash: 'zz' }] })).toBe(false);
    expect(verifyInclusion({ root, leaf: us[0]!, index: 2, path })).toBe(false);
    expect(verifyInclusion({ root, leaf: { ...us[0]!, balance: -1n }, index: 0, path })).toBe(false);
  });

  it('pads odd levels with a zero-sum node and gives an empty tree the padding root', () => {
    expect(PAD_NODE.hash).toBe(bytesToHex(sha256(concatBytes(new Uint8Array([2]), utf8ToBytes('coffer-pad')))));
    expect(rootOf(buildLevels([]))).toEqual(PAD_NODE);
    const levels = treeOf([
      { userId: 'a', salt: '11'.repeat(32), balance: 1n },
      { userId: 'b', salt: '22'.repeat(32), balance: 2n },
      { userId: 'c', salt: '33'.repeat(32), balance: 3n },
    ]);
    expect(levels[0]).toHaveLength(4);
    expect(levels[0]![3]).toEqual(PAD_NODE);
    expect(rootOf(levels).sum).toBe(6n);
  });

  it('verifies the wire form: every share leads to the root and the shares add up to the balance', () => {
    // u2's balance 1.99 in two shares (0.99 and 1.00) at leaves 1 and 3.
    const us = [
      { userId: 'u1', salt: 'ab'.repeat(32), balance: 1234n },
      { userId: 'u2', salt: 'cd'.repeat(32), balance: 99n },
      { userId: 'u3', salt: 'ef'.repeat(32), balance: 0n },
      { userId: 'u2', salt: '12'.repeat(32), balance: 100n },
    ];
    const levels = treeOf(us);
    const root = rootOf(levels);
    const share = (index: number) => ({
      index,
      salt: us[index]!.salt,
      balance: minorToPoints(us[index]!.balance),
      path: proofPath(levels, index).map((p) => ({ hash: p.hash, sum: minorToPoints(p.sum) })),
    });
    const wire = {
      root_hash: root.hash,
      total: minorToPoints(root.sum),
      user_id: 'u2',
      balance: '1.99',
      shares: [share(1), share(3)],
    };
    expect(wire.total).toBe('14.33');
    expect(verifyWireProof(wire)).toBe(true);
    expect(verifyWireProof({ ...wire, balance: '0.99' })).toBe(false);
    expect(verifyWireProof({ ...wire, shares: [share(1)] })).toBe(false);
    expect(verifyWireProof({ ...wire, shares: [share(1), share(1)], balance: '1.98' })).toBe(false);
    expect(verifyWireProof({ ...wire, shares: [] })).toBe(false);
    expect(verifyWireProof({ ...wire, shares: [{ ...share(1), balance: 'abc' }, share(3)] })).toBe(false);
    expect(verifyWireProof({ ...wire, user_id: 'u1' })).toBe(false);
  });
});

describe('splitIntoShares', () => {
  const random = (seed: number) => {
    let a = seed >>> 0;
    return (n: bigint) => {
      a = (Math.imul(a ^ (a >>> 15), 2246822519) + 0x6d2b79f5) >>> 0;
      return BigInt(a) % n;
    };
  };

  it('splits any balance into shares that add up to it exactly, each at least 1 when the balance allows, none the whole of 2 units or more', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.bigInt({ min: 0n, max: 30n }), fc.bigInt({ min: 0n, max: 10n ** 15n })),
        fc.integer({ min: 1, max: 20 }),
        fc.integer(),
        (balance, parts, seed) => {
          const shares = splitIntoShares(balance, parts, random(seed));
          expect(shares).toHaveLength(parts);
          expect(shares.reduce((a, b) => a + b, 0n)).toBe(balance);
          for (const sh of shares) expect(sh >= (balance >= BigInt(parts) ? 1n : 0n)).toBe(true);
          // No share holds a whole balance of 2 units or more (a balance below `parts`: units and zeros).
          if (parts > 1 && balance >= 2n) for (const sh of shares) expect(sh < balance).toBe(true);
          if (balance < BigInt(parts)) expect(shares.filter((sh) => sh === 1n)).toHaveLength(Number(balance));
        },
      ),
    );
  });

  it('refuses a negative balance or a part count that is not a positive integer', () => {
    expect(() => splitIntoShares(-1n, 3, random(1))).toThrow(RangeError);
    expect(() => splitIntoShares(10n, 0, random(1))).toThrow(RangeError);
  });
});

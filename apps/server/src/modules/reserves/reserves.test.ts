/**
 * Proof of liabilities through the real app (product §22): publish, the public latest call, a
 * signed-in user's proof (verified here with the contract's code, as the web does) and the answers
 * for nothing published and for a user who signed up after the publication.
 */
import { buildLevels, leafNode, rootOf, verifyWireProof } from '@coffer/contract';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveLeaves } from '../../db/schema/index';
import { newId } from '../../lib/ids';
import { createPaymentProvider } from '../../providers/payments/index';
import { createTestApp, createUser, fund, topUp, type TestApp } from '../../test/harness';
import { createScratchDatabase, type ScratchDatabase } from '../../test/scratch-database';
import { mulberry32 } from '../../test/simulation';
import * as repo from './reserves.repository';
import { createReservesService, NOT_INCLUDED_MSG, NOTHING_PUBLISHED_MSG } from './reserves.service';

const LATEST = '/api/uc/v1/reserves/latest';
const PROOF = '/api/uc/v1/reserves/proof';
const TRX_RESERVE = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';

let t: TestApp;
let scratch: ScratchDatabase | undefined;
beforeAll(async () => {
  // Publications cover every user of the database: on PostgreSQL a database of its own (PGlite: in memory).
  scratch = await createScratchDatabase('coffer_reserves');
  t = await createTestApp({
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    RESERVE_ADDRESSES: `TRX:usdttrc20:${TRX_RESERVE}, TRX:usdttrc20:TSecondAddressOfTheSameBook000000, XYZ:nosuch:0x01`,
  });
});
afterAll(async () => {
  await t.close();
  await scratch?.drop();
});

/** The ledger's own total of user balances (available + frozen), minor units. */
async function ledgerTotal(app: TestApp = t): Promise<bigint> {
  const res = (await app.app.ctx.database.db.execute(
    sql`select coalesce(sum(balance), 0)::text as s from ledger_accounts where user_id is not null`,
  )) as unknown as { rows: { s: string }[] };
  return BigInt(res.rows[0]!.s);
}

describe('reserves', () => {
  it('answers an empty latest and a clear not-found proof before anything is published', async () => {
    const user = await createUser(t);
    const latest = await t.call(LATEST, {});
    expect(latest.status).toBe(200);
    expect(latest.body.data).toEqual({ publication: null });
    const proof = await t.call(PROOF, {}, user.token);
    expect(proof.status).toBe(404);
    expect(proof.body).toMatchObject({ reason: 'NOT_FOUND', msg: NOTHING_PUBLISHED_MSG });
  });

  it('publishes every balance, serves the total publicly and proofs that verify only for the right amount', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    await topUp(t, a, '150'); // 1.5 USDT into the sandbox book
    await fund(t, b.id, '12.34');
    await t.app.ctx.services.ledger.freeze(b.id, 234n, `freeze:${b.id}`, b.id); // frozen counts too

    const { publication } = await t.app.ctx.services.reserves.publish();
    const total = await ledgerTotal();
    expect(publication.total).toBe(`${total / 100n}.${(total % 100n).toString().padStart(2, '0')}`);

    const latest = await t.call(LATEST, {});
    expect(latest.status).toBe(200);
    const pub = latest.body.data.publication;
    expect(pub).toMatchObject({
      id: publication.id,
      root_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      total: publication.total,
    });
    expect(pub.user_count).toBe(3); // the first test's user, a and b
    expect(pub.reserves).toEqual([
      {
        network: 'TRX',
        currency: 'usdttrc20',
        address: TRX_RESERVE,
        balance: '1.5',
        balance_usd: '1.50',
        read_at: pub.published_at,
        error: null,
      },
      // The sandbox's book is one wallet per currency: a second address of it reads 0.
      expect.objectContaining({ balance: '0', balance_usd: '0.00', error: null }),
      expect.objectContaining({
        network: 'XYZ',
        currency: 'nosuch',
        balance: null,
        balance_usd: null,
        error: expect.stringContaining('nosuch'),
      }),
    ]);
    expect(pub.reserves_usd).toBe('1.50');
    expect(pub.reserves_points).toBe('150.00');

    const proofA = await t.call(PROOF, {}, a.token);
    expect(proofA.status).toBe(200);
    const pa = proofA.body.data;
    expect(pa).toMatchObject({ publication_id: pub.id, root_hash: pub.root_hash, total: pub.total, user_id: a.id });
    expect(pa.balance).toBe('150.00');
    // At least three shares at distinct leaves of a tree of 64 leaves (6 levels), adding up to the balance.
    expect(pa.shares.length).toBeGreaterThanOrEqual(3);
    for (const share of pa.shares) expect(share.path).toHaveLength(6);
    expect(verifyWireProof(pa)).toBe(true);
    expect(verifyWireProof({ ...pa, balance: '150.01' })).toBe(false);
    expect(verifyWireProof({ ...pa, shares: pa.shares.slice(1) })).toBe(false);
    expect(verifyWireProof({ ...pa, user_id: b.id })).toBe(false);

    const proofB = await t.call(PROOF, {}, b.token);
    expect(proofB.body.data.balance).toBe('12.34'); // 10.00 available + 2.34 frozen
    expect(verifyWireProof(proofB.body.data)).toBe(true);
    expect(proofB.body.data.shares[0].salt).not.toBe(pa.shares[0].salt);
  });

  it("hides every other user's balance from a proof: no subtree on A's paths holds B's shares alone (ADR 0048)", async () => {
    // The review's repro: two users funded 234.56 and 345.67 each saw the other's balance as the sum
    // of their neighbouring leaf. A sum on a path reveals a balance when the subtree under it holds
    // every share of that user and nothing else: that must never happen.
    const x = await createUser(t);
    const y = await createUser(t);
    await fund(t, x.id, '234.56');
    await fund(t, y.id, '345.67');
    for (let round = 0; round < 8; round++) {
      t.clock.advance(60_000);
      await t.app.ctx.services.reserves.publish();
      const pub = (await t.call(LATEST, {})).body.data.publication;
      const owners = new Map<number, { userId: string; balance: bigint }>();
      for (const l of await t.app.ctx.database.db.select().from(reserveLeaves).where(eq(reserveLeaves.publicationId, pub.id))) {
        owners.set(l.leafIndex, { userId: l.userId, balance: l.balance });
      }
      for (const [me, other] of [
        [x, y],
        [y, x],
      ] as const) {
        const proof = (await t.call(PROOF, {}, me.token)).body.data;
        expect(verifyWireProof(proof)).toBe(true);
        const theirs = [...owners].filter(([, o]) => o.userId === other.id).map(([i]) => i);
        expect(theirs.length).toBeGreaterThanOrEqual(3);
        for (const share of proof.shares as { index: number; path: unknown[] }[]) {
          let index = share.index;
          for (let level = 0; level < share.path.length; level++) {
            const sibling = index ^ 1;
            const from = sibling * 2 ** level;
            const under = Array.from({ length: 2 ** level }, (_, k) => owners.get(from + k)).filter((o) => o && o.balance > 0n);
            const onlyTheirs = under.length > 0 && under.every((o) => o!.userId === other.id);
            const allOfTheirs = theirs.every((i) => i >= from && i < from + 2 ** level);
            expect(
              onlyTheirs && allOfTheirs,
              `round ${round}, level ${level}: a sum on the path is ${other.username}'s balance`,
            ).toBe(false);
            index >>= 1;
          }
        }
      }
    }
  });

  it('tells a user who signed up after the publication that they are not included, and a new publication includes them', async () => {
    const late = await createUser(t);
    const res = await t.call(PROOF, {}, late.token);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 10005, reason: 'NOT_FOUND', msg: NOT_INCLUDED_MSG });

    await fund(t, late.id, '1.00');
    const before = (await t.call(LATEST, {})).body.data.publication;
    t.clock.advance(60_000);
    await t.app.ctx.services.reserves.publish();
    const after = (await t.call(LATEST, {})).body.data.publication;
    expect(after.id).not.toBe(before.id);
    expect(after.root_hash).not.toBe(before.root_hash);
    expect(after.user_count).toBe(before.user_count + 1);
    const proof = await t.call(PROOF, {}, late.token);
    expect(proof.body.data.balance).toBe('1.00');
    expect(verifyWireProof(proof.body.data)).toBe(true);
  });

  it('requires a session for the proof', async () => {
    const res = await t.call(PROOF, {});
    expect(res.status).toBe(401);
  });
});

/** Every string and number anywhere in an answer (amounts are points strings, indexes numbers). */
function valuesIn(value: unknown): (string | number)[] {
  if (typeof value === 'string' || typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(valuesIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(valuesIn);
  return [];
}

describe("reserves: a proof hides the other users' balances (issue 39, ADR 0048)", () => {
  // A database holding only the review's two users.
  let u: TestApp;
  let own: ScratchDatabase | undefined;
  beforeAll(async () => {
    own = await createScratchDatabase('coffer_reserves_two');
    u = await createTestApp(own ? { DATABASE_URL: own.url } : {});
  });
  afterAll(async () => {
    await u.close();
    await own?.drop();
  });

  it("two users funded 234.56 and 345.67: no number in either's proof is the other's balance, over 12 seeds; the total is the ledger's", async () => {
    const a = await createUser(u);
    const b = await createUser(u);
    await fund(u, a.id, '234.56');
    await fund(u, b.id, '345.67');
    const { db } = u.app.ctx.database;
    const config = u.app.ctx.config;
    for (let seed = 1; seed <= 12; seed++) {
      // The app's service draws from node:crypto; this one replays a seed (share-layout.test.ts runs 1,000).
      const next = mulberry32(seed);
      const service = createReservesService({
        db,
        clock: u.clock,
        ledger: u.app.ctx.services.ledger,
        provider: await createPaymentProvider(config, { db, clock: u.clock }),
        pointsPerUsd: config.POINTS_PER_USD,
        reserveAddresses: [],
        random: (size) => Uint8Array.from({ length: size }, () => Math.floor(next() * 256)),
      });
      u.clock.advance(60_000);
      await service.publish();
      const pub = (await u.call(LATEST, {})).body.data.publication;
      expect(pub.total).toBe('580.23');
      expect(await ledgerTotal(u)).toBe(58023n);
      for (const [me, mine, theirs] of [
        [a, '234.56', '345.67'],
        [b, '345.67', '234.56'],
      ] as const) {
        const res = await u.call(PROOF, {}, me.token);
        expect(res.status).toBe(200);
        const values = valuesIn(res.body.data);
        expect(values, `seed ${seed}`).not.toContain(theirs);
        expect(values).not.toContain(Number(theirs.replace('.', '')));
        expect(res.body.data).toMatchObject({ publication_id: pub.id, root_hash: pub.root_hash, total: '580.23', balance: mine });
        expect(verifyWireProof(res.body.data)).toBe(true);
      }
    }
  });

  it('still answers a proof from a publication made before ADR 0048 (one leaf per user), as one share', async () => {
    const users = await Promise.all([createUser(u), createUser(u)]);
    await fund(u, users[0]!.id, '7.00');
    const leaves = [
      { userId: users[0]!.id, salt: randomBytes(32).toString('hex'), balance: 700n },
      { userId: users[1]!.id, salt: randomBytes(32).toString('hex'), balance: 0n },
    ];
    const levels = buildLevels(leaves.map(leafNode));
    const id = newId();
    u.clock.advance(60_000);
    await repo.insertPublication(u.app.ctx.database.db, {
      id,
      rootHash: rootOf(levels).hash,
      total: rootOf(levels).sum,
      userCount: 2,
      depth: levels.length - 1,
      reserves: [],
      pointsPerUsd: u.app.ctx.config.POINTS_PER_USD,
      createdAt: new Date(u.clock.now()),
    });
    await repo.insertLeaves(
      u.app.ctx.database.db,
      leaves.map((l, i) => ({ publicationId: id, userId: l.userId, leafIndex: i, salt: l.salt, balance: l.balance })),
    );
    await repo.insertNodes(
      u.app.ctx.database.db,
      levels.flatMap((level, li) =>
        level.map((n, ni) => ({ publicationId: id, level: li, nodeIndex: ni, hash: n.hash, sum: n.sum })),
      ),
    );
    const res = await u.call(PROOF, {}, users[0]!.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ publication_id: id, balance: '7.00', total: '7.00' });
    expect(res.body.data.shares).toEqual([
      expect.objectContaining({ index: 0, balance: '7.00', path: [{ hash: expect.any(String), sum: '0.00' }] }),
    ]);
    expect(verifyWireProof(res.body.data)).toBe(true);
  });
});

/**
 * Proof of liabilities (product §22, docs/decisions/0024-proof-of-liabilities.md).
 *
 * - `publish` (run by `npm run reserves:publish`): reads the reserve addresses through the payment
 *   rail, then, in one REPEATABLE READ transaction (one snapshot of the ledger), builds the Merkle
 *   sum tree (contract `merkle-sum.ts`) over every user's balance, split into random shares (each a
 *   leaf with a fresh random 32-byte salt; at least 3, more to fill a tree of a power of two of at
 *   least 64 leaves: `share-layout.ts`), in a shuffled order, and stores the publication, the real
 *   leaves and every node. The root's sum is therefore the ledger's total of user balances at one
 *   instant, and a sibling's sum on a user's path is a sum of random shares, not another user's
 *   balance (docs/decisions/0048-private-liability-proofs.md).
 * - `latest`: the newest publication, public.
 * - `proof`: the caller's shares, each with its sibling path, in the newest publication; the client
 *   checks that every share leads to the root and that they add up to the balance.
 *
 * Amounts: bigint minor units inside, points strings (2 decimals) on the wire; crypto as decimal strings.
 */
import {
  Big,
  buildLevels,
  minorToPoints,
  rootOf,
  siblingPositions,
  usdToPoints,
  leafNode,
  type Publication,
  type ReservesLatestData,
  type ReservesProofData,
  type SumNode,
} from '@coffer/contract';
import type { Db } from '../../db/client';
import type { StoredReserve } from '../../db/schema/index';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { LedgerService } from '../ledger/ledger.service';
import type { PaymentProvider, ReserveAddress } from '../../providers/payments/index';
import * as repo from './reserves.repository';
import { layoutShares, type RandomSource } from './share-layout';

/** The answer to a user who is not in the latest publication (registered after it). */
export const NOT_INCLUDED_MSG =
  'Your account is not included in the latest publication: it was made before you signed up. Your balance will be in the next one.';
/** The answer when nothing has been published yet. */
export const NOTHING_PUBLISHED_MSG = 'No proof of liabilities has been published yet.';

export interface ReservesDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  /** The rail that reads the reserve addresses (`reserveBalances`) and prices them (`priceUsd`). */
  provider: PaymentProvider;
  /** `POINTS_PER_USD`. */
  pointsPerUsd: string;
  /** `RESERVE_ADDRESSES`. */
  reserveAddresses: readonly ReserveAddress[];
  /** Where shares, salts and the shuffle draw from: `node:crypto` unless a test replays a seed. */
  random?: RandomSource;
}

/** What `publish` did, for the command's printout. */
export interface PublishResult {
  publication: Publication;
}

/** A publication row as the API shows it. */
function toPublication(row: repo.PublicationRow): Publication {
  let usd = new Big(0);
  for (const r of row.reserves) if (r.balanceUsd !== null) usd = usd.plus(r.balanceUsd);
  const reservesUsd = usd.toFixed(2);
  return {
    id: row.id,
    root_hash: row.rootHash,
    total: minorToPoints(row.total),
    user_count: row.userCount,
    published_at: row.createdAt.getTime(),
    reserves: row.reserves.map((r) => ({
      network: r.network,
      currency: r.currency,
      address: r.address,
      balance: r.balance,
      balance_usd: r.balanceUsd,
      read_at: r.readAt,
      error: r.error,
    })),
    reserves_usd: reservesUsd,
    reserves_points: usdToPoints(reservesUsd, row.pointsPerUsd),
  };
}

export function createReservesService(deps: ReservesDeps) {
  const { db, clock, ledger, provider } = deps;

  /** Reads every configured address through the rail; failures are kept as `error`, never thrown. */
  async function readReserves(): Promise<StoredReserve[]> {
    const addresses = deps.reserveAddresses;
    if (!addresses.length) return [];
    const readAt = clock.now();
    let readings: Awaited<ReturnType<NonNullable<PaymentProvider['reserveBalances']>>>;
    if (provider.reserveBalances) {
      try {
        readings = await provider.reserveBalances(addresses);
      } catch (err) {
        const msg = err instanceof Error ? err.message.split('\n')[0]! : String(err);
        readings = addresses.map(() => ({ error: msg }));
      }
    } else {
      readings = addresses.map(() => ({ error: `the ${provider.name} rail cannot read reserve balances` }));
    }
    const out: StoredReserve[] = [];
    for (const [i, a] of addresses.entries()) {
      const reading = readings[i] ?? { error: 'no answer from the rail' };
      let balanceUsd: string | null = null;
      let error = 'error' in reading ? reading.error : null;
      if ('balance' in reading) {
        try {
          balanceUsd = new Big(reading.balance)
            .times(await provider.priceUsd(a.currency))
            .round(2, Big.roundDown)
            .toFixed(2);
        } catch (err) {
          error = `no USD price for ${a.currency}: ${err instanceof Error ? err.message : String(err)}`;
        }
      }
      out.push({
        network: a.network,
        currency: a.currency,
        address: a.address,
        balance: 'balance' in reading ? reading.balance : null,
        balanceUsd,
        readAt,
        error,
      });
    }
    return out;
  }

  return {
    /**
     * Builds and stores a new publication.
     * @returns the publication as `reserves/latest` will show it
     * @throws database errors (nothing is stored then); RangeError if a balance were negative (the
     * ledger's CHECK forbids it)
     */
    async publish(): Promise<PublishResult> {
      const reserves = await readReserves();
      const id = newId();
      const createdAt = new Date(clock.now());
      await db.transaction(
        async (tx) => {
          const users: { userId: string; balance: bigint }[] = [];
          for await (const page of ledger.allUserTotals(tx)) users.push(...page);
          // ADR 0048: each balance in random shares at shuffled leaves (share-layout.ts); the
          // zero leaves of an empty ledger are not stored.
          const slots = layoutShares(users, deps.random);
          const leaves = slots.map((l, i) => ({ ...l, leafIndex: i })).filter((l) => l.real);
          const levels = buildLevels(slots.map((l) => leafNode(l)));
          const root = rootOf(levels);
          await repo.insertPublication(tx, {
            id,
            rootHash: root.hash,
            total: root.sum,
            userCount: users.length,
            depth: levels.length - 1,
            reserves,
            pointsPerUsd: deps.pointsPerUsd,
            createdAt,
          });
          await repo.insertLeaves(
            tx,
            leaves.map((l) => ({
              publicationId: id,
              userId: l.userId,
              leafIndex: l.leafIndex,
              salt: l.salt,
              balance: l.balance,
            })),
          );
          await repo.insertNodes(
            tx,
            levels.flatMap((level, li) =>
              level.map((n: SumNode, ni) => ({ publicationId: id, level: li, nodeIndex: ni, hash: n.hash, sum: n.sum })),
            ),
          );
        },
        { isolationLevel: 'repeatable read' },
      );
      const row = await repo.latestPublication(db);
      if (!row || row.id !== id) throw new Error('the new publication is not the latest one (clock went back?)');
      return { publication: toPublication(row) };
    },

    /** The newest publication, or null when none was made (product §22). */
    async latest(): Promise<ReservesLatestData> {
      const row = await repo.latestPublication(db);
      return { publication: row ? toPublication(row) : null };
    },

    /**
     * The caller's inclusion proof in the newest publication: the balance, and each share of it
     * (leaf index, salt, amount) with its sibling path (hash and sum per level, leaf level first).
     * A publication made before ADR 0048 (one leaf per user) answers one share.
     * @throws AppError NOT_FOUND when nothing is published, or the user is not in the latest publication
     */
    async proof(userId: string): Promise<ReservesProofData> {
      const pub = await repo.latestPublication(db);
      if (!pub) throw errors.notFound(NOTHING_PUBLISHED_MSG);
      const leaves = await repo.findLeaves(db, pub.id, userId);
      if (!leaves.length) throw errors.notFound(NOT_INCLUDED_MSG);
      const wanted = leaves.map((l) => siblingPositions(l.leafIndex, pub.depth));
      // Shares share their upper siblings: each node is read once.
      const positions = new Map(wanted.flat().map((p) => [`${p.level}:${p.index}`, p]));
      const nodes = await repo.nodesAt(db, pub.id, [...positions.values()]);
      const byPos = new Map(nodes.map((n) => [`${n.level}:${n.index}`, n]));
      const shares = leaves.map((leaf, i) => ({
        index: leaf.leafIndex,
        salt: leaf.salt,
        balance: minorToPoints(leaf.balance),
        path: wanted[i]!.map((p) => {
          const n = byPos.get(`${p.level}:${p.index}`);
          if (!n) throw new Error(`publication ${pub.id}: node ${p.level}:${p.index} missing`);
          return { hash: n.hash, sum: minorToPoints(n.sum) };
        }),
      }));
      return {
        publication_id: pub.id,
        root_hash: pub.rootHash,
        total: minorToPoints(pub.total),
        user_id: userId,
        balance: minorToPoints(leaves.reduce((sum, l) => sum + l.balance, 0n)),
        shares,
      };
    },
  };
}

export type ReservesService = ReturnType<typeof createReservesService>;

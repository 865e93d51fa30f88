/**
 * Idempotency keys (docs/decisions/0051-idempotency-keys.md, docs/api.md "Idempotency keys"):
 * the store behind the `Idempotency-Key` header of the endpoint table's `idempotent` calls.
 *
 * Per (user, key): the first request claims the row; its successful answer is stored and answered
 * again, byte for byte, to every repeat with the same call and body for {@link KEY_TTL_MS}. A repeat
 * while the first still runs answers 409 IDEMPOTENCY_KEY_IN_USE; the same key with another call or
 * body answers 422 IDEMPOTENCY_KEY_REUSED. A failed first request gives its key up (every failure
 * changes nothing), so a retry runs again. A claim whose request has not answered after
 * {@link STALE_CLAIM_MS} (its instance stopped) may be taken over by a repeat.
 *
 * Times come from the app clock; every decision is one statement (insert on conflict, or a
 * compare-and-set update), so two instances racing for a key see one winner.
 *
 * Cost: the claim and the stored answer are the two writes every keyed request adds to its call.
 * Both are group-committed (lib/group-commit.ts `batchQueue`): the claims (and the answers) of the
 * requests that arrive while one batch commits go together in one statement and one commit, up to
 * {@link MAX_KEY_BATCH} per batch.
 */
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { batchQueue } from '../../lib/group-commit';
import type { IdempotencyBegin, IdempotencyClaim, IdempotencyStore } from '../../lib/idempotency';
import * as repo from './idempotency.repository';

/** How long a key's answer is kept and replayed: 24 h (ms), as Stripe keeps them. */
export const KEY_TTL_MS = 24 * 3_600_000;
/** A claim older than this (ms) with no answer belongs to a request that died: a repeat may take it. */
export const STALE_CLAIM_MS = 60_000;
/** Rows deleted per statement by {@link IdempotencyService.purgeExpired}. */
const PURGE_BATCH = 1_000;
/** Claims (or answers) written per statement at most. */
export const MAX_KEY_BATCH = 64;

export interface IdempotencyDeps {
  db: Db;
  clock: Clock;
}

export function createIdempotencyService(deps: IdempotencyDeps) {
  const { db, clock } = deps;

  const reused = () =>
    new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request. Send a new key.');
  const inUse = () =>
    new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed. Retry after it answers.');

  /**
   * Claims a key for one request, batched with the claims of the requests around it. Of several
   * requests with the same (user, key) in one batch, only the first can win the row; the others see
   * `inserted: false` and read the row like any repeat.
   * @returns whether this request inserted the row, and the claim's time (`locked_at`)
   */
  const insertClaim = batchQueue<repo.ClaimAsk, { inserted: boolean; now: Date }, { inserted: Set<string>; now: Date }>({
    key: (c) => `${c.userId}\n${c.key}`,
    max: MAX_KEY_BATCH,
    commit: async (groups) => {
      const now = new Date(clock.now());
      const inserted = await repo.insertClaims(db, groups, now, new Date(now.getTime() + KEY_TTL_MS));
      return { inserted, now };
    },
    answer: (groups, { inserted, now }) => {
      for (const g of groups) {
        const won = inserted.has(`${g.userId}\n${g.key}`);
        g.waiters.forEach((w, i) => w.resolve({ inserted: won && i === 0, now }));
      }
    },
  });

  /** Stores one claim's answer, batched with the answers around it; resolves after COMMIT. */
  const storeAnswer = batchQueue<repo.CompleteAsk, void, void>({
    key: (a) => `${a.userId}\n${a.key}\n${a.lockedAt.getTime()}`,
    max: MAX_KEY_BATCH,
    commit: (groups) => repo.completeMany(db, groups),
    answer: (groups) => {
      for (const g of groups) for (const w of g.waiters) w.resolve();
    },
  });

  const service = {
    async begin(input: { userId: string; key: string; operation: string; fingerprint: string }): Promise<IdempotencyBegin> {
      // A few rounds at most: each lost round means another request changed the row in between.
      for (let round = 0; round < 5; round += 1) {
        const first = await insertClaim(input);
        if (first.inserted) return { kind: 'claimed', claim: { userId: input.userId, key: input.key, lockedAt: first.now } };
        const now = new Date(clock.now());
        const expiresAt = new Date(now.getTime() + KEY_TTL_MS);
        const claim: IdempotencyClaim = { userId: input.userId, key: input.key, lockedAt: now };
        const row = await repo.find(db, input.userId, input.key);
        if (!row) continue;
        if (row.expiresAt.getTime() <= now.getTime()) {
          if (await repo.reclaim(db, row, { ...input, now, expiresAt, fresh: true })) return { kind: 'claimed', claim };
          continue;
        }
        if (row.operation !== input.operation || row.fingerprint !== input.fingerprint) throw reused();
        if (row.status !== null && row.response !== null) return { kind: 'replay', status: row.status, response: row.response };
        if (row.lockedAt && now.getTime() - row.lockedAt.getTime() >= STALE_CLAIM_MS) {
          if (await repo.reclaim(db, row, { ...input, now, expiresAt, fresh: false })) return { kind: 'claimed', claim };
          continue;
        }
        throw inUse();
      }
      throw inUse();
    },

    complete(claim: IdempotencyClaim, status: number, response: string): Promise<void> {
      return storeAnswer({ userId: claim.userId, key: claim.key, lockedAt: claim.lockedAt, status, response });
    },

    release(claim: IdempotencyClaim): Promise<void> {
      return repo.release(db, claim.userId, claim.key, claim.lockedAt);
    },

    /** Deletes every key expired at the clock's now (the hourly worker). @returns how many */
    async purgeExpired(): Promise<number> {
      let total = 0;
      for (;;) {
        const n = await repo.purgeExpired(db, new Date(clock.now()), PURGE_BATCH);
        total += n;
        if (n < PURGE_BATCH) return total;
      }
    },
  } satisfies IdempotencyStore & Record<string, unknown>;
  return service;
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;

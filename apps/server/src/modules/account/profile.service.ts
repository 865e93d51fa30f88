/**
 * The account's profile and lifecycle (product §3, §7 account table, §12, §24): `get/me`,
 * `account/assets`, `profile`, `account/change` (nickname, avatar), `account/notifications`, and
 * `account/delete`.
 *
 * `get/me` serves the user row from a read cache at most USER_ROW_CACHE_TTL_MS old (never the
 * balances, which come from the ledger on every call). Deletion refuses while anything of the
 * user's is still in flight (a balance, pending proceeds, the guards the composition root gives:
 * a cash-out, a deposit bill), then renames the account and revokes every session
 * (docs/abuse.md "Account deletion").
 */
import { minorToPoints, type PublicUser, type User } from '@coffer/contract';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { createReadCache } from '../../lib/read-cache';
import type { LedgerService } from '../ledger/ledger.service';
import * as repo from './account.repository';
import type { Credentials } from './credentials';
import { toPublicUser } from './public-user';
import type { SessionsService } from './sessions.service';

/** How long `get/me` may serve a user row read earlier, in milliseconds (the stated staleness bound). */
export const USER_ROW_CACHE_TTL_MS = 2_000;

/** A check run before an account is deleted; returns a refusal message or null. */
export type DeletionGuard = (userId: string, tx: Tx) => Promise<string | null>;
/**
 * Work done in the deleting transaction (e.g. archive the user's published collections). It may
 * return a step run after COMMIT (e.g. empty a read cache, which a read between the hook and the
 * commit could otherwise fill again with the old row).
 */
export type DeletionHook = (userId: string, tx: Tx) => Promise<void | (() => void)>;

/**
 * The user's email for a notice (a webhook turned off), read in `tx`: null when the account is
 * deleted or does not exist. One primary-key read of the user's row.
 */
export async function noticeEmailOf(tx: Tx, userId: string): Promise<string | null> {
  return repo.liveEmail(tx, userId);
}

/**
 * Locks the user's row until `tx` ends (another module's per-user limit, e.g. live access tokens,
 * counted under it). @returns false when there is no such user
 */
export async function lockUserRow(tx: Tx, userId: string): Promise<boolean> {
  return repo.lockUser(tx, userId);
}

export interface ProfileDeps {
  db: Db;
  clock: Clock;
  /** The balances of `get/me` and `assets`; the balance rows deletion locks. */
  ledger: Pick<LedgerService, 'balances' | 'lockUserAccounts'>;
  /** The live account and the password check of deletion. */
  credentials: Credentials;
  /** Revokes the deleted account's sessions everywhere; its revocations empty the user-row cache. */
  sessions: Pick<SessionsService, 'broadcast' | 'onRevocation'>;
  /** Resolves a stored avatar value to the URL clients load (storage decides); identity by default. */
  avatarUrl?: (stored: string) => string;
  /**
   * Checks an avatar value sent to `change` (an image the user uploaded through avatar/url, verified
   * by its magic bytes) and returns what to store; throws VALIDATION_FAILED otherwise.
   */
  checkAvatar?: (userId: string, value: string) => Promise<string>;
  /**
   * Checks run, in order, before an account is deleted (a withdrawal in flight, a deposit still
   * Processing...); the first refusal answers CONFLICT with its message. Built by the composition
   * root (services.ts) from the other modules' services.
   */
  deletionGuards?: readonly DeletionGuard[];
  /** Work done, in order, in the deleting transaction (archive the user's published collections...). */
  deletionHooks?: readonly DeletionHook[];
  /**
   * When the user's next pending proceeds clear (ms; null when none), for `assets` (product.md
   * "Clearance"); read only when the pending balance is above zero. Built by services.ts from the
   * clearance module.
   */
  nextClearance?: (userId: string) => Promise<number | null>;
}

export function createProfileService(deps: ProfileDeps) {
  const { db, clock, ledger, credentials, sessions } = deps;
  const { liveUser } = credentials;
  const deletionGuards = deps.deletionGuards ?? [];
  const deletionHooks = deps.deletionHooks ?? [];
  const avatarUrl = deps.avatarUrl ?? ((s: string) => s);
  /**
   * `get/me`'s user rows (never the balances), read at most USER_ROW_CACHE_TTL_MS ago
   * (lib/read-cache.ts, docs/decisions/0020-reads-at-the-limit.md). This instance forgets a row as
   * soon as it changes it (nickname, avatar, password, deletion); password changes, resets and
   * deletions also reach every other instance through the revocation bus, and those revoke the
   * sessions anyway. A nickname or avatar changed on another instance shows within the TTL.
   */
  const userRows = createReadCache<repo.UserRow | null>({ ttlMs: USER_ROW_CACHE_TTL_MS, now: () => clock.now() });
  sessions.onRevocation((event) => {
    if (event.kind === 'user') userRows.delete(event.userId);
  });

  async function toUser(row: repo.UserRow): Promise<User> {
    return userRecord(row, await ledger.balances(row.id));
  }

  function userRecord(row: repo.UserRow, b: { available: bigint; frozen: bigint; pending?: bigint }): User {
    return {
      id: row.id,
      username: row.username,
      nickname: row.nickname,
      email: row.email,
      avatar: row.avatar ? avatarUrl(row.avatar) : '',
      asset: {
        available: minorToPoints(b.available),
        freeze: minorToPoints(b.frozen),
        ...(b.pending === undefined ? {} : { pending: minorToPoints(b.pending) }),
      },
      created_at: row.createdAt.getTime(),
    };
  }

  return {
    /**
     * Reads the caller's notification choices, or sets those given (product §24: `update_mails`,
     * mails about updates to collections they bought). @returns {update_mails}
     * @throws UNAUTHORIZED when the account no longer exists
     */
    async notifications(userId: string, input: { update_mails?: boolean }): Promise<{ update_mails: boolean }> {
      const row =
        input.update_mails === undefined
          ? await repo.findUserById(db, userId)
          : await repo.updateUser(db, userId, { updateMails: input.update_mails });
      if (!row) throw errors.unauthorized();
      return { update_mails: row.updateMails };
    },

    /** The user record of product §3 with its ledger balances. @throws NOT_FOUND 'Record does not exist' */
    async me(userId: string): Promise<User> {
      // Both reads at once: on PostgreSQL they run on two pooled connections.
      const [row, b] = await Promise.all([
        userRows.get(userId, () => repo.findUserByIdPrepared(db, userId)),
        ledger.balances(userId),
      ]);
      if (!row || row.deletedAt) throw errors.notFound('Record does not exist');
      return userRecord(row, b);
    },

    /** Public profile of any live user. @throws NOT_FOUND */
    async profile(userId: string): Promise<PublicUser> {
      return toPublicUser(await liveUser(userId), avatarUrl);
    },

    /**
     * The public face of `userId` when the public may see their creator page: the account exists,
     * is not deleted and is not suspended (product §27). @returns the public user, or null
     */
    async listedCreator(userId: string): Promise<PublicUser | null> {
      const row = await repo.findListableUser(db, userId);
      return row ? toPublicUser(row, avatarUrl) : null;
    },

    /** Stored avatar value -> the URL clients load (sellers on lists). */
    avatarUrl,

    /**
     * `asset {available, freeze, pending, pending_clears_at}` for the caller only (points strings;
     * `pending_clears_at` ms or null, product.md "Clearance"). @throws NOT_FOUND for another user's id
     */
    async assets(callerId: string, userId: string) {
      if (callerId !== userId) throw errors.notFound();
      const b = await ledger.balances(userId);
      const next = b.pending > 0n && deps.nextClearance ? await deps.nextClearance(userId) : null;
      return {
        asset: {
          available: minorToPoints(b.available),
          freeze: minorToPoints(b.frozen),
          pending: minorToPoints(b.pending),
          pending_clears_at: next,
        },
      };
    },

    /** Changes nickname and/or avatar. @returns the user */
    async change(userId: string, patch: { nickname?: string; avatar?: string }): Promise<User> {
      await liveUser(userId);
      const set: { nickname?: string; avatar?: string } = {};
      if (patch.nickname !== undefined) set.nickname = patch.nickname;
      if (patch.avatar !== undefined) {
        set.avatar = patch.avatar && deps.checkAvatar ? await deps.checkAvatar(userId, patch.avatar) : patch.avatar;
      }
      const row = Object.keys(set).length ? await repo.updateUser(db, userId, set) : await repo.findUserById(db, userId);
      userRows.delete(userId);
      if (!row) throw errors.notFound();
      return toUser(row);
    },

    /**
     * Deletes the account (product §12, docs/abuse.md "Account deletion"). The cheap refusals come
     * first and need no password (available + frozen > 0, a guard: withdrawal in flight, deposit bill
     * still Processing), so no answer tells whether a password was right; then the password (shared
     * budget); then, in one transaction with the user's balance rows locked (the ledger's
     * `lockUserAccounts`, so no posting lands while deciding), the refusals again, the deletion
     * hooks, the renaming and the revocation of every session (on every instance). A payment for an
     * expired bill that arrives later is still credited to the (deleted) account's balance: never lost.
     * @throws INVALID_CREDENTIALS, RATE_LIMITED, CONFLICT
     */
    async deleteAccount(userId: string, digest: string) {
      await liveUser(userId);
      const refuseIfBlocked = async (tx: Tx) => {
        const b = await ledger.balances(userId, tx);
        if (b.available + b.frozen > 0n) {
          throw errors.conflict('Your balance must be empty before you delete your account. Cash out first.');
        }
        if (b.pending > 0n) {
          throw errors.conflict(
            'Your sales proceeds are still pending. Delete your account once they have cleared and you have cashed out.',
          );
        }
        for (const guard of deletionGuards) {
          const refusal = await guard(userId, tx);
          if (refusal) throw errors.conflict(refusal);
        }
      };
      await db.transaction(refuseIfBlocked);
      await credentials.checkPassword(userId, digest);
      const now = new Date(clock.now());
      const afterCommit: (() => void)[] = [];
      await db.transaction(async (tx) => {
        afterCommit.length = 0;
        await ledger.lockUserAccounts(userId, tx);
        await refuseIfBlocked(tx);
        for (const hook of deletionHooks) {
          const then = await hook(userId, tx);
          if (then) afterCommit.push(then);
        }
        const user = await repo.findUserById(tx, userId);
        if (!user) throw errors.notFound();
        await repo.updateUser(tx, userId, {
          deletedAt: now,
          username: `deleted_${userId.replace(/-/g, '').slice(-20)}`,
          email: `deleted+${userId}@deleted.invalid`,
        });
        await repo.revokeAllSessions(tx, userId, now);
      });
      for (const then of afterCommit) then();
      await sessions.broadcast({ kind: 'user', userId });
      return {};
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;

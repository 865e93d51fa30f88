/**
 * Sessions (product §26) and the step-up a session carries (product.md "Step-up").
 *
 * A session is an opaque bearer token stored hashed, expiring after `SESSION_TTL_HOURS`. Live
 * sessions are cached in-process for 5 s once read (session-cache.ts); a revocation is written to
 * the database, dropped from this instance's cache at once and published on the revocation bus
 * (lib/shared-state.ts), which drops it on every other instance. `session/list`, `session/revoke`
 * and `session/revoke/others` are here; opening a session is the auth service's (sign-up, sign-in,
 * password change), which calls {@link SessionsService.issue}.
 *
 * Step-up: every session is opened by a proof and counts as stepped up; a spend within
 * STEP_UP_MINUTES of the last proof needs none (`authorizeSpend`), a sensitive change always does
 * (`confirmSensitive`). Proofs spend the shared password budget (credentials.ts).
 */
import { STEP_UP_MINUTES_DEFAULT, type SessionInfo } from '@coffer/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { localBus, type Revocation, type RevocationBus } from '../../lib/shared-state';
import * as repo from './account.repository';
import type { Credentials } from './credentials';
import { deviceLabel, USER_AGENT_MAX } from './devices';
import * as security from './security.repository';
import { createSessionCache } from './session-cache';
import { hashToken, newToken } from './tokens';
import type { TwoFactorService } from './two-factor.service';

/** Where a sign-in comes from (product §26): the User-Agent header and the client address. */
export interface ClientInfo {
  userAgent?: string | undefined;
  address?: string | undefined;
}

/** How often a session's last-seen time is written at most, in milliseconds. */
export const LAST_SEEN_INTERVAL_MS = 60_000;

/** The step-up prompts (product.md "Step-up"): what the buyer is asked for, and why. */
export const STEP_UP_PASSWORD_MSG = 'For your security, enter your password to confirm this purchase.';
export const STEP_UP_CODE_MSG =
  'Two-factor authentication is on: enter the 6-digit code from your authenticator app (or a recovery code) to confirm this purchase.';

export interface SessionsDeps {
  db: Db;
  clock: Clock;
  sessionTtlHours: number;
  /** The live account and the password check of a step-up. */
  credentials: Credentials;
  /** The two-factor row and code check of a step-up. */
  twoFactor: Pick<TwoFactorService, 'enabledRow' | 'checkCode'>;
  /** Carries revocations to every instance (lib/shared-state.ts); default: this process only. */
  revocations?: RevocationBus;
  /** Reports a failed revocation broadcast. */
  log?: Pick<FastifyBaseLogger, 'error'>;
  /** Minutes a step-up lets a session spend (STEP_UP_MINUTES, product.md "Step-up"; default 15). */
  stepUpMinutes?: number;
}

export function createSessionsService(deps: SessionsDeps) {
  const { db, clock, credentials, twoFactor } = deps;
  const log = deps.log ?? { error: () => undefined };
  /** Live sessions read in the last few seconds; revocations from any instance drop entries at once. */
  const sessionCache = createSessionCache({ now: () => clock.now() });
  const revocations = deps.revocations ?? localBus();
  /** Other caches of this instance that a revocation empties (the profile service's user rows). */
  const listeners: ((event: Revocation) => void)[] = [];

  /** Drops a revoked session or user from this instance's caches (no broadcast). */
  function forget(event: Revocation): void {
    if (event.kind === 'session') sessionCache.dropSession(event.sessionId);
    else if (event.kind === 'user') sessionCache.dropUser(event.userId);
    else return;
    for (const listener of listeners) listener(event);
  }
  revocations.subscribe(forget);

  /**
   * Drops the revoked sessions from this instance's caches and tells every other instance. The
   * database already holds the revocation, so a failed broadcast is logged, not thrown: the other
   * instances' caches still age out within SESSION_CACHE_TTL_MS.
   */
  async function broadcast(event: Revocation): Promise<void> {
    forget(event);
    await revocations
      .publish(event)
      .catch((err: unknown) => log.error({ err, revocation: event.kind }, 'revocation broadcast failed'));
  }

  /**
   * True when the session stepped up in the last STEP_UP_MINUTES (no SQL: the auth hook read it).
   * A step-up time ahead of this clock (another instance's clock runs ahead) counts as fresh
   * within the same window.
   */
  function isSteppedUp(auth: { steppedUpAt?: number | null }): boolean {
    if (auth.steppedUpAt == null) return false;
    const age = clock.now() - auth.steppedUpAt;
    const windowMs = (deps.stepUpMinutes ?? STEP_UP_MINUTES_DEFAULT) * 60_000;
    return age <= windowMs && age >= -windowMs;
  }

  return {
    /**
     * Opens a session for `userId` (inside `tx` when given) and returns its bearer token. The
     * session counts as stepped up: every session is opened by a proof (password, code, reset code).
     */
    async issue(userId: string, tx?: Tx, client: ClientInfo = {}): Promise<string> {
      const token = newToken();
      const now = clock.now();
      await repo.insertSession(tx ?? db, {
        id: newId(),
        userId,
        tokenHash: hashToken(token),
        createdAt: new Date(now),
        steppedUpAt: new Date(now),
        expiresAt: new Date(now + deps.sessionTtlHours * 3_600_000),
        userAgent: (client.userAgent ?? '').slice(0, USER_AGENT_MAX),
        address: (client.address ?? '').slice(0, 64),
      });
      return token;
    },

    forget,

    /**
     * Calls `listener` for every session or user revocation this instance learns of: at once for its
     * own (before they are published), and for each one the bus carries, from any instance. For a
     * cache of user data that a revocation must empty (the profile service's user rows).
     */
    onRevocation(listener: (event: Revocation) => void): void {
      listeners.push(listener);
    },

    broadcast,

    /**
     * Resolves a bearer token to its live session, or null (unknown, expired or revoked). Live
     * sessions are cached in-process for SESSION_CACHE_TTL_MS (5 s); a revocation on any instance
     * drops the entry here at once through the revocation bus (the 5 s bound holds while the bus is down).
     */
    async resolveSession(token: string) {
      const tokenHash = hashToken(token);
      const cached = sessionCache.get(tokenHash);
      if (cached) return cached;
      const now = clock.now();
      const row = await repo.findLiveSession(db, tokenHash, new Date(now));
      if (!row) return null;
      // Last seen (product §26): written only on a cache miss, and at most once a minute per session.
      if (!row.lastSeenAt || now - row.lastSeenAt.getTime() >= LAST_SEEN_INTERVAL_MS) {
        await security.touchSession(db, row.sessionId, new Date(now), new Date(now - LAST_SEEN_INTERVAL_MS));
      }
      const session = { userId: row.userId, sessionId: row.sessionId, steppedUpAt: row.steppedUpAt?.getTime() ?? null };
      sessionCache.set(tokenHash, { ...session, expiresAt: row.expiresAt.getTime() });
      return session;
    },

    /** `session/list`: the caller's live sessions, most recently seen first; `current` marks `sessionId`. */
    async listSessions(userId: string, sessionId: string): Promise<{ sessions: SessionInfo[] }> {
      const rows = await security.listLiveSessions(db, userId, new Date(clock.now()));
      return {
        sessions: rows.map((r) => ({
          id: r.id,
          device: deviceLabel(r.userAgent),
          address: r.address,
          created_at: r.createdAt.getTime(),
          last_seen_at: (r.lastSeenAt ?? r.createdAt).getTime(),
          current: r.id === sessionId,
        })),
      };
    },

    /**
     * `session/revoke {session_id}`: signs out one of the caller's sessions on every instance at once.
     * @throws NOT_FOUND for a session that is not the caller's live one
     */
    async revokeSession(userId: string, sessionId: string): Promise<Record<string, never>> {
      if (!(await security.revokeOwnSession(db, userId, sessionId, new Date(clock.now())))) throw errors.notFound('Session not found');
      await broadcast({ kind: 'session', sessionId });
      return {};
    },

    /** `session/revoke/others`: signs out every session of the caller but `currentSessionId`. @returns `{revoked}` (count) */
    async revokeOtherSessions(userId: string, currentSessionId: string): Promise<{ revoked: number }> {
      const ids = await security.revokeOtherSessions(db, userId, currentSessionId, new Date(clock.now()));
      for (const sessionId of ids) await broadcast({ kind: 'session', sessionId });
      return { revoked: ids.length };
    },

    /**
     * Signs the user out everywhere (an operator after a "This wasn't me" report, product.md): every
     * session is revoked, on every instance at once. @returns how many sessions were live
     */
    async revokeAllSessions(userId: string): Promise<number> {
      const revoked = await repo.revokeAllSessions(db, userId, new Date(clock.now()));
      await broadcast({ kind: 'user', userId });
      return revoked;
    },

    isSteppedUp,

    /**
     * The step-up for spending (product.md "Step-up", docs/decisions/0045-clearance-and-step-up.md).
     * A password sent is always checked (a wrong one answers INVALID_CREDENTIALS whatever else holds).
     * Then the spend is allowed when: two-factor is off and the password was right; two-factor is on
     * and a right `code` (TOTP not used before, or an unused recovery code) came; or the session
     * stepped up (signed in, or proved itself here) in the last STEP_UP_MINUTES. A right proof
     * records a step-up on the session. Wrong proofs spend the shared password budget.
     * @param auth the caller's session (`steppedUpAt` ms as the auth hook read it)
     * @throws STEP_UP_REQUIRED (`data.method` 'password' or 'code'), INVALID_CREDENTIALS, RATE_LIMITED
     */
    async authorizeSpend(
      auth: { userId: string; sessionId: string; steppedUpAt?: number | null; token?: unknown },
      proof: { password?: string; code?: string },
    ): Promise<void> {
      const now = clock.now();
      const fresh = isSteppedUp(auth);
      if (fresh && !proof.password && !proof.code) return;
      if (proof.password) await credentials.checkPassword(auth.userId, proof.password);
      const twoFactorRow = await twoFactor.enabledRow(auth.userId);
      let proved = false;
      if (twoFactorRow) {
        if (proof.code) {
          await twoFactor.checkCode(twoFactorRow, proof.code);
          proved = true;
        }
      } else proved = Boolean(proof.password);
      if (proved) {
        // A personal access token has no session to mark: it sends the proof with every spend.
        if (auth.token) return;
        await repo.markSteppedUp(db, auth.sessionId, new Date(now));
        sessionCache.markSteppedUp(auth.sessionId, now);
        return;
      }
      if (fresh) return;
      throw twoFactorRow
        ? errors.stepUpRequired(STEP_UP_CODE_MSG, 'code')
        : errors.stepUpRequired(STEP_UP_PASSWORD_MSG, 'password');
    },

    /**
     * The re-authentication of a sensitive change (a personal access token's creation, ADR 0058):
     * unlike {@link authorizeSpend}, a recent step-up does not stand in for it, the proof comes with
     * the call every time. Two-factor off: the right `password` (the login password's MD5 digest).
     * Two-factor on: a right `code` (TOTP not used before, or an unused recovery code); a `password`
     * sent as well is checked too. Wrong proofs spend the shared password budget.
     * @param prompts the STEP_UP_REQUIRED messages, asking for the password or for a code
     * @throws STEP_UP_REQUIRED (`data.method` 'password' or 'code'), INVALID_CREDENTIALS, RATE_LIMITED, NOT_FOUND
     */
    async confirmSensitive(
      userId: string,
      proof: { password?: string | undefined; code?: string | undefined },
      prompts: { password: string; code: string },
    ): Promise<void> {
      if (proof.password) await credentials.checkPassword(userId, proof.password);
      const twoFactorRow = await twoFactor.enabledRow(userId);
      if (twoFactorRow) {
        if (!proof.code) throw errors.stepUpRequired(prompts.code, 'code');
        await twoFactor.checkCode(twoFactorRow, proof.code);
        return;
      }
      if (!proof.password) throw errors.stepUpRequired(prompts.password, 'password');
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;

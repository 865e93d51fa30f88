/**
 * Accounts and sessions (product §7 account table, product §12 and §17).
 *
 * Passwords arrive as lower-case MD5 hex digests (validated by the contract) and are stored as
 * argon2id. Sessions are opaque tokens stored hashed, expiring after `SESSION_TTL_HOURS`, and cached
 * in-process for 5 s once read (session-cache.ts). Forgotten passwords are reset with a 6-digit
 * code mailed through the configured mail provider (reset-codes.ts, `sendResetCode`,
 * `resetPassword`). Rate limits of the calls are in account.limits.ts.
 */
import { toPublicUser } from './public-user';
import {
  STEP_UP_MINUTES_DEFAULT,
  LOGIN_CHALLENGE_TTL_SECONDS,
  WRONG_CODE_MESSAGE,
  minorToPoints,
  RESET_CODE_MAX_TRIES,
  RESET_CODE_TTL_SECONDS,
  type PublicUser,
  type SessionInfo,
  type TwoFactorStatus,
  type User,
} from '@coffer/contract';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { findPgError, PG } from '../../lib/pg-errors';
import { localBus, memoryCounters, type Revocation, type RevocationBus } from '../../lib/shared-state';
import type { LedgerService } from '../ledger/ledger.service';
import type { MailProvider } from '../../providers/mail/index';
import type { MailQueue } from '../mail/mail-queue.service';
import * as repo from './account.repository';
import { createPasswordBudget, type PasswordBudget } from './password-budget';
import { dummyHash, hashPasswordDigest, verifyPasswordDigest } from './passwords';
import { hashResetCode, newResetCode, resetCodeMatches } from './reset-codes';
import { createReadCache } from '../../lib/read-cache';
import { refuseSuspended } from '../moderation/suspension';
import { createSessionCache } from './session-cache';
import { hashToken, newToken } from './tokens';
import { deviceKey, deviceLabel, USER_AGENT_MAX } from './devices';
import * as security from './security.repository';
import { createLoginGuard, KNOWN_ADDRESS_DAYS, type LoginGuard } from './login-guard';
import {
  hashRecoveryCode,
  isTotpShaped,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  seal,
  unseal,
} from './two-factor';

/** Where a sign-in comes from (product §26): the User-Agent header and the client address. */
export interface ClientInfo {
  userAgent?: string | undefined;
  address?: string | undefined;
}

/** How often a session's last-seen time is written at most, in milliseconds. */
export const LAST_SEEN_INTERVAL_MS = 60_000;

/** The message of a wrong, replayed or used-up two-factor or recovery code (shares the password budget). */
export const WRONG_CODE = WRONG_CODE_MESSAGE;
/** TWO_FACTOR_REQUIRED's message, at login and at withdraw/confirm without a code. */
export const CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app';

/** The new-device mail (product §26): `device` is a label such as 'Chrome on macOS'. */
export function newDeviceMail(input: { username: string; device: string; address: string; at: Date }): { subject: string; text: string } {
  return {
    subject: 'New sign-in to your Coffer account',
    text: [
      `Hello ${input.username},`,
      '',
      `Your Coffer account was just signed in to from a new device: ${input.device}${input.address ? ` (address ${input.address})` : ''}, at ${input.at.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
      '',
      'If this was you, there is nothing to do.',
      'If it was not, change your password now and sign out the other sessions under Your Profile > Security.',
    ].join('\n'),
  };
}

/** A check run before an account is deleted; returns a refusal message or null. */
export type DeletionGuard = (userId: string, tx: Tx) => Promise<string | null>;
/**
 * Work done in the deleting transaction (e.g. archive the user's published collections). It may
 * return a step run after COMMIT (e.g. empty a read cache, which a read between the hook and the
 * commit could otherwise fill again with the old row).
 */
export type DeletionHook = (userId: string, tx: Tx) => Promise<void | (() => void)>;

export interface AccountDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  sessionTtlHours: number;
  /** Resolves a stored avatar value to the URL clients load (storage decides); identity by default. */
  avatarUrl?: (stored: string) => string;
  /**
   * Checks an avatar value sent to `change` (an image the user uploaded through avatar/url, verified
   * by its magic bytes) and returns what to store; throws VALIDATION_FAILED otherwise.
   */
  checkAvatar?: (userId: string, value: string) => Promise<string>;
  /** Sends the reset-code mails (product §11: outbox or SMTP). */
  mail: MailProvider;
  /**
   * Queues the new-device notices in the sign-in's transaction (docs/decisions/0032-mail-queue.md);
   * without it they are sent through `mail` after the answer.
   */
  mailQueue?: MailQueue;
  /** Reports mails sent or failed. It is never given a code, token or password digest. */
  log?: Pick<FastifyBaseLogger, 'info' | 'error'>;
  /** The shared per-user password budget (password-budget.ts); default: in this process's memory. */
  passwordBudget?: PasswordBudget;
  /** Wrong sign-ins per (account, address) and per account (login-guard.ts); memory counters when absent. */
  loginGuard?: LoginGuard;
  /** Carries revocations to every instance (lib/shared-state.ts); default: this process only. */
  revocations?: RevocationBus;
  /**
   * Checks run, in order, before an account is deleted (a withdrawal in flight, a deposit still
   * Processing...); the first refusal answers CONFLICT with its message. Built by the composition
   * root (services.ts) from the other modules' repositories.
   */
  deletionGuards?: readonly DeletionGuard[];
  /** Work done, in order, in the deleting transaction (archive the user's published collections...). */
  deletionHooks?: readonly DeletionHook[];
  /**
   * The 32-byte key that seals TOTP secrets and keys recovery-code hashes (two-factor.ts,
   * `twoFactorKey`); default: a random key for this process only (tests that build the service alone).
   */
  twoFactorKey?: Buffer;
  /** Minutes a step-up lets a session spend (STEP_UP_MINUTES, product.md "Step-up"; default 15). */
  stepUpMinutes?: number;
  /**
   * When the user's next pending proceeds clear (ms; null when none), for `assets` (product.md
   * "Clearance"); read only when the pending balance is above zero. Built by services.ts from the
   * clearance module.
   */
  nextClearance?: (userId: string) => Promise<number | null>;
}

/** The step-up prompts (product.md "Step-up"): what the buyer is asked for, and why. */
export const STEP_UP_PASSWORD_MSG = 'For your security, enter your password to confirm this purchase.';
export const STEP_UP_CODE_MSG =
  'Two-factor authentication is on: enter the 6-digit code from your authenticator app (or a recovery code) to confirm this purchase.';

/** The one answer to every failed reset (unknown email, no code, wrong, expired, used up): no account enumeration. */
export const RESET_CODE_INVALID = 'Invalid or expired code';

/** How long `get/me` may serve a user row read earlier, in milliseconds (the stated staleness bound). */
export const USER_ROW_CACHE_TTL_MS = 2_000;

/** The reset mail (product §12). `code` is the clear code; this text goes only to the mail provider. */
export function resetMail(code: string): { subject: string; text: string } {
  return {
    subject: 'Your Coffer password reset code',
    text: [
      `Your Coffer password reset code is ${code}.`,
      '',
      `It expires in ${RESET_CODE_TTL_SECONDS / 60} minutes and can be tried ${RESET_CODE_MAX_TRIES} times.`,
      'If you did not ask to reset your password, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}

export function createAccountService(deps: AccountDeps) {
  const { db, clock, ledger } = deps;
  const deletionGuards = deps.deletionGuards ?? [];
  const deletionHooks = deps.deletionHooks ?? [];
  const avatarUrl = deps.avatarUrl ?? ((s: string) => s);
  const log = deps.log ?? { info: () => undefined, error: () => undefined };
  /** Live sessions read in the last few seconds; revocations from any instance drop entries at once. */
  const sessionCache = createSessionCache({ now: () => clock.now() });
  const passwordBudget = deps.passwordBudget ?? createPasswordBudget(memoryCounters(() => clock.now()));
  const loginGuard = deps.loginGuard ?? createLoginGuard(memoryCounters(() => clock.now()));
  const revocations = deps.revocations ?? localBus();
  /**
   * `get/me`'s user rows (never the balances), read at most USER_ROW_CACHE_TTL_MS ago
   * (lib/read-cache.ts, docs/decisions/0020-reads-at-the-limit.md). This instance forgets a row as
   * soon as it changes it (nickname, avatar, password, deletion); password changes, resets and
   * deletions also reach every other instance through the revocation bus, and those revoke the
   * sessions anyway. A nickname or avatar changed on another instance shows within the TTL.
   */
  const userRows = createReadCache<repo.UserRow | null>({ ttlMs: USER_ROW_CACHE_TTL_MS, now: () => clock.now() });
  revocations.subscribe((event) => {
    if (event.kind === 'session') sessionCache.dropSession(event.sessionId);
    else if (event.kind === 'user') {
      sessionCache.dropUser(event.userId);
      userRows.delete(event.userId);
    }
  });

  /**
   * Drops the revoked sessions from this instance's cache and tells every other instance. The
   * database already holds the revocation, so a failed broadcast is logged, not thrown: the other
   * instances' caches still age out within SESSION_CACHE_TTL_MS.
   */
  async function broadcast(event: Revocation): Promise<void> {
    if (event.kind === 'session') sessionCache.dropSession(event.sessionId);
    else if (event.kind === 'user') {
      sessionCache.dropUser(event.userId);
      userRows.delete(event.userId);
    }
    await revocations
      .publish(event)
      .catch((err: unknown) => log.error({ err, revocation: event.kind }, 'revocation broadcast failed'));
  }
  /** Reset mails being delivered (they leave after the answer, see `sendResetCode`). */
  const pendingMail = new Set<Promise<void>>();
  const twoFactorKey = deps.twoFactorKey ?? randomBytes(32);

  /** Sends a mail after the answer; a failure is logged. {@link mailSettled} waits for it. */
  function mailLater(to: string, mail: { subject: string; text: string }, userId: string, what: string): void {
    const delivery = deps.mail.send({ to, ...mail }).then(
      (sent) => log.info({ userId, mail: sent.location }, `${what} mailed`),
      (err: unknown) => log.error({ userId, err }, `${what} mail failed`),
    );
    pendingMail.add(delivery);
    void delivery.finally(() => pendingMail.delete(delivery));
  }

  async function issueSession(userId: string, tx?: Tx, client: ClientInfo = {}): Promise<string> {
    const token = newToken();
    const now = clock.now();
    await repo.insertSession(tx ?? db, {
      id: newId(),
      userId,
      tokenHash: hashToken(token),
      createdAt: new Date(now),
      // Every session is opened by a proof (password, code, reset code): it counts as a step-up.
      steppedUpAt: new Date(now),
      expiresAt: new Date(now + deps.sessionTtlHours * 3_600_000),
      userAgent: (client.userAgent ?? '').slice(0, USER_AGENT_MAX),
      address: (client.address ?? '').slice(0, 64),
    });
    return token;
  }

  /**
   * A session for a user who proved who they are; mails them when the device is new to the
   * account. The session, the remembered device and the queued mail commit together.
   */
  async function signIn(user: repo.UserRow, client: ClientInfo): Promise<{ access_token: string }> {
    // A suspension made between the password and the two-factor code holds too (product §27).
    refuseSuspended(user);
    const device = deviceLabel(client.userAgent);
    const now = new Date(clock.now());
    const { token, notice, queued } = await db.transaction(async (tx) => {
      const token = await issueSession(user.id, tx, client);
      const key = deviceKey(device);
      if (!(await security.rememberDevice(tx, user.id, key, now))) return { token, notice: null, queued: [] };
      const notice = newDeviceMail({ username: user.username, device, address: client.address ?? '', at: now });
      const queued = deps.mailQueue
        ? await deps.mailQueue.enqueue(tx, [{ key: `new-device:${user.id}:${key}`, to: user.email, ...notice }])
        : [];
      return { token, notice, queued };
    });
    if (deps.mailQueue) deps.mailQueue.sendNow(queued);
    else if (notice) mailLater(user.email, notice, user.id, 'new-device');
    return { access_token: token };
  }

  /** The user's enabled two-factor row, or null when two-factor sign-in is off. */
  async function enabledTwoFactor(userId: string): Promise<security.TwoFactorRow | null> {
    const row = await security.findTwoFactor(db, userId);
    return row?.enabledAt ? row : null;
  }

  /**
   * True when `code` is a TOTP code of a step after the last one used (the step is then recorded),
   * or an unused recovery code (then spent). Never throws for a wrong code.
   */
  async function codeIsRight(row: security.TwoFactorRow, code: string): Promise<boolean> {
    const now = clock.now();
    if (isTotpShaped(code)) {
      const step = matchTotp(unseal(twoFactorKey, row.userId, row.secretSealed), code, now);
      return step !== null && (await security.advanceStep(db, row.userId, step));
    }
    return security.useRecoveryCode(db, row.userId, hashRecoveryCode(twoFactorKey, code), new Date(now));
  }

  /** Checks a code against the user's shared password budget. @throws RATE_LIMITED, INVALID_CREDENTIALS {@link WRONG_CODE} */
  async function checkCode(row: security.TwoFactorRow, code: string): Promise<void> {
    await passwordBudget.check(row.userId, () => codeIsRight(row, code), WRONG_CODE);
  }

  async function liveUser(userId: string): Promise<repo.UserRow> {
    const user = await repo.findUserById(db, userId);
    if (!user || user.deletedAt) throw errors.notFound('Record does not exist');
    return user;
  }

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
     * Registers a user and opens a session.
     * @returns `{access_token}`
     * @throws AppError CONFLICT when the username or email is taken
     */
    async register(input: { username: string; email: string; password: string; nickname?: string }, client: ClientInfo = {}) {
      const passwordHash = await hashPasswordDigest(input.password);
      try {
        return await db.transaction(async (tx) => {
          const user = await repo.insertUser(tx, {
            id: newId(),
            username: input.username,
            email: input.email,
            nickname: input.nickname ?? input.username,
            passwordHash,
            createdAt: new Date(clock.now()),
          });
          await ledger.openUserAccounts(user.id, tx);
          // The device the account was made on is known from the start (no new-device mail for it).
          await security.rememberDevice(tx, user.id, deviceKey(deviceLabel(client.userAgent)), new Date(clock.now()));
          return { access_token: await issueSession(user.id, tx, client) };
        });
      } catch (err) {
        const unique = findPgError(err, [PG.UNIQUE_VIOLATION]);
        if (unique) {
          const constraint = unique.constraint ?? 'unique';
          throw errors.conflict(
            constraint.includes('email') ? 'This email is already registered' : 'This username is already taken',
          );
        }
        throw err;
      }
    },

    /**
     * Logs in with a username or email and the password digest. When two-factor sign-in is on
     * (product §26), a right password answers TWO_FACTOR_REQUIRED with `data {challenge, expires_at}`
     * (single use, LOGIN_CHALLENGE_TTL_SECONDS = 300 s) for `login/2fa`. A sign-in from a device
     * new to the account mails the user.
     * @throws AppError INVALID_CREDENTIALS on an unknown account or a wrong password (same message),
     * TWO_FACTOR_REQUIRED, ACCOUNT_SUSPENDED (after a right password) while Coffer has suspended the
     * account (product §27)
     */
    async login(input: { account: string; password: string }, client: ClientInfo = {}) {
      const user = await repo.findLiveUserByAccount(db, input.account);
      const address = client.address ?? '';
      const right = await loginGuard.check(
        user ? user.id : `name:${input.account.toLowerCase()}`,
        address,
        async () =>
          user !== null && (await repo.hasSessionFrom(db, user.id, address, new Date(clock.now() - KNOWN_ADDRESS_DAYS * 86_400_000))),
        async () => (await verifyPasswordDigest(user?.passwordHash ?? (await dummyHash()), input.password)) && user !== null,
      );
      if (!user || !right) throw errors.invalidCredentials('Incorrect username or password');
      refuseSuspended(user);
      if (await enabledTwoFactor(user.id)) {
        const challenge = newToken();
        const now = clock.now();
        const expiresAt = now + LOGIN_CHALLENGE_TTL_SECONDS * 1000;
        await security.pruneChallenges(db, user.id, new Date(now - 86_400_000));
        await security.insertChallenge(db, {
          id: newId(),
          userId: user.id,
          tokenHash: hashToken(challenge),
          userAgent: (client.userAgent ?? '').slice(0, USER_AGENT_MAX),
          address: (client.address ?? '').slice(0, 64),
          createdAt: new Date(now),
          expiresAt: new Date(expiresAt),
        });
        throw errors.twoFactorRequired(CODE_REQUIRED, { challenge, expires_at: expiresAt });
      }
      return signIn(user, client);
    },

    /**
     * `login/2fa {challenge, code}` (product §26): finishes a sign-in answered TWO_FACTOR_REQUIRED with
     * a TOTP code (not one already used) or an unused recovery code. Wrong codes spend the user's
     * password budget; the challenge is spent by the first right code.
     * @returns `{access_token}`
     * @throws CONFLICT when the challenge is unknown, used or expired ('sign in again'), RATE_LIMITED, INVALID_CREDENTIALS {@link WRONG_CODE}
     */
    async loginTwoFactor(input: { challenge: string; code: string }, client: ClientInfo = {}) {
      const expired = () => errors.conflict('This sign-in has expired. Please enter your password again.');
      const challenge = await security.findLiveChallenge(db, hashToken(input.challenge), new Date(clock.now()));
      if (!challenge) throw expired();
      const user = await repo.findUserById(db, challenge.userId);
      const row = user && !user.deletedAt ? await enabledTwoFactor(user.id) : null;
      if (!user || !row) throw expired();
      await checkCode(row, input.code);
      if (!(await security.consumeChallenge(db, challenge.id, new Date(clock.now())))) throw expired();
      return signIn(user, client);
    },

    /** `2fa/status`: whether two-factor sign-in is on and how many recovery codes are unused. */
    async twoFactorStatus(userId: string): Promise<TwoFactorStatus> {
      const row = await enabledTwoFactor(userId);
      return { enabled: Boolean(row), recovery_codes_left: row ? await security.countRecoveryCodesLeft(db, userId) : 0 };
    },

    /**
     * `2fa/setup`: a new secret (sealed in the database, not active) and its otpauth URI.
     * @throws CONFLICT when two-factor sign-in is already on
     */
    async twoFactorSetup(userId: string): Promise<{ otpauth_uri: string; secret: string }> {
      const user = await liveUser(userId);
      if (await enabledTwoFactor(userId)) throw errors.conflict('Two-factor sign-in is already on');
      const secret = newTotpSecret();
      await security.savePendingSecret(db, userId, seal(twoFactorKey, userId, secret), new Date(clock.now()));
      return { otpauth_uri: otpauthUri(secret, user.username), secret };
    },

    /**
     * `2fa/enable {code}`: a TOTP code of the pending secret turns two-factor sign-in on and answers
     * the ten recovery codes (only their HMACs are kept). Wrong codes spend the password budget.
     * @throws CONFLICT without a pending setup or when already on, RATE_LIMITED, INVALID_CREDENTIALS {@link WRONG_CODE}
     */
    async twoFactorEnable(userId: string, code: string): Promise<{ recovery_codes: string[] }> {
      const row = await security.findTwoFactor(db, userId);
      if (!row) throw errors.conflict('Start two-factor setup first');
      if (row.enabledAt) throw errors.conflict('Two-factor sign-in is already on');
      // The step matched, set by the budget's evaluation (only a right code gets past the check).
      const matched = { step: 0 };
      await passwordBudget.check(
        userId,
        async () => {
          const step = isTotpShaped(code) ? matchTotp(unseal(twoFactorKey, userId, row.secretSealed), code, clock.now()) : null;
          if (step === null) return false;
          matched.step = step;
          return true;
        },
        WRONG_CODE,
      );
      const codes = newRecoveryCodes();
      const enabled = await db.transaction(async (tx) => {
        if (!(await security.enableTwoFactor(tx, userId, matched.step, new Date(clock.now())))) return false;
        await security.replaceRecoveryCodes(
          tx,
          userId,
          codes.map((c) => ({ id: newId(), codeHash: hashRecoveryCode(twoFactorKey, c) })),
        );
        return true;
      });
      if (!enabled) throw errors.conflict('Two-factor sign-in is already on');
      return { recovery_codes: codes };
    },

    /**
     * `2fa/disable {password, code}`: the password, then a code (or a recovery code), both against the
     * shared budget; removes the secret and the recovery codes.
     * @throws CONFLICT when two-factor sign-in is off, RATE_LIMITED, INVALID_CREDENTIALS
     */
    async twoFactorDisable(userId: string, input: { password: string; code: string }): Promise<Record<string, never>> {
      const row = await enabledTwoFactor(userId);
      if (!row) throw errors.conflict('Two-factor sign-in is off');
      await this.checkPassword(userId, input.password);
      await checkCode(row, input.code);
      await db.transaction((tx) => security.deleteTwoFactor(tx, userId));
      return {};
    },

    /**
     * The second factor of a sensitive call (withdraw/confirm): nothing when two-factor sign-in is
     * off; else `code` must be given and right (shared budget).
     * @throws TWO_FACTOR_REQUIRED without a code, RATE_LIMITED, INVALID_CREDENTIALS {@link WRONG_CODE}
     */
    async checkSecondFactor(userId: string, code: string | undefined): Promise<void> {
      const row = await enabledTwoFactor(userId);
      if (!row) return;
      if (!code) throw errors.twoFactorRequired(CODE_REQUIRED);
      await checkCode(row, code);
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

    /** Revokes the current session, on every instance at once. */
    async logout(sessionId: string) {
      await repo.revokeSession(db, sessionId, new Date(clock.now()));
      await broadcast({ kind: 'session', sessionId });
      return {};
    },

    /** The user record of product §3 with its ledger balances. @throws NOT_FOUND 'Record does not exist' */
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

    /** Public profiles of several users at once (sellers on lists). */
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
     * Verifies a password digest for the user, spending from the user's shared password budget
     * (password-budget.ts: 10 wrong in 15 minutes across every call and instance).
     * @throws NOT_FOUND, RATE_LIMITED when the budget is spent, INVALID_CREDENTIALS 'Incorrect password'
     */
    async checkPassword(userId: string, digest: string): Promise<void> {
      const user = await liveUser(userId);
      await passwordBudget.check(userId, () => verifyPasswordDigest(user.passwordHash, digest));
    },

    /**
     * True when the session stepped up in the last STEP_UP_MINUTES (no SQL: the auth hook read it).
     * A step-up time ahead of this clock (another instance's clock runs ahead) counts as fresh
     * within the same window.
     */
    isSteppedUp(auth: { steppedUpAt?: number | null }): boolean {
      if (auth.steppedUpAt == null) return false;
      const age = clock.now() - auth.steppedUpAt;
      const windowMs = (deps.stepUpMinutes ?? STEP_UP_MINUTES_DEFAULT) * 60_000;
      return age <= windowMs && age >= -windowMs;
    },

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
      const fresh = this.isSteppedUp(auth);
      if (fresh && !proof.password && !proof.code) return;
      if (proof.password) await this.checkPassword(auth.userId, proof.password);
      const twoFactorRow = await enabledTwoFactor(auth.userId);
      let proved = false;
      if (twoFactorRow) {
        if (proof.code) {
          await checkCode(twoFactorRow, proof.code);
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
      if (proof.password) await this.checkPassword(userId, proof.password);
      const twoFactorRow = await enabledTwoFactor(userId);
      if (twoFactorRow) {
        if (!proof.code) throw errors.stepUpRequired(prompts.code, 'code');
        await checkCode(twoFactorRow, proof.code);
        return;
      }
      if (!proof.password) throw errors.stepUpRequired(prompts.password, 'password');
    },

    /**
     * Changes the password, revokes every session and returns a fresh token.
     * @throws INVALID_CREDENTIALS when the old password is wrong
     */
    async changePassword(userId: string, oldDigest: string, newDigest: string) {
      await this.checkPassword(userId, oldDigest);
      const passwordHash = await hashPasswordDigest(newDigest);
      const fresh = await db.transaction(async (tx) => {
        await repo.updateUser(tx, userId, { passwordHash });
        await repo.revokeAllSessions(tx, userId, new Date(clock.now()));
        return { access_token: await issueSession(userId, tx) };
      });
      await broadcast({ kind: 'user', userId });
      return fresh;
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

    /** Sets a new password (reset flow) and revokes every session (inside `tx` when given). */
    async setPassword(userId: string, newDigest: string, tx?: Tx) {
      const passwordHash = await hashPasswordDigest(newDigest);
      await repo.updateUser(tx ?? db, userId, { passwordHash });
      await repo.revokeAllSessions(tx ?? db, userId, new Date(clock.now()));
      sessionCache.dropUser(userId);
      userRows.delete(userId);
      if (!tx) await broadcast({ kind: 'user', userId });
    },

    /** A live user by email (reset flow), or null. */
    findByEmail(email: string) {
      return repo.findLiveUserByEmail(db, email);
    },

    /**
     * `send_mail {email, type: 'reset_password'}` (product §12 and §17): when `email` belongs to a live
     * user, retires the user's earlier codes, stores a new 6-digit code (hashed, valid
     * RESET_CODE_TTL_SECONDS = 600 s, RESET_CODE_MAX_TRIES = 5 tries) and mails it.
     *
     * Answers `{}` in every case, and the mail leaves after the answer: an unknown email, a known
     * one and a failing mail server look the same to the caller (no account enumeration). A failed
     * delivery is logged; {@link mailSettled} waits for deliveries in flight.
     */
    async sendResetCode(email: string): Promise<Record<string, never>> {
      const user = await repo.findLiveUserByEmail(db, email);
      if (!user) return {};
      const code = newResetCode();
      const id = newId();
      const now = clock.now();
      await db.transaction(async (tx) => {
        await repo.retireResetCodes(tx, user.id, new Date(now));
        await repo.insertResetCode(tx, {
          id,
          userId: user.id,
          codeHash: hashResetCode(id, code),
          createdAt: new Date(now),
          expiresAt: new Date(now + RESET_CODE_TTL_SECONDS * 1000),
        });
      });
      const delivery = deps.mail.send({ to: user.email, ...resetMail(code) }).then(
        (sent) => log.info({ userId: user.id, mail: sent.location }, 'reset code mailed'),
        (err: unknown) => log.error({ userId: user.id, err }, 'reset code mail failed'),
      );
      pendingMail.add(delivery);
      void delivery.finally(() => pendingMail.delete(delivery));
      return {};
    },

    /** Resolves once every reset mail accepted so far has been delivered or has failed. */
    async mailSettled(): Promise<void> {
      await Promise.all([...pendingMail, deps.mailQueue?.settled()]);
    },

    /**
     * `password/forget {email, code, password}` (product §12 and §17): checks the user's newest code and,
     * when it matches, sets the new password digest, marks the code used (single use) and revokes
     * every session. A wrong code counts a try; a code is dead after RESET_CODE_MAX_TRIES tries or
     * RESET_CODE_TTL_SECONDS. Tries are counted under a row lock, so parallel guesses cannot
     * exceed the limit.
     * @returns `{}`
     * @throws AppError INVALID_CREDENTIALS with {@link RESET_CODE_INVALID} for any failure
     */
    async resetPassword(input: { email: string; code: string; password: string }): Promise<Record<string, never>> {
      const user = await repo.findLiveUserByEmail(db, input.email);
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        if (!user) return 'invalid';
        const row = await repo.lockLatestResetCode(tx, user.id);
        if (!row || row.expiresAt.getTime() <= now || row.tries >= RESET_CODE_MAX_TRIES) return 'invalid';
        if (!resetCodeMatches(row.id, input.code, row.codeHash)) {
          await repo.updateResetCode(tx, row.id, { tries: row.tries + 1 });
          return 'invalid';
        }
        await repo.updateResetCode(tx, row.id, { tries: row.tries + 1, usedAt: new Date(now) });
        await this.setPassword(user.id, input.password, tx);
        return 'reset';
      });
      if (outcome !== 'reset') throw errors.invalidCredentials(RESET_CODE_INVALID);
      // Again after the commit (and on every instance): a request between the revocation and the commit may have re-cached a session.
      await broadcast({ kind: 'user', userId: user!.id });
      return {};
    },

    /**
     * Deletes the account (product §12, docs/abuse.md "Account deletion"). The cheap refusals come
     * first and need no password (available + frozen > 0, a guard: withdrawal in flight, deposit bill
     * still Processing), so no answer tells whether a password was right; then the password (shared
     * budget); then, in one transaction with the user's balance rows locked (`FOR UPDATE`, so no
     * posting lands while deciding), the refusals again, the deletion hooks, the renaming and the
     * revocation of every session (on every instance). A payment for an expired bill that arrives
     * later is still credited to the (deleted) account's balance: never lost.
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
      await this.checkPassword(userId, digest);
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
      await broadcast({ kind: 'user', userId });
      return {};
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;

/**
 * Signing up, in and out, and passwords (product §7 account table, §12, §17, §26): `register`,
 * `login`, `login/2fa`, `logout`, `password/change`, and the forgotten-password reset (`send_mail`,
 * `password/forget`).
 *
 * Passwords arrive as lower-case MD5 hex digests (validated by the contract) and are stored as
 * argon2id (passwords.ts). Wrong sign-ins are counted per (account, address) and per account
 * (login-guard.ts); a right password with two-factor sign-in on answers a challenge for `login/2fa`
 * (two-factor.service.ts). A sign-in from a device new to the account mails the user. Forgotten
 * passwords are reset with a 6-digit code mailed through the configured mail provider
 * (reset-codes.ts). Sessions are opened and revoked through the sessions service; rate limits of
 * the calls are in account.limits.ts.
 */
import { LOGIN_CHALLENGE_TTL_SECONDS, RESET_CODE_MAX_TRIES, RESET_CODE_TTL_SECONDS } from '@coffer/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { findPgError, PG } from '../../lib/pg-errors';
import { memoryCounters } from '../../lib/shared-state';
import type { MailProvider } from '../../providers/mail/index';
import type { LedgerService } from '../ledger/ledger.service';
import type { MailQueue } from '../mail/mail-queue.service';
import { refuseSuspended } from '../moderation/suspension';
import * as repo from './account.repository';
import type { Credentials } from './credentials';
import { deviceKey, deviceLabel, USER_AGENT_MAX } from './devices';
import { createLoginGuard, KNOWN_ADDRESS_DAYS, type LoginGuard } from './login-guard';
import { dummyHash, hashPasswordDigest, verifyPasswordDigest } from './passwords';
import { hashResetCode, newResetCode, resetCodeMatches } from './reset-codes';
import * as security from './security.repository';
import type { ClientInfo, SessionsService } from './sessions.service';
import { hashToken, newToken } from './tokens';
import { CODE_REQUIRED, type TwoFactorService } from './two-factor.service';

/** The one answer to every failed reset (unknown email, no code, wrong, expired, used up): no account enumeration. */
export const RESET_CODE_INVALID = 'Invalid or expired code';

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

export interface AuthDeps {
  db: Db;
  clock: Clock;
  /** Opens the new user's ledger accounts in the sign-up's transaction. */
  ledger: Pick<LedgerService, 'openUserAccounts'>;
  /** The password check of `password/change`. */
  credentials: Credentials;
  /** Whether a sign-in needs a second step, and the check of its code. */
  twoFactor: Pick<TwoFactorService, 'enabledRow' | 'checkCode'>;
  /** Opens sessions and revokes them on every instance. */
  sessions: Pick<SessionsService, 'issue' | 'broadcast' | 'forget'>;
  /** Sends the reset-code mails (product §11: outbox or SMTP). */
  mail: MailProvider;
  /**
   * Queues the new-device notices in the sign-in's transaction (docs/decisions/0032-mail-queue.md);
   * without it they are sent through `mail` after the answer.
   */
  mailQueue?: MailQueue;
  /** Reports mails sent or failed. It is never given a code, token or password digest. */
  log?: Pick<FastifyBaseLogger, 'info' | 'error'>;
  /** Wrong sign-ins per (account, address) and per account (login-guard.ts); memory counters when absent. */
  loginGuard?: LoginGuard;
}

export function createAuthService(deps: AuthDeps) {
  const { db, clock, ledger, credentials, twoFactor, sessions } = deps;
  const log = deps.log ?? { info: () => undefined, error: () => undefined };
  const loginGuard = deps.loginGuard ?? createLoginGuard(memoryCounters(() => clock.now()));
  /** Mails being delivered (they leave after the answer, see `sendResetCode`). */
  const pendingMail = new Set<Promise<void>>();

  /** Sends a mail after the answer; a failure is logged. `mailSettled` waits for it. */
  function mailLater(to: string, mail: { subject: string; text: string }, userId: string, what: string): void {
    const delivery = deps.mail.send({ to, ...mail }).then(
      (sent) => log.info({ userId, mail: sent.location }, `${what} mailed`),
      (err: unknown) => log.error({ userId, err }, `${what} mail failed`),
    );
    pendingMail.add(delivery);
    void delivery.finally(() => pendingMail.delete(delivery));
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
      const token = await sessions.issue(user.id, tx, client);
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

  /** Sets a new password (reset flow) and revokes every session (inside `tx` when given). */
  async function setPassword(userId: string, newDigest: string, tx?: Tx): Promise<void> {
    const passwordHash = await hashPasswordDigest(newDigest);
    await repo.updateUser(tx ?? db, userId, { passwordHash });
    await repo.revokeAllSessions(tx ?? db, userId, new Date(clock.now()));
    if (tx) sessions.forget({ kind: 'user', userId });
    else await sessions.broadcast({ kind: 'user', userId });
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
          return { access_token: await sessions.issue(user.id, tx, client) };
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
      if (await twoFactor.enabledRow(user.id)) {
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
     * @throws CONFLICT when the challenge is unknown, used or expired ('sign in again'), RATE_LIMITED, INVALID_CREDENTIALS (two-factor.service.ts WRONG_CODE)
     */
    async loginTwoFactor(input: { challenge: string; code: string }, client: ClientInfo = {}) {
      const expired = () => errors.conflict('This sign-in has expired. Please enter your password again.');
      const challenge = await security.findLiveChallenge(db, hashToken(input.challenge), new Date(clock.now()));
      if (!challenge) throw expired();
      const user = await repo.findUserById(db, challenge.userId);
      const row = user && !user.deletedAt ? await twoFactor.enabledRow(user.id) : null;
      if (!user || !row) throw expired();
      await twoFactor.checkCode(row, input.code);
      if (!(await security.consumeChallenge(db, challenge.id, new Date(clock.now())))) throw expired();
      return signIn(user, client);
    },

    /** Revokes the current session, on every instance at once. */
    async logout(sessionId: string) {
      await repo.revokeSession(db, sessionId, new Date(clock.now()));
      await sessions.broadcast({ kind: 'session', sessionId });
      return {};
    },

    /**
     * Changes the password, revokes every session and returns a fresh token.
     * @throws INVALID_CREDENTIALS when the old password is wrong
     */
    async changePassword(userId: string, oldDigest: string, newDigest: string) {
      await credentials.checkPassword(userId, oldDigest);
      const passwordHash = await hashPasswordDigest(newDigest);
      const fresh = await db.transaction(async (tx) => {
        await repo.updateUser(tx, userId, { passwordHash });
        await repo.revokeAllSessions(tx, userId, new Date(clock.now()));
        return { access_token: await sessions.issue(userId, tx) };
      });
      await sessions.broadcast({ kind: 'user', userId });
      return fresh;
    },

    setPassword,

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
     * delivery is logged; `mailSettled` waits for deliveries in flight.
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

    /** Resolves once every reset and new-device mail accepted so far has been delivered or has failed (and the queue's sends). */
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
        await setPassword(user.id, input.password, tx);
        return 'reset';
      });
      if (outcome !== 'reset') throw errors.invalidCredentials(RESET_CODE_INVALID);
      // Again after the commit (and on every instance): a request between the revocation and the commit may have re-cached a session.
      await sessions.broadcast({ kind: 'user', userId: user!.id });
      return {};
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

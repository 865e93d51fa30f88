/**
 * Two-factor sign-in (product §26): `2fa/status`, `2fa/setup`, `2fa/enable`, `2fa/disable`, and the
 * code checks the other account services ask for (the second step of `login/2fa`, the step-up of a
 * spend, the second factor of `withdraw/confirm`).
 *
 * Secrets are TOTP (RFC 6238, 30 s steps) stored sealed with the two-factor key; a code is right
 * once (the step used is recorded, so a replay is wrong) and ten single-use recovery codes stand in
 * for it (only their HMACs are kept). Every wrong code spends the user's shared password budget
 * (credentials.ts). The TOTP and sealing helpers are in two-factor.ts.
 */
import { WRONG_CODE_MESSAGE, type TwoFactorStatus } from '@coffer/contract';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Credentials } from './credentials';
import * as security from './security.repository';
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

/** The message of a wrong, replayed or used-up two-factor or recovery code (shares the password budget). */
export const WRONG_CODE = WRONG_CODE_MESSAGE;
/** TWO_FACTOR_REQUIRED's message, at login and at withdraw/confirm without a code. */
export const CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app';

export interface TwoFactorDeps {
  db: Db;
  clock: Clock;
  /** The live account, the password check and the shared budget codes spend from. */
  credentials: Credentials;
  /**
   * The 32-byte key that seals TOTP secrets and keys recovery-code hashes (two-factor.ts,
   * `twoFactorKey`); default: a random key for this process only (tests that build the service alone).
   */
  twoFactorKey?: Buffer;
}

export function createTwoFactorService(deps: TwoFactorDeps) {
  const { db, clock, credentials } = deps;
  const { passwordBudget } = credentials;
  const twoFactorKey = deps.twoFactorKey ?? randomBytes(32);

  /** The user's enabled two-factor row, or null when two-factor sign-in is off. */
  async function enabledRow(userId: string): Promise<security.TwoFactorRow | null> {
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

  return {
    enabledRow,
    checkCode,

    /** `2fa/status`: whether two-factor sign-in is on and how many recovery codes are unused. */
    async twoFactorStatus(userId: string): Promise<TwoFactorStatus> {
      const row = await enabledRow(userId);
      return { enabled: Boolean(row), recovery_codes_left: row ? await security.countRecoveryCodesLeft(db, userId) : 0 };
    },

    /**
     * `2fa/setup`: a new secret (sealed in the database, not active) and its otpauth URI.
     * @throws CONFLICT when two-factor sign-in is already on
     */
    async twoFactorSetup(userId: string): Promise<{ otpauth_uri: string; secret: string }> {
      const user = await credentials.liveUser(userId);
      if (await enabledRow(userId)) throw errors.conflict('Two-factor sign-in is already on');
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
      const row = await enabledRow(userId);
      if (!row) throw errors.conflict('Two-factor sign-in is off');
      await credentials.checkPassword(userId, input.password);
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
      const row = await enabledRow(userId);
      if (!row) return;
      if (!code) throw errors.twoFactorRequired(CODE_REQUIRED);
      await checkCode(row, code);
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

/**
 * The live account and its password check, shared by the account module's services (auth,
 * two-factor, sessions, profile): built once by the composition root (services.ts), so that every
 * proof a user gives — the login password on a signed-in call, a two-factor or recovery code —
 * spends from one password budget (password-budget.ts: 10 wrong in 15 minutes per user, across
 * every call and instance).
 */
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { memoryCounters } from '../../lib/shared-state';
import * as repo from './account.repository';
import { createPasswordBudget, type PasswordBudget } from './password-budget';
import { verifyPasswordDigest } from './passwords';

export interface CredentialsDeps {
  db: Db;
  clock: Clock;
  /** The shared per-user password budget; default: in this process's memory (tests that build the services alone). */
  passwordBudget?: PasswordBudget;
}

export function createCredentials(deps: CredentialsDeps) {
  const { db, clock } = deps;
  const passwordBudget = deps.passwordBudget ?? createPasswordBudget(memoryCounters(() => clock.now()));

  /** The user's row when the account exists and is not deleted. @throws NOT_FOUND 'Record does not exist' */
  async function liveUser(userId: string): Promise<repo.UserRow> {
    const user = await repo.findUserById(db, userId);
    if (!user || user.deletedAt) throw errors.notFound('Record does not exist');
    return user;
  }

  return {
    liveUser,

    /** The budget two-factor and recovery codes spend from too (product §26). */
    passwordBudget,

    /**
     * Verifies a password digest for the user, spending from the user's shared password budget
     * (password-budget.ts: 10 wrong in 15 minutes across every call and instance).
     * @throws NOT_FOUND, RATE_LIMITED when the budget is spent, INVALID_CREDENTIALS 'Incorrect password'
     */
    async checkPassword(userId: string, digest: string): Promise<void> {
      const user = await liveUser(userId);
      await passwordBudget.check(userId, () => verifyPasswordDigest(user.passwordHash, digest));
    },
  };
}

export type Credentials = ReturnType<typeof createCredentials>;

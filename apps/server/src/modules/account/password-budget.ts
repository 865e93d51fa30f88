/**
 * One password budget per user (docs/abuse.md, "Password guessing"): every signed-in call that
 * checks the login password — `account/delete`, `password/change`, `order/pay` (with a password) and
 * `withdraw/confirm` — and every two-factor code (product §26) spends from the same budget of {@link PASSWORD_BUDGET_MAX} wrong passwords in
 * {@link PASSWORD_BUDGET_WINDOW_MS} (a fixed window from the first wrong one).
 *
 * Atomic: each check first reserves one attempt in the counter store (Redis with `REDIS_URL`, so all
 * instances share it; memory otherwise), then evaluates the password; a right password gives the
 * attempt back. So 30 parallel wrong tries evaluate at most 10 passwords, and the rest answer
 * RATE_LIMITED without the password being looked at. Once spent, right passwords are refused too
 * until the window ends (nothing tells a guesser that a guess was right).
 */
import { errors } from '../../lib/errors';
import type { CounterStore } from '../../lib/shared-state';

/** Wrong passwords allowed per user per window. */
export const PASSWORD_BUDGET_MAX = 10;
/** The window, in milliseconds (15 minutes). */
export const PASSWORD_BUDGET_WINDOW_MS = 15 * 60_000;

export interface PasswordBudget {
  /**
   * Spends one attempt of `userId`'s budget on `evaluate` (true: the password is right).
   * @throws AppError RATE_LIMITED when the budget is spent (the password is not evaluated),
   *   INVALID_CREDENTIALS `wrongMessage` ('Incorrect password' by default) when `evaluate` answers false.
   *   Two-factor codes spend from the same budget with their own message (product §26).
   */
  check(userId: string, evaluate: () => Promise<boolean>, wrongMessage?: string): Promise<void>;
}

export function createPasswordBudget(
  counters: CounterStore,
  max = PASSWORD_BUDGET_MAX,
  windowMs = PASSWORD_BUDGET_WINDOW_MS,
): PasswordBudget {
  return {
    async check(userId, evaluate, wrongMessage = 'Incorrect password') {
      const key = `pwd:${userId}`;
      const reservation = await counters.reserve(key, max, windowMs);
      if (!reservation.allowed) {
        const minutes = Math.max(1, Math.ceil(reservation.resetInMs / 60_000));
        throw errors.rateLimited(`Too many wrong passwords. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
      }
      let right: boolean;
      try {
        right = await evaluate();
      } catch (err) {
        await counters.release(key);
        throw err;
      }
      if (right) {
        await counters.release(key);
        return;
      }
      throw errors.invalidCredentials(wrongMessage);
    },
  };
}

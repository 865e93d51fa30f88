/**
 * Wrong sign-ins (docs/abuse.md "Password guessing", docs/decisions/0050-sign-in-failures-per-address.md).
 *
 * A limit on every attempt per account lets anyone who knows a username lock its owner out: ten
 * wrong tries a minute and the owner's right password answered 429 too. So `login` counts
 * **failures**, not attempts, and counts them in two places:
 *
 * - **Per (account, client address)**: {@link LOGIN_FAILURES_PER_ADDRESS} wrong passwords in
 *   {@link LOGIN_FAILURE_WINDOW_MS} from one address shut that address out of that account until the
 *   window ends (429, `Retry-After`). Another address, the owner's, is not affected.
 * - **Per account, all addresses**: past {@link LOGIN_FAILURES_BEFORE_SLOW} wrong passwords in an
 *   hour (a guesser with many addresses), the account is **slowed**, not locked: addresses that have
 *   not signed in to it within {@link KNOWN_ADDRESS_DAYS} days share one attempt per
 *   {@link SLOW_INTERVAL_MS} (the others answer 429 with `Retry-After`), so a botnet gets about 140
 *   guesses an hour in all; an address the owner signed in from before is not slowed.
 *
 * Each attempt first reserves a failure atomically (the counter store: Redis with `REDIS_URL`, shared
 * by every instance; memory otherwise), then checks the password; a right password gives the
 * reservation back, so only wrong ones stay counted. The key of an account is its user id when the
 * username or email names one (so `Ada` and `ada@example.com` are one account) and the lower-cased
 * name otherwise. The per-address limit of `login` (30 a minute, account.limits.ts) stays.
 */
import { errors } from '../../lib/errors';
import type { CounterStore } from '../../lib/shared-state';

/** Wrong passwords one client address may send to one account per window. */
export const LOGIN_FAILURES_PER_ADDRESS = 10;
/** The per-address window, fixed from the first failure, in milliseconds (15 minutes). */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** Wrong passwords to one account, from all addresses, in {@link ACCOUNT_FAILURE_WINDOW_MS} before it is slowed. */
export const LOGIN_FAILURES_BEFORE_SLOW = 20;
/** The account-wide window, fixed from the first failure, in milliseconds (1 hour). */
export const ACCOUNT_FAILURE_WINDOW_MS = 60 * 60_000;
/** A slowed account takes one attempt from unknown addresses per this many milliseconds (30 s). */
export const SLOW_INTERVAL_MS = 30_000;
/** An address a session of the account was opened from within this many days is known. */
export const KNOWN_ADDRESS_DAYS = 90;

export interface LoginGuard {
  /**
   * Runs `attempt` (the password check: true when right) under the failure limits of `account` from
   * `address`.
   * @param account the user id, or `name:<lower-cased username or email>` when none matches
   * @param knownAddress asked only when the account is slowed: whether `address` signed in to it before
   * @throws AppError RATE_LIMITED (with `retryAfterSeconds` for the `Retry-After` header) before
   *   `attempt` runs; whatever `attempt` throws
   * @returns what `attempt` returned
   */
  check(account: string, address: string, knownAddress: () => Promise<boolean>, attempt: () => Promise<boolean>): Promise<boolean>;
}

export function createLoginGuard(counters: CounterStore): LoginGuard {
  const refuse = (ms: number) => errors.rateLimited(undefined, Math.max(1, Math.ceil(ms / 1000)));
  return {
    async check(account, address, knownAddress, attempt) {
      const pair = `login-fail:${account}:${address}`;
      const whole = `login-fail:${account}`;
      const mine = await counters.reserve(pair, LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURE_WINDOW_MS);
      if (!mine.allowed) throw refuse(mine.resetInMs);
      const all = await counters.reserve(whole, LOGIN_FAILURES_BEFORE_SLOW, ACCOUNT_FAILURE_WINDOW_MS);
      // Slowed: unknown addresses share one attempt per SLOW_INTERVAL_MS; known ones go on.
      if (!all.allowed && !(await knownAddress())) {
        const slot = await counters.reserve(`login-slow:${account}`, 1, SLOW_INTERVAL_MS);
        if (!slot.allowed) {
          await counters.release(pair);
          throw refuse(slot.resetInMs);
        }
      }
      let right: boolean;
      try {
        right = await attempt();
      } catch (err) {
        await counters.release(pair);
        if (all.allowed) await counters.release(whole);
        throw err;
      }
      if (right) {
        await counters.release(pair);
        if (all.allowed) await counters.release(whole);
      }
      return right;
    },
  };
}

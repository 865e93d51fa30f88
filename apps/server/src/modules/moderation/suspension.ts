/**
 * The sign-in and cash-out check of a suspended account (product §27). Pure: the caller passes the
 * user row it already read, so login costs no extra query.
 */
import { AppError } from '../../lib/errors';

/** The message a suspended user reads at sign-in and on a refused cash-out. */
export function suspendedMessage(reason: string | null): string {
  return `Your account is suspended by Coffer${reason ? `: ${reason}` : ''}. Your balance is kept; contact support to have the suspension lifted.`;
}

/**
 * Refuses a suspended account.
 * @param user the user row (`suspendedAt`, `suspendedReason` of the users table)
 * @throws AppError ACCOUNT_SUSPENDED (HTTP 403) with {@link suspendedMessage}
 */
export function refuseSuspended(user: { suspendedAt: Date | null; suspendedReason: string | null }): void {
  if (user.suspendedAt) throw new AppError('ACCOUNT_SUSPENDED', suspendedMessage(user.suspendedReason));
}

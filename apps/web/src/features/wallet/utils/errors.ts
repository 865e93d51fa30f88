/**
 * Failure texts of the money screens (SPEC 7/8: "a failed call shows a toast with the server msg
 * or the fallback text listed in section 8"): the server's `msg` when it sent one, else the
 * screen's own fallback (e.g. 'Failed to check status'); 403, 404 and 5xx keep the client's generic
 * texts (SPEC 8); a failure that ended the session shows nothing more.
 */
import toast from 'react-hot-toast';
import { ApiError } from '../../../lib/api-client';

export function walletErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.status === 403 || error.status === 404 || error.status >= 500) return error.message || fallback;
    return error.msg || fallback;
  }
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/** Toasts {@link walletErrorMessage} unless the failure ended the session. */
export function toastWalletError(error: unknown, fallback: string): void {
  if (error instanceof ApiError && error.sessionExpired) return;
  toast.error(walletErrorMessage(error, fallback));
}

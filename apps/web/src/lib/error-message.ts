/**
 * The one failure-text policy of the web (product §7/§8: "a failed call shows a toast with the server
 * msg or the fallback text listed in section 8"). lib/api-client.ts applies it in
 * `getErrorMessage` and `toastError`; screens pick whose words they prefer:
 * - 'client' (the default): the call's message as product §8 maps it (403, 404 and 5xx the client's
 *   texts; else the server msg; else 'A business logic error occurred...'), or `fallback` when
 *   it has none;
 * - 'server' (money screens, My Collections): 403, 404 and 5xx still read as the client's texts,
 *   any other failure shows the server's msg, or the screen's own `fallback` (e.g. 'Failed to
 *   check status') when the server sent none.
 * An error that is not a failed call shows its own message, else `fallback`.
 */

/** What the policy reads of a failed call (lib/api-client.ts's ApiError). */
export interface FailedCall {
  /** HTTP status; 0 when no answer arrived. */
  status: number;
  /** The envelope's msg ('' when none). */
  msg: string;
  /** The text product §8's rules chose for the failure. */
  message: string;
}

/** Whose words a screen shows for a failure that is not 403, 404 or 5xx. */
export type MessagePreference = 'client' | 'server';

/** 403, 404 and 5xx always read as the client's own texts (product §8). */
const clientWorded = (status: number): boolean => status === 403 || status === 404 || status >= 500;

/**
 * @param error what was thrown
 * @param call the failed call when `error` is one (an ApiError), else null
 * @param fallback the text when nothing better is known
 */
export function failureMessage(
  error: unknown,
  call: FailedCall | null,
  fallback: string,
  prefer: MessagePreference = 'client',
): string {
  if (call) {
    if (prefer === 'client' || clientWorded(call.status)) return call.message || fallback;
    return call.msg || fallback;
  }
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

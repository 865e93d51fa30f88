/**
 * Who a request is from, once authenticated (`req.auth`, set by plugins/auth.ts; product §12). Here,
 * below the plugins, so the route layer (lib/route.ts) and the modules can name it.
 */
import type { TokenScope } from '@coffer/contract';

export interface AuthContext {
  userId: string;
  /** The session's id; for a personal access token, the token's id (there is no session row then). */
  sessionId: string;
  /** When the holder last proved it is them on this session (ms; null: never), product.md "Step-up". */
  steppedUpAt?: number | null;
  /**
   * Present when the caller sent a personal access token (`coffer_pat_...`, ADR 0058) instead of a
   * session: its id and the scopes it holds.
   */
  token?: { id: string; scopes: readonly TokenScope[] };
}

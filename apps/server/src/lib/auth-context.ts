/**
 * Who a request is from, once authenticated (`req.auth`, set by plugins/auth.ts; product §12). Here,
 * below the plugins, so the route layer (lib/route.ts) and the modules can name it.
 */
export interface AuthContext {
  userId: string;
  sessionId: string;
  /** When the holder last proved it is them on this session (ms; null: never), product.md "Step-up". */
  steppedUpAt?: number | null;
}

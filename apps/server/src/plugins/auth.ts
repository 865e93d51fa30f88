/**
 * Bearer authentication (product §12, personal access tokens: docs/decisions/0058, 0059).
 *
 * `app.authFor(mode, scope)` builds the preHandler of a call of the endpoint table:
 * - 'required': 401 UNAUTHORIZED for a missing, unknown, expired or revoked session or token;
 * - 'optional': visitors go through, a bad credential reads as none.
 * A `coffer_pat_...` bearer is resolved by `resolveAccessToken` to its user and scopes; it must hold
 * the call's `scope`, else 403 INSUFFICIENT_SCOPE with `data.scope`; on a call whose scope is null
 * (a signed-in session only) it answers 403 INSUFFICIENT_SCOPE with `data.scope: null`.
 * `app.requireAuth` and `app.optionalAuth` are `authFor(mode, null)`: sessions only.
 * Both spellings are read: `Authorization: Bearer <token>` and a bare token.
 */
import { AppError, errors } from '../lib/errors';
import { TOKEN_PREFIX, type TokenScope } from '@coffer/contract';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthContext } from '../lib/auth-context';

export type { AuthContext } from '../lib/auth-context';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    requireAuth: preHandlerAsyncHookHandler;
    optionalAuth: preHandlerAsyncHookHandler;
    /**
     * The caller of a request (its bearer resolved to a session or an access token), or null;
     * resolved once per request, so the API budget's onRequest and the call's preHandler share one
     * lookup (an unknown token costs one database read, not two). Rejects when the lookup fails.
     */
    authOf(req: FastifyRequest): Promise<AuthContext | null>;
    /** The preHandler of a call: `mode` as in the endpoint table, `scope` the token scope it needs (null: sessions only). */
    authFor(mode: 'required' | 'optional', scope: TokenScope | null): preHandlerAsyncHookHandler;
  }
}

/** Reads the token from the Authorization header, or null. */
export function tokenFrom(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : header.trim();
  return token && token.length <= 256 ? token : null;
}

export interface AuthPluginOptions {
  /** Resolves a session token to its live session, or null. */
  resolve(token: string): Promise<AuthContext | null>;
  /** Resolves a `coffer_pat_` token to its user and scopes, or null (malformed, unknown, expired, revoked). */
  resolveAccessToken(token: string): Promise<AuthContext | null>;
}

/** The refusal of a token on a call it may not make (ADR 0059). */
export function insufficientScope(scope: TokenScope | null): AppError {
  return new AppError(
    'INSUFFICIENT_SCOPE',
    scope
      ? `This access token does not have the ${scope} scope this call needs.`
      : 'This call needs a signed-in session; access tokens cannot use it.',
    { data: { scope } },
  );
}

export const authPlugin = fp<AuthPluginOptions>(async (app: FastifyInstance, opts) => {
  const resolve = (token: string) =>
    token.startsWith(TOKEN_PREFIX) ? opts.resolveAccessToken(token) : opts.resolve(token);

  const resolved = new WeakMap<FastifyRequest, Promise<AuthContext | null>>();
  const authOf = (req: FastifyRequest): Promise<AuthContext | null> => {
    let auth = resolved.get(req);
    if (!auth) {
      const token = tokenFrom(req);
      auth = token ? resolve(token) : Promise.resolve(null);
      resolved.set(req, auth);
    }
    return auth;
  };

  app.decorateRequest('auth', null);
  app.decorate('authOf', authOf);
  app.decorate('authFor', (mode: 'required' | 'optional', scope: TokenScope | null) => async (req: FastifyRequest) => {
    const auth = await authOf(req);
    if (!auth && mode === 'required') throw errors.unauthorized();
    if (auth?.token && (scope === null || !auth.token.scopes.includes(scope))) throw insufficientScope(scope);
    req.auth = auth;
  });
  app.decorate('requireAuth', app.authFor('required', null));
  app.decorate('optionalAuth', app.authFor('optional', null));
});

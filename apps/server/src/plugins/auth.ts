/**
 * Bearer-token authentication (product §12). `app.requireAuth` answers 401 with reason UNAUTHORIZED
 * for a missing, unknown, expired or revoked token; `app.optionalAuth` lets visitors through.
 * Both accept `Authorization: Bearer <token>` and a bare token.
 */
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthContext } from '../lib/auth-context';
import { errors } from '../lib/errors';

export type { AuthContext } from '../lib/auth-context';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    requireAuth: preHandlerAsyncHookHandler;
    optionalAuth: preHandlerAsyncHookHandler;
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
  /** Resolves a token to its live session, or null. */
  resolve(token: string): Promise<AuthContext | null>;
}

export const authPlugin = fp<AuthPluginOptions>(async (app: FastifyInstance, opts) => {
  app.decorateRequest('auth', null);
  app.decorate('requireAuth', async (req: FastifyRequest) => {
    const token = tokenFrom(req);
    const auth = token ? await opts.resolve(token) : null;
    if (!auth) throw errors.unauthorized();
    req.auth = auth;
  });
  app.decorate('optionalAuth', async (req: FastifyRequest) => {
    const token = tokenFrom(req);
    req.auth = token ? await opts.resolve(token) : null;
  });
});

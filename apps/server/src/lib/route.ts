/**
 * `defineRoute`: one POST call of the API with its body and `data` schemas from the contract
 * (STYLE habit 3). The handler returns `data`; the route answers `{code: 10000, msg, data}`.
 * Unknown body fields are stripped by zod's default object parsing.
 */
import { ok } from '@coffer/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z, type ZodType } from 'zod';
import type { AuthContext } from '../plugins/auth';

export interface RouteOptions<B extends ZodType, D extends ZodType> {
  /** Full path(s), e.g. '/api/uc/v1/account/login' or both '/sl/v1/x' and '/api/sl/v1/x'. */
  path: string | string[];
  body: B;
  data: D;
  /** 'required': 401 UNAUTHORIZED without a valid session; 'optional': `auth` may be null. */
  auth?: 'required' | 'optional' | 'none';
  summary?: string;
  tags?: string[];
  /** Per-route rate limit (@fastify/rate-limit options). */
  rateLimit?: { max: number; timeWindow: number | string; keyGenerator?: (req: FastifyRequest) => string | Promise<string> };
}

export interface RouteContext<B extends ZodType, A> {
  body: z.output<B>;
  auth: A;
  req: FastifyRequest;
  reply: FastifyReply;
}

type AuthOf<O> = O extends { auth: 'required' } ? AuthContext : AuthContext | null;

/** Registers a POST route answering in the envelope. */
export function defineRoute<B extends ZodType, D extends ZodType, O extends RouteOptions<B, D>>(
  app: FastifyInstance,
  options: O & RouteOptions<B, D>,
  handler: (ctx: RouteContext<B, AuthOf<O>>) => Promise<z.input<D>>,
): void {
  const paths = Array.isArray(options.path) ? options.path : [options.path];
  const envelope = z.object({ code: z.literal(10000), msg: z.string(), data: options.data });
  const authMode = options.auth ?? 'none';
  for (const url of paths) {
    app.route({
      method: 'POST',
      url,
      schema: {
        body: options.body,
        response: { 200: envelope },
        summary: options.summary,
        tags: options.tags,
        ...(authMode === 'required' ? { security: [{ bearerAuth: [] }] } : {}),
      },
      config: options.rateLimit ? { rateLimit: options.rateLimit } : { rateLimit: false },
      preHandler: authMode === 'none' ? undefined : authMode === 'required' ? app.requireAuth : app.optionalAuth,
      handler: async (req, reply) => {
        const data = await handler({
          body: req.body as z.output<B>,
          auth: (req.auth ?? null) as AuthOf<O>,
          req,
          reply,
        });
        return ok(data);
      },
    });
  }
}

/** Both spellings of a collection/file call (DESIGN 3): `/sl/v1/x` and `/api/sl/v1/x`. */
export const slPath = (p: string): string[] => [`/sl/v1${p}`, `/api/sl/v1${p}`];
/** An account call: `/api/uc/v1/account/x`. */
export const ucPath = (p: string): string => `/api/uc/v1/account${p}`;

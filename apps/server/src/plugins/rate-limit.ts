/**
 * Rate limits keyed by something in the request body (product §12: "Login and reset-code calls are
 * rate limited per account and per IP").
 *
 * Per-IP limits use @fastify/rate-limit's route option (`defineEndpoint(app, key, { rateLimit }, handler)`), which runs
 * before the body is parsed. Per-account limits need the validated body, so {@link bodyLimiter}
 * builds a check with the same plugin's `createRateLimit` that a handler awaits first.
 *
 * Counters live in the plugin's store: the shared Redis with `REDIS_URL`, else this process's memory.
 * Each limit that applied is reported in the `RateLimit*` headers (plugins/api-budget.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../lib/errors';
import { noteRatePolicy } from './api-budget';

export interface BodyLimit {
  /** Attempts allowed per key within `timeWindowMs`. */
  max: number;
  /** Length of the fixed window, in milliseconds. */
  timeWindowMs: number;
  /** The key of the request, e.g. the lower-cased email in the body. */
  key(req: FastifyRequest): string;
  /** The policy's name in the `RateLimit*` headers (plugins/api-budget.ts), e.g. `sendMail-account`. */
  name: string;
}

/**
 * Returns a check that counts one attempt under `limit.key(req)` and, past `max` attempts in the
 * window, sets `Retry-After` (seconds) and throws.
 * @throws AppError RATE_LIMITED (HTTP 429)
 */
export function bodyLimiter(app: FastifyInstance, limit: BodyLimit): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const check = app.createRateLimit({ max: limit.max, timeWindow: limit.timeWindowMs, keyGenerator: limit.key });
  return async (req, reply) => {
    const result = await check(req);
    if (!result.isAllowed)
      noteRatePolicy(req, {
        name: limit.name,
        quota: limit.max,
        windowSeconds: Math.ceil(limit.timeWindowMs / 1000),
        remaining: result.remaining,
        resetSeconds: result.ttlInSeconds,
      });
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', result.ttlInSeconds);
      throw errors.rateLimited();
    }
  };
}

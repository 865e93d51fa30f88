/**
 * The general per-client budget of the API and the rate-limit headers of every API answer
 * (docs/api.md "Rate limits", docs/decisions/0067-rate-limit-headers.md).
 *
 * - Budget: `API_RATE_LIMIT_MAX` requests per `API_RATE_LIMIT_WINDOW_SECONDS` (fixed window) per
 *   client, where the client is {@link budgetKey}: the signed-in user, else the client address.
 *   Counted in @fastify/rate-limit's store (`app.createRateLimit`): shared Redis with `REDIS_URL`,
 *   this process's memory otherwise. Past the budget a call answers 429 RATE_LIMITED with
 *   `Retry-After` before anything else runs.
 * - Headers (draft-ietf-httpapi-ratelimit-headers, structured fields): every answer under `/api/`
 *   and `/sl/` carries `RateLimit-Policy` with each policy that applied to the request
 *   (`"api";q=600;w=60, "login";q=30;w=60`) and `RateLimit` with the tightest of them (fewest
 *   requests left; on a tie the later reset): `"login";r=29;t=42`. `r` is requests left, `t` seconds
 *   until the window resets. A 429 always carries `Retry-After` (seconds).
 * - The policies come from: the budget; the per-route limits of `defineEndpoint` (login,
 *   reset codes, ...: @fastify/rate-limit's `x-ratelimit-*` headers, read here and replaced); and
 *   body-keyed limits that call {@link noteRatePolicy} (plugins/rate-limit.ts `bodyLimiter`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthContext } from '../lib/auth-context';
import { errors } from '../lib/errors';

/** One rate-limit policy as it applied to a request. */
export interface RatePolicy {
  /** Policy name, a token such as `api` or `login` (the operationId for per-route limits). */
  name: string;
  /** Requests allowed per window (`q`). */
  quota: number;
  /** Window length in seconds (`w`). */
  windowSeconds: number;
  /** Requests left in the current window after this one (`r`, never negative). */
  remaining: number;
  /** Seconds until the current window resets (`t`). */
  resetSeconds: number;
}

const policiesOf = new WeakMap<FastifyRequest, RatePolicy[]>();

/** Records a policy that applied to `req`, to be reported in its `RateLimit*` headers. */
export function noteRatePolicy(req: FastifyRequest, policy: RatePolicy): void {
  const list = policiesOf.get(req);
  if (list) list.push(policy);
  else policiesOf.set(req, [policy]);
}

/**
 * The budget key of a request: `user:<id>` when a valid session is sent, else `ip:<address>` (the
 * address Fastify derived under `TRUST_PROXY`). The seam for other credentials: a personal access
 * token can return `token:<hash>` here to get a budget of its own.
 */
export function budgetKey(req: FastifyRequest, auth: Pick<AuthContext, 'userId'> | null): string {
  return auth ? `user:${auth.userId}` : `ip:${req.ip}`;
}

/** Whether `url` is an API call (the budget and headers apply): under `/api/` or `/sl/`, but not the document's browser pages. */
export function isApiUrl(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  if (path.startsWith('/api/docs')) return false;
  return path.startsWith('/api/') || path.startsWith('/sl/');
}

/** The policy the headers report as `RateLimit`: fewest requests left; on a tie the later reset. */
export function tightest(policies: readonly RatePolicy[]): RatePolicy | null {
  let best: RatePolicy | null = null;
  for (const p of policies) {
    if (!best || p.remaining < best.remaining || (p.remaining === best.remaining && p.resetSeconds > best.resetSeconds)) best = p;
  }
  return best;
}

/** `RateLimit-Policy` value: `"name";q=<quota>;w=<window s>`, comma-separated. */
export function policyHeader(policies: readonly RatePolicy[]): string {
  return policies.map((p) => `"${p.name}";q=${p.quota};w=${p.windowSeconds}`).join(', ');
}

/** `RateLimit` value of one policy: `"name";r=<remaining>;t=<reset s>`. */
export function limitHeader(p: RatePolicy): string {
  return `"${p.name}";r=${p.remaining};t=${p.resetSeconds}`;
}

export interface ApiBudgetOptions {
  /** Requests one client may make per window. */
  max: number;
  /** Window length in seconds. */
  windowSeconds: number;
  /** The caller of a request, or null (the auth plugin's `authOf`: resolved once per request, cached). */
  resolve(req: FastifyRequest): Promise<AuthContext | null>;
}

const num = (v: unknown): number | null => {
  const n = Number(Array.isArray(v) ? v[0] : v);
  return Number.isFinite(n) ? n : null;
};

/** Registers the budget (onRequest) and the headers (onSend). Register after @fastify/rate-limit. */
export const apiBudgetPlugin = fp<ApiBudgetOptions>(async (app: FastifyInstance, opts) => {
  const keys = new WeakMap<FastifyRequest, string>();
  const check = app.createRateLimit({
    max: opts.max,
    timeWindow: opts.windowSeconds * 1000,
    keyGenerator: (req: FastifyRequest) => `api-budget:${keys.get(req) ?? `ip:${req.ip}`}`,
  });

  app.addHook('onRequest', async (req) => {
    if (!isApiUrl(req.url)) return;
    const auth = await opts.resolve(req).catch(() => null);
    keys.set(req, budgetKey(req, auth));
    const result = await check(req);
    if (result.isAllowed) return;
    noteRatePolicy(req, {
      name: 'api',
      quota: opts.max,
      windowSeconds: opts.windowSeconds,
      remaining: result.remaining,
      resetSeconds: result.ttlInSeconds,
    });
    if (result.isExceeded) throw errors.rateLimited(undefined, Math.max(1, result.ttlInSeconds));
  });

  app.addHook('onSend', async (req, reply, payload) => {
    if (!isApiUrl(req.url)) return payload;
    // In the order they applied: the budget, the route's limit, then limits keyed by the body.
    const noted = policiesOf.get(req) ?? [];
    const policies = noted.filter((p) => p.name === 'api');
    // A per-route limit of @fastify/rate-limit: its x-ratelimit-* headers become a named policy.
    const limit = num(reply.getHeader('x-ratelimit-limit'));
    if (limit !== null) {
      const config = req.routeOptions.config as { rateLimit?: { timeWindow?: unknown } } | undefined;
      const windowMs = num(config?.rateLimit?.timeWindow);
      const name = (req.routeOptions.schema as { operationId?: string } | undefined)?.operationId ?? 'route';
      policies.push({
        name,
        quota: limit,
        windowSeconds: windowMs === null ? 0 : Math.ceil(windowMs / 1000),
        remaining: num(reply.getHeader('x-ratelimit-remaining')) ?? 0,
        resetSeconds: num(reply.getHeader('x-ratelimit-reset')) ?? 0,
      });
      reply.removeHeader('x-ratelimit-limit');
      reply.removeHeader('x-ratelimit-remaining');
      reply.removeHeader('x-ratelimit-reset');
    }
    policies.push(...noted.filter((p) => p.name !== 'api'));
    const top = tightest(policies);
    if (top) {
      reply.header('ratelimit-policy', policyHeader(policies));
      reply.header('ratelimit', limitHeader(top));
    }
    if (reply.statusCode === 429 && !reply.hasHeader('retry-after')) {
      const wait = Math.max(1, ...policies.filter((p) => p.remaining === 0).map((p) => p.resetSeconds));
      reply.header('retry-after', String(wait));
    }
    return payload;
  });
});

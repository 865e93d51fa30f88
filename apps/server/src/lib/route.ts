/**
 * `defineEndpoint`: registers one call of the endpoint table (docs/decisions/0018-endpoint-table.md)
 * from its key: path(s), auth, summary and tags from `ENDPOINTS`, body and `data` schemas from
 * `ENDPOINT_SCHEMAS` (STYLE habit 3), `operationId` from the key. The handler returns `data`; the
 * route answers `{code: 10000, msg, data}`. Unknown body fields are stripped by zod's default
 * object parsing.
 *
 * `idempotent` calls honour an `Idempotency-Key` header (lib/idempotency.ts, ADR 0051): after the
 * session and the body are checked, the key is claimed for the caller (or its stored answer is sent
 * again with `Idempotent-Replayed: true`); the answer as sent is stored when it is a success, and
 * the key given up on any failure.
 *
 * A handler may answer with an {@link EncodedAnswer} made by its context's `encode`: the whole
 * envelope already encoded by the call's own response schema, sent as those bytes (for answers that
 * a read cache serves to many callers, encoded once per cached read: ADR 0071).
 */
import { ENDPOINT_SCHEMAS, ENDPOINTS, ok, type EndpointKey, type EndpointSchemasOf } from '@coffer/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from './auth-context';
import { parseIdempotencyKey, requestFingerprint, type IdempotencyClaim } from './idempotency';

/** The key each request of an idempotent call holds, from its claim to its answer. */
const claims = new WeakMap<FastifyRequest, IdempotencyClaim>();

/**
 * A whole answer (`{code: 10000, msg, data}`) already encoded as JSON by the call's response schema,
 * exactly the bytes Fastify's serializer would write for the same `data`. Made only by
 * `EndpointContext.encode`; the route sends `bytes` as they are.
 */
export class EncodedAnswer {
  /** @internal use `EndpointContext.encode` */
  constructor(readonly bytes: Buffer) {}
}

/** What a module adds to a table entry when registering it. */
export interface EndpointOptions {
  /** Per-route rate limit (@fastify/rate-limit options); none when absent. */
  rateLimit?: {
    max: number;
    timeWindow: number | string;
    keyGenerator?: (req: FastifyRequest) => string | Promise<string>;
    /** When the call is counted: 'onRequest' (default, every attempt) or 'preHandler' (after auth and body validation). */
    hook?: 'onRequest' | 'preHandler';
    /** Calls for which this returns true are neither counted nor limited. */
    allowList?: (req: FastifyRequest, key: string) => boolean;
  };
}

/** What a handler of call `K` receives: the parsed body and the caller (never null when auth is 'required'). */
export interface EndpointContext<K extends EndpointKey> {
  body: z.output<EndpointSchemasOf<K>['body']>;
  auth: EndpointAuthOf<K>;
  req: FastifyRequest;
  reply: FastifyReply;
  /**
   * Encodes `data` as this call's whole success answer, once, with the same schema and bytes as the
   * serializer (zod encode, then JSON.stringify), for a handler that keeps the result to answer many
   * requests with. Not for idempotent calls: their stored answer is the serializer's string.
   * @throws Error when `data` does not match the call's `data` schema (a bug: a 500)
   */
  encode(data: z.input<EndpointSchemasOf<K>['data']>): EncodedAnswer;
}

/** The caller as a handler of `K` sees it: an AuthContext for 'required' calls, else possibly null. */
export type EndpointAuthOf<K extends EndpointKey> = (typeof ENDPOINTS)[K]['auth'] extends 'required'
  ? AuthContext
  : AuthContext | null;

/**
 * The operationId of each registered path of a call: the key for the first path, `<key>Alias<n>`
 * for further spellings (OpenAPI wants operationIds unique across the document).
 */
export function operationIdFor(key: EndpointKey, index: number): string {
  return index === 0 ? key : `${key}Alias${index}`;
}

/**
 * Registers call `key` as POST on each of its paths, answering in the envelope.
 * 'required' calls answer 401 UNAUTHORIZED without a valid session or token; 'optional' calls read
 * one when sent; a personal access token must hold the call's `scope` (`app.authFor`, ADR 0059).
 */
export function defineEndpoint<K extends EndpointKey>(
  app: FastifyInstance,
  key: K,
  options: EndpointOptions,
  handler: (ctx: EndpointContext<K>) => Promise<z.input<EndpointSchemasOf<K>['data']> | EncodedAnswer>,
): void {
  const info = ENDPOINTS[key];
  const schemas: { body: z.ZodType; data: z.ZodType } = ENDPOINT_SCHEMAS[key];
  const envelope = z.object({ code: z.literal(10000), msg: z.string(), data: schemas.data });
  const encode = (data: unknown): EncodedAnswer => {
    const result = z.safeEncode(envelope, ok(data) as z.output<typeof envelope>);
    if (!result.success) throw new Error(`${key}: the answer does not match its response schema`, { cause: result.error });
    return new EncodedAnswer(Buffer.from(JSON.stringify(result.data)));
  };
  /** Sends an encoded answer as its bytes, else returns the envelope for the serializer. */
  const answer = (reply: FastifyReply, out: unknown) =>
    out instanceof EncodedAnswer ? reply.type('application/json; charset=utf-8').send(out.bytes) : ok(out);
  const authMode = info.auth;
  const idempotent = 'idempotent' in info && info.idempotent === true && authMode === 'required';
  const store = () => app.ctx.services.idempotency;
  /** Stores a claimed request's success as sent, or gives the key up (any other answer). */
  const settle = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = claims.get(req);
    if (!claim) return payload;
    claims.delete(req);
    try {
      if (reply.statusCode === 200 && typeof payload === 'string') await store().complete(claim, 200, payload);
      else await store().release(claim);
    } catch (err) {
      // The answer goes out regardless; the claim turns stale and a repeat may take it after STALE_CLAIM_MS.
      req.log.error({ err, key: claim.key }, 'idempotency key not settled');
    }
    return payload;
  };
  info.paths.forEach((url, index) => {
    app.route({
      method: 'POST',
      url,
      schema: {
        operationId: operationIdFor(key, index),
        body: schemas.body,
        response: { 200: envelope },
        summary: info.summary,
        tags: [...info.tags],
      },
      config: options.rateLimit ? { rateLimit: options.rateLimit } : { rateLimit: false },
      preHandler: authMode === 'none' ? undefined : app.authFor(authMode, info.scope),
      ...(idempotent ? { onSend: settle } : {}),
      handler: async (req, reply) => {
        if (idempotent) {
          const idempotencyKey = parseIdempotencyKey(req.headers['idempotency-key']);
          if (idempotencyKey !== null) {
            const begun = await store().begin({
              userId: (req.auth as AuthContext).userId,
              key: idempotencyKey,
              operation: key,
              fingerprint: requestFingerprint(key, req.body),
            });
            if (begun.kind === 'replay') {
              // A Buffer goes out as stored (a string would be serialized again).
              return reply
                .code(begun.status as 200)
                .header('idempotent-replayed', 'true')
                .type('application/json; charset=utf-8')
                .send(Buffer.from(begun.response));
            }
            claims.set(req, begun.claim);
          }
        }
        const run = () =>
          handler({
            body: req.body as EndpointContext<K>['body'],
            auth: (req.auth ?? null) as EndpointAuthOf<K>,
            req,
            reply,
            encode,
          });
        const claim = claims.get(req);
        if (!claim) return answer(reply, await run());
        try {
          return answer(reply, await run());
        } catch (err) {
          // A refused or failed call changed nothing: its key is given up, and a retry runs again.
          claims.delete(req);
          await store()
            .release(claim)
            .catch((releaseErr: unknown) => req.log.error({ err: releaseErr, key: claim.key }, 'idempotency key not released'));
          throw err;
        }
      },
    });
  });
}

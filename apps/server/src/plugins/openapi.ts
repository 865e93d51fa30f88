/**
 * The OpenAPI document at /api/docs, as integrators generate clients from it: every envelope call
 * (the endpoint table, docs/decisions/0018-endpoint-table.md) with its operationId, summary,
 * security and error responses, and a document that passes Redocly's `recommended` ruleset
 * (checked by openapi.test.ts).
 *
 * - Body and `data` schemas come from the calls' zod schemas (fastify-type-provider-zod's
 *   `jsonSchemaTransform`); this module adds what zod does not know.
 * - Errors: every call documents the envelope `{code, msg, reason}` (`ErrorEnvelope`) for 400
 *   (invalid body or a refused action), 401 when it needs a session, 403/404/409 (refusals that
 *   depend on the data: not yours, not found, conflict or insufficient balance), 429 when it is
 *   rate limited and 500. The HTTP status and `code` of each reason are `ERROR_TABLE`'s
 *   (packages/contract/src/envelope-codes.ts).
 * - Idempotency: `idempotent` calls document the optional `Idempotency-Key` header, the
 *   `Idempotent-Replayed` header of a replayed answer and 422 IDEMPOTENCY_KEY_REUSED (ADR 0051).
 * - Security: 'required' calls carry `bearerAuth` (a session), 'optional' ones `[{}, bearerAuth]`
 *   (anonymous or signed in), public ones an explicit empty list. A call a personal access token may
 *   make (its `scope` in the endpoint table, ADR 0059) also lists `accessToken: [<scope>]` (the
 *   role list OpenAPI 3.1 allows for non-OAuth schemes); a call without it is session only, and
 *   says so in its description.
 * - The local file server's routes (`/files/...`, `/media/...`) are presigned-URL targets handed
 *   out by calls, not calls themselves: they are left out of the document.
 */
import { ENDPOINTS, ERROR_TABLE, type EndpointKey } from '@coffer/contract';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type Transform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;

/** The envelope every failure answers with (product §12). */
const errorEnvelope = {
  type: 'object',
  required: ['code', 'msg'],
  properties: {
    code: { type: 'integer', description: "Not 10000: the reason's code (ERROR_TABLE)." },
    msg: { type: 'string', description: 'A human-readable message.' },
    reason: { type: 'string', description: 'A machine-readable reason, e.g. VALIDATION_FAILED.' },
    data: { description: 'Present on a few refusals that carry details (e.g. the minimum amount).' },
  },
} as const;

const reasonsOf = (status: number) =>
  Object.entries(ERROR_TABLE)
    .filter(([, row]) => row.status === status)
    .map(([reason]) => reason)
    .join(', ');

const errorResponse = (status: number, what: string) => ({
  description: `${what} (reason: ${reasonsOf(status)})`,
  content: { 'application/json': { schema: errorEnvelope } },
});

/** The table key of an operationId (`<key>` or `<key>Alias<n>`), or null for routes outside the table. */
function endpointKeyOf(operationId: unknown): EndpointKey | null {
  if (typeof operationId !== 'string') return null;
  const key = operationId.replace(/Alias\d+$/, '');
  return Object.hasOwn(ENDPOINTS, key) ? (key as EndpointKey) : null;
}

/** `transform` for @fastify/swagger: zod to JSON Schema, then security and error responses per call. */
export const openApiTransform: Transform = (input) => {
  const out = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]) as {
    schema: Record<string, any>;
    url: string;
  };
  if (/^\/(files|media)\//.test(input.url)) return { ...out, schema: { ...out.schema, hide: true } };
  const key = endpointKeyOf(out.schema.operationId);
  if (!key) return out;
  const auth = ENDPOINTS[key].auth;
  const rateLimited = Boolean((input.route.config as { rateLimit?: unknown } | undefined)?.rateLimit);
  const errors: Record<string, unknown> = {
    400: errorResponse(400, 'The body is invalid or the action was refused'),
    ...(auth === 'required' ? { 401: errorResponse(401, 'No valid session') } : {}),
    403: errorResponse(403, 'The caller may not do this'),
    404: errorResponse(404, 'What the body names does not exist'),
    409: errorResponse(409, 'The state does not allow it, or the balance is short'),
    ...(rateLimited ? { 429: errorResponse(429, 'Too many attempts') } : {}),
    500: errorResponse(500, 'Server error'),
  };
  const idempotent = 'idempotent' in ENDPOINTS[key] && auth === 'required';
  if (idempotent) {
    errors[422] = errorResponse(422, 'The Idempotency-Key was used before for another request');
    const success = out.schema.response?.[200] as Record<string, unknown> | undefined;
    if (success) {
      out.schema.response[200] = {
        ...success,
        headers: {
          'Idempotent-Replayed': {
            description: 'true when this is the stored answer of an earlier request with the same Idempotency-Key',
            type: 'string',
            enum: ['true'],
          },
        },
      };
    }
  }
  // @fastify/swagger turns a route's `headers` schema into header parameters.
  const headers = idempotent
    ? {
        type: 'object',
        properties: {
          'Idempotency-Key': {
            type: 'string',
            minLength: 1,
            maxLength: 255,
            description:
              'A unique value per intended action (e.g. a UUID), 1-255 printable ASCII characters. A repeat with the same key and body within 24 h answers the first success again; with another body 422; while the first still runs 409 (docs/api.md "Idempotency keys").',
            example: '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
          },
        },
      }
    : undefined;
  const scope = ENDPOINTS[key].scope;
  const withToken = scope ? [{ accessToken: [scope] }] : [];
  const security =
    auth === 'required'
      ? [{ bearerAuth: [] }, ...withToken]
      : auth === 'optional'
        ? [{}, { bearerAuth: [] }, ...withToken]
        : [];
  const scopeNote =
    auth === 'none'
      ? ''
      : scope
        ? `Personal access tokens need the \`${scope}\` scope.`
        : 'A signed-in session only: personal access tokens are refused (403 INSUFFICIENT_SCOPE).';
  return {
    ...out,
    schema: {
      ...out.schema,
      security,
      ...(scopeNote ? { description: scopeNote } : {}),
      ...(headers ? { headers } : {}),
      response: { ...out.schema.response, ...errors },
    },
  };
};

/** The @fastify/swagger options of the app: document info, servers, the bearer scheme, {@link openApiTransform}. */
export function openApiOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      // 3.1: an operation's security requirement may list roles for a non-OAuth scheme (the token scopes).
      openapi: '3.1.0',
      info: {
        title: 'Coffer API',
        version: '0.1.0',
        description: 'Every call is POST with a JSON body and answers {code, msg, data?, reason?}; code 10000 is success.',
      },
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'A session token from login or register.' },
          accessToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'coffer_pat_<30 base62><6 base62 CRC-32>',
            description:
              'A personal access token (Developer tab of the profile page). The scopes an operation lists are the ones the token must hold; without them the call answers 403 INSUFFICIENT_SCOPE (docs/api.md "Personal access tokens").',
          },
        },
      },
    },
    transform: openApiTransform,
  };
}

/**
 * The OpenAPI document at /api/docs, as integrators generate clients from it: every envelope call
 * (the endpoint table, docs/decisions/0018-endpoint-table.md) with its operationId, summary,
 * security and error responses, and a document that passes Redocly's `recommended` ruleset
 * and Spectral's OWASP API security ruleset (checked by openapi.test.ts; the rules left out and why:
 * src/test/openapi-lint.ts, ADR 0068).
 *
 * - Body and `data` schemas come from the calls' zod schemas (fastify-type-provider-zod's
 *   `jsonSchemaTransform`); this module adds what zod does not know.
 * - Errors: every call documents the envelope `{code, msg, reason}` (`ErrorEnvelope`) for 400
 *   (invalid body or a refused action), 401 when it needs a session, 403/404/409 (refusals that
 *   depend on the data: not yours, not found, conflict or insufficient balance), 429 (every call
 *   spends the per-client budget, plugins/api-budget.ts) with `Retry-After`, and 500. The HTTP status and `code` of each reason are `ERROR_TABLE`'s
 *   (packages/contract/src/envelope-codes.ts).
 * - Idempotency: `idempotent` calls document the optional `Idempotency-Key` header, the
 *   `Idempotent-Replayed` header of a replayed answer and 422 IDEMPOTENCY_KEY_REUSED (ADR 0051).
 * - Security: 'required' calls carry `bearerAuth` (a session), 'optional' ones `[{}, bearerAuth]`
 *   (anonymous or signed in), public ones an explicit empty list. A call a personal access token may
 *   make (its `scope` in the endpoint table, ADR 0059) also lists `accessToken: [<scope>]` (the
 *   role list OpenAPI 3.1 allows for non-OAuth schemes); a call without it is session only, and
 *   says so in its description.
 * - Rate limits: every 2xx and 4xx answer documents `RateLimit` and `RateLimit-Policy` (ADR 0067).
 * - Bounds and examples ({@link finishDocument}, plugins/openapi-schema.ts): every string, integer and
 *   list gets a bound derived from its schema, and every call an example body and answer generated
 *   from its schemas; each error status one shared response (`components.responses.Error<status>`)
 *   with an example envelope.
 * - The local file server's routes (`/files/...`, `/media/...`) are presigned-URL targets handed
 *   out by calls, not calls themselves: they are left out of the document.
 */
import { ENDPOINTS, ERROR_TABLE, type EndpointKey } from '@coffer/contract';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { boundSchema, pageMaxOf, sampleOf } from './openapi-schema';

type Transform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;

/** The envelope every failure answers with (product §12). */
const codes = Object.values(ERROR_TABLE).map((row) => row.code);
const errorEnvelope = {
  type: 'object',
  required: ['code', 'msg'],
  properties: {
    code: {
      type: 'integer',
      minimum: Math.min(...codes),
      maximum: Math.max(...codes),
      description: "Not 10000: the reason's code (ERROR_TABLE).",
    },
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
  const errors: Record<string, unknown> = {
    400: errorResponse(400, 'The body is invalid or the action was refused'),
    ...(auth === 'required' ? { 401: errorResponse(401, 'No valid session') } : {}),
    403: errorResponse(403, 'The caller may not do this'),
    404: errorResponse(404, 'What the body names does not exist'),
    409: errorResponse(409, 'The state does not allow it, or the balance is short'),
    429: errorResponse(429, "Past the client's budget or a stricter limit of this call; wait Retry-After seconds"),
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
      // x-internal: false — the document describes the public API of whichever deployment serves it.
      servers: [
        {
          url: '/',
          description: 'This server (production, staging or local: the origin serving this document)',
          'x-internal': false,
        } as { url: string; description: string },
      ],
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
    transformObject: (input) => finishDocument(('openapiObject' in input ? input.openapiObject : input.swaggerObject) as Doc) as never,
  };
}

/** The example message of each error reason in the document's examples. */
const EXAMPLE_MSG: Partial<Record<string, string>> = {
  VALIDATION_FAILED: 'The request is invalid.',
  UNAUTHORIZED: 'Please sign in.',
  FORBIDDEN: 'You may not do this.',
  NOT_FOUND: 'The requested resource was not found.',
  CONFLICT: 'The request conflicts with the current state.',
  RATE_LIMITED: 'Too many attempts. Please try again later.',
  INTERNAL: 'Something went wrong. Please try again later.',
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was used for another request.',
  PAYLOAD_TOO_LARGE: 'The request is too large.',
};

/** The example envelope of an error status: its first reason in ERROR_TABLE. */
function errorExample(status: number): { code: number; msg: string; reason: string } | null {
  const found = Object.entries(ERROR_TABLE).find(([, row]) => row.status === status);
  if (!found) return null;
  const [reason, row] = found;
  return { code: row.code, msg: EXAMPLE_MSG[reason] ?? 'The request was refused.', reason };
}

const rateLimitHeaders = {
  RateLimit: {
    description:
      'The tightest rate-limit policy that applied: `"name";r=<requests left>;t=<seconds until reset>` (draft-ietf-httpapi-ratelimit-headers; docs/api.md "Rate limits").',
    schema: { type: 'string', maxLength: 256, example: '"api";r=599;t=60' },
  },
  'RateLimit-Policy': {
    description:
      'Every rate-limit policy that applied: `"name";q=<quota>;w=<window seconds>`, comma-separated, e.g. the per-client budget `"api"` and a stricter limit of the call.',
    schema: { type: 'string', maxLength: 1024, example: '"api";q=600;w=60' },
  },
} as const;
const retryAfterHeader = {
  description: 'Seconds to wait before trying again.',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86_400, example: 60 },
} as const;

type Doc = {
  components?: Record<string, any>;
  paths?: Record<string, Record<string, Record<string, any>>>;
};

/**
 * `transformObject` for @fastify/swagger: the finishing pass over the whole document. Shared
 * rate-limit headers (components.headers) on every 2xx/4xx answer and `Retry-After` on 429; bounds on
 * every schema (openapi-schema.ts `boundSchema`); an example request body and answer per call
 * (`sampleOf`) and an example envelope per error status.
 */
export function finishDocument(doc: Doc): Doc {
  doc.components = {
    ...doc.components,
    headers: {
      RateLimit: rateLimitHeaders.RateLimit,
      'RateLimit-Policy': rateLimitHeaders['RateLimit-Policy'],
      'Retry-After': retryAfterHeader,
    },
  };
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  const responses: Record<string, unknown> = {};
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      const body = op.requestBody?.content?.['application/json'];
      const pageMax = pageMaxOf(body?.schema);
      if (body?.schema) {
        boundSchema(body.schema);
        body.example = sampleOf(body.schema);
      }
      for (const p of op.parameters ?? []) boundSchema(p.schema);
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        if (typeof response.$ref === 'string') continue; // finished already (@fastify/swagger caches the document)
        const json = response.content?.['application/json'];
        if (json?.schema) {
          // Error responses share one envelope schema object: copy it before adding anything.
          json.schema = structuredClone(json.schema);
          boundSchema(json.schema, pageMax);
          json.example = status === '200' ? sampleOf(json.schema) : (errorExample(Number(status)) ?? sampleOf(json.schema));
        }
        for (const h of Object.values((response.headers ?? {}) as Record<string, any>)) boundSchema(h.schema);
        if (/^[24]/.test(status)) {
          response.headers = {
            ...response.headers,
            RateLimit: ref('RateLimit'),
            'RateLimit-Policy': ref('RateLimit-Policy'),
            ...(status === '429' ? { 'Retry-After': ref('Retry-After') } : {}),
          };
        }
        // Error answers are the same for every call: one shared response per status (components.responses.Error<status>).
        if (status !== '200') {
          const name = `Error${status}`;
          responses[name] ??= response;
          op.responses[status] = { $ref: `#/components/responses/${name}` };
        }
      }
    }
  }
  doc.components.responses = Object.fromEntries(
    Object.entries({ ...doc.components.responses, ...responses }).sort(([a], [b]) => a.localeCompare(b)),
  );
  return doc;
}

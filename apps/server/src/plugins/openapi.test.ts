/**
 * The OpenAPI document at /api/docs (generated from the routes' zod schemas by @fastify/swagger and
 * fastify-type-provider-zod's transform) lists every POST call with its body and answer schemas.
 * The list of calls is read from the app at test time, so calls added later are checked too.
 * It passes Redocly's recommended ruleset and Spectral's OWASP ruleset without errors
 * (src/test/openapi-lint.ts, ADR 0068), and every call's examples are accepted by its own schemas.
 */
import { ENDPOINT_SCHEMAS, ENDPOINTS, type EndpointKey } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test/harness';
import { lintWithRedocly, lintWithSpectral, OWASP_OFF } from '../test/openapi-lint';

let t: TestApp;
/** The document as served; `doc` is the same with shared responses read in place. */
let docAsRead: unknown;
let doc: {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      { operationId?: string; summary?: string; requestBody?: any; responses?: Record<string, any>; security?: unknown[] }
    >
  >;
};
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  docAsRead = structuredClone(doc);
  // Error answers are shared responses (components.responses): read them in place.
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item))
      for (const [status, response] of Object.entries(op.responses ?? {}))
        if (typeof response?.$ref === 'string') op.responses![status] = resolveRef(response.$ref);
});
const resolveRef = (ref: string): any => ref.slice(2).split('/').reduce<any>((at, key) => at?.[key], docAsRead);
afterAll(() => t.close());

const postRoutes = () => t.app.ctx.routes.filter((r) => r.method === 'POST');
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('/api/docs', () => {
  it('serves an OpenAPI 3 document and the browsable reference', async () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBe(200);
  });

  it('lists every POST route with a JSON body schema holding the fields of its zod schema', () => {
    const routes = postRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(11);
    for (const route of routes) {
      const op = doc.paths[openApiPath(route.url)]?.post;
      expect(op, `${route.url} is missing from /api/docs/json`).toBeDefined();
      const schema = op!.requestBody?.content?.['application/json']?.schema;
      expect(schema, `${route.url} has no JSON body schema (declare one in ENDPOINT_SCHEMAS)`).toBeDefined();
      expect(route.bodySchema, `${route.url} was registered without a body schema`).toBeInstanceOf(z.ZodType);
      const expected = z.toJSONSchema(route.bodySchema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as {
        properties?: object;
      };
      expect(Object.keys(schema.properties ?? {}).sort(), route.url).toEqual(Object.keys(expected.properties ?? {}).sort());
      expect(op!.responses?.['200']?.content?.['application/json']?.schema?.properties?.code, route.url).toBeDefined();
    }
  });

  it('names and summarises every POST call, each operationId once (the endpoint table, ADR 0018)', () => {
    const ids = new Set<string>();
    for (const route of postRoutes()) {
      const op = doc.paths[openApiPath(route.url)]!.post!;
      expect(op.operationId, route.url).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(op.summary, route.url).toBeTruthy();
      expect(ids.has(op.operationId!), `${op.operationId} is used twice`).toBe(false);
      ids.add(op.operationId!);
    }
  });

  it('passes the Redocly OpenAPI linter (recommended ruleset) without errors or warnings', async () => {
    const found = (await lintWithRedocly(docAsRead as object)).map((p) => `${p.severity} ${p.rule}: ${p.message} at ${p.at}`);
    expect(found).toEqual([]);
    // The same lint refuses an example its schema does not accept.
    const broken = structuredClone(docAsRead) as typeof doc;
    broken.paths['/api/uc/v1/account/login']!.post!.requestBody.content['application/json'].example.password = 'not-md5';
    expect((await lintWithRedocly(broken)).map((p) => `${p.severity} ${p.rule}`)).toContain('error no-invalid-media-type-examples');
  });

  it("passes Spectral's OWASP API security ruleset without errors", async () => {
    const problems = await lintWithSpectral(docAsRead as object);
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.rule}: ${p.message} at ${p.at}`);
    expect(errors).toEqual([]);
    // Every rule turned off has its one-line reason, and is one the ruleset has.
    for (const [rule, reason] of Object.entries(OWASP_OFF)) {
      expect(rule).toMatch(/^owasp:/);
      expect(reason).toMatch(/\S/);
    }
    const warnings = problems.filter((p) => p.severity !== 'error');
    console.log(`OWASP ruleset: 0 errors, ${warnings.length} warnings (${[...new Set(warnings.map((w) => w.rule))].join(', ')})`);
  });

  it('bounds every string, integer and list (maxLength, minimum/maximum/format, maxItems)', () => {
    const unbounded: string[] = [];
    const walk = (s: any, at: string): void => {
      if (!s || typeof s !== 'object') return;
      if (Array.isArray(s)) return s.forEach((x, i) => walk(x, `${at}/${i}`));
      if (s.type === 'string' && s.maxLength === undefined && !s.enum && s.const === undefined) unbounded.push(at);
      if (s.type === 'integer' && (s.minimum === undefined || s.maximum === undefined || !s.format)) unbounded.push(at);
      if (s.type === 'array' && s.maxItems === undefined) unbounded.push(at);
      for (const [k, v] of Object.entries(s)) if (k !== 'example') walk(v, `${at}/${k}`);
    };
    walk(doc.paths, '#/paths');
    expect(unbounded).toEqual([]);
    const body = (url: string) => doc.paths[url]!.post!.requestBody.content['application/json'].schema;
    // From the zod schema: the pattern's longest match, and the paginator's page size limit for a page's list.
    expect(body('/api/uc/v1/account/login').properties.password.maxLength).toBe(32);
    expect(body('/api/uc/v1/account/password/forget').properties.code.maxLength).toBe(6);
    const market = doc.paths['/sl/v1/market/collections']!.post!.responses!['200'].content['application/json'].schema;
    expect(market.properties.data.properties.collections.maxItems).toBe(body('/sl/v1/market/collections').properties.paginator.properties.size.maximum);
  });

  it("gives every call an example body and answer its own schemas accept, and every error status an example envelope", () => {
    for (const route of postRoutes()) {
      const op = doc.paths[openApiPath(route.url)]!.post!;
      const key = op.operationId!.replace(/Alias\d+$/, '') as EndpointKey;
      expect(Object.hasOwn(ENDPOINTS, key), route.url).toBe(true);
      const schemas = ENDPOINT_SCHEMAS[key] as { body: z.ZodType; data: z.ZodType };
      const request = op.requestBody.content['application/json'].example;
      expect(request, `${route.url} request example`).toBeDefined();
      const parsedBody = schemas.body.safeParse(request);
      expect(parsedBody.error?.issues ?? [], `${route.url} request example ${JSON.stringify(request)}`).toEqual([]);
      const answer = op.responses!['200'].content['application/json'].example;
      expect(answer, `${route.url} answer example`).toMatchObject({ code: 10000 });
      const parsedData = schemas.data.safeParse(answer.data);
      expect(parsedData.error?.issues ?? [], `${route.url} answer example`).toEqual([]);
      for (const [status, response] of Object.entries(op.responses!)) {
        if (status === '200') continue;
        const example = response.content['application/json'].example;
        expect(example.code, `${route.url} ${status}`).not.toBe(10000);
        expect(example.reason, `${route.url} ${status}`).toMatch(/^[A-Z_]+$/);
      }
    }
  });

  it('documents the rate-limit headers on every answer and Retry-After on 429', () => {
    for (const route of postRoutes()) {
      const responses = doc.paths[openApiPath(route.url)]!.post!.responses!;
      for (const [status, response] of Object.entries(responses)) {
        if (!/^[24]/.test(status)) continue;
        expect(Object.keys(response.headers ?? {}), `${route.url} ${status}`).toEqual(
          expect.arrayContaining(['RateLimit', 'RateLimit-Policy', ...(status === '429' ? ['Retry-After'] : [])]),
        );
      }
    }
  });

  it('documents the error envelope of every call: 400, 429, 500, 401 when signed in', () => {
    for (const route of postRoutes()) {
      const op = doc.paths[openApiPath(route.url)]!.post!;
      const errorSchema = (status: string) => op.responses?.[status]?.content?.['application/json']?.schema;
      for (const status of ['400', '403', '404', '409', '429', '500']) {
        expect(errorSchema(status)?.required, `${route.url} ${status}`).toEqual(['code', 'msg']);
      }
      const signedIn = JSON.stringify(op.security?.[0]) === JSON.stringify({ bearerAuth: [] });
      expect(Boolean(op.responses?.['401']), route.url).toBe(signedIn);
    }
    // product §27: reports are rate limited per user, and need a session.
    expect(doc.paths['/sl/v1/collection/report']!.post!.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/sl/v1/collection/report']!.post!.operationId).toBe('collectionReport');
  });

  it('documents the account bodies field by field', () => {
    const body = (url: string) => doc.paths[url]!.post!.requestBody.content['application/json'].schema;
    expect(body('/api/uc/v1/account/login')).toMatchObject({
      type: 'object',
      properties: { account: { type: 'string' }, password: { type: 'string', pattern: '^[a-fA-F0-9]{32}$' } },
      required: ['account', 'password'],
    });
    expect(body('/api/uc/v1/account/password/forget').required.sort()).toEqual(['code', 'email', 'password']);
    expect(body('/api/uc/v1/account/send_mail').properties.type).toMatchObject({
      default: 'reset_password',
      enum: ['reset_password'],
    });
  });

  it('documents the paging fields on every paged answer (product §3 Pagination)', () => {
    const data = (url: string) => doc.paths[url]!.post!.responses!['200'].content['application/json'].schema.properties.data;
    const paged: [string, string][] = [
      ['/sl/v1/my/collections', 'collections'],
      ['/sl/v1/user/collections', 'collections'],
      ['/sl/v1/market/collections', 'collections'],
      ['/sl/v1/my/orders', 'orders'],
      ['/sl/v1/my/purchased/collections', 'collections'],
      ['/api/uc/v1/account/record/list', 'records'],
    ];
    for (const [url, items] of paged) {
      const schema = data(url);
      expect(schema.required.sort(), url).toEqual(
        [items, 'page', 'size', 'totalCount', 'totalPages', 'hasNextPage', 'count'].sort(),
      );
      expect(schema.properties.hasNextPage, url).toMatchObject({ type: 'boolean' });
      expect(schema.properties[items], url).toMatchObject({ type: 'array' });
    }
  });

  it('marks signed-in calls with the bearer scheme, and only those', () => {
    expect(doc.paths['/api/uc/v1/account/get/me']!.post!.security).toEqual([{ bearerAuth: [] }, { accessToken: ['account:read'] }]);
    expect(doc.paths['/api/uc/v1/account/login']!.post!.security).toEqual([]);
    expect(doc.paths['/api/uc/v1/account/profile']!.post!.security).toEqual([
      {},
      { bearerAuth: [] },
      { accessToken: ['account:read'] },
    ]);
  });

  it('names the token scope of every call a personal access token may make, and marks the others session only (ADR 0059)', () => {
    expect(doc.openapi).toBe('3.1.0');
    const schemes = (doc as unknown as { components: { securitySchemes: Record<string, unknown> } }).components.securitySchemes;
    expect(schemes.accessToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const route of postRoutes()) {
      const op = doc.paths[openApiPath(route.url)]!.post! as { operationId: string; security: object[]; description?: string };
      const key = op.operationId.replace(/Alias\d+$/, '') as keyof typeof ENDPOINTS;
      const row = ENDPOINTS[key];
      if (!row) continue;
      const tokenRequirement = op.security.find((r) => 'accessToken' in r);
      if (row.auth === 'none') expect(op.security, route.url).toEqual([]);
      else if (row.scope) {
        expect(tokenRequirement, route.url).toEqual({ accessToken: [row.scope] });
        expect(op.description, route.url).toContain(row.scope);
      } else {
        expect(tokenRequirement, route.url).toBeUndefined();
        expect(op.description, route.url).toMatch(/session only/);
      }
    }
    const security = (url: string) => doc.paths[url]!.post!.security;
    expect(security('/sl/v1/my/orders')).toContainEqual({ accessToken: ['orders:read'] });
    expect(security('/sl/v1/collection/create')).toContainEqual({ accessToken: ['collections:write'] });
    for (const sessionOnly of ['/withdraw/create', '/withdraw/confirm', '/token/create', '/password/change', '/delete', '/2fa/disable']) {
      expect(security(`/api/uc/v1/account${sessionOnly}`), sessionOnly).toEqual([{ bearerAuth: [] }]);
    }
  });
});

/**
 * The OpenAPI document at /api/docs (generated from the routes' zod schemas by @fastify/swagger and
 * fastify-type-provider-zod's transform) lists every POST call with its body and answer schemas.
 * The list of calls is read from the app at test time, so calls added later are checked too.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@coffer/contract';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test/harness';

let t: TestApp;
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
});
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
    // The API is not published under a licence, so the two licence rules are off; every other rule applies.
    const config = await createConfig({
      extends: ['recommended'],
      rules: { 'info-license': 'off', 'info-license-strict': 'off' },
    });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const found = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? '?'}`);
    expect(found).toEqual([]);
  });

  it('documents the error envelope of every call: 400, 500, 401 when signed in, 429 when rate limited', () => {
    for (const route of postRoutes()) {
      const op = doc.paths[openApiPath(route.url)]!.post!;
      const errorSchema = (status: string) => op.responses?.[status]?.content?.['application/json']?.schema;
      for (const status of ['400', '403', '404', '409', '500']) {
        expect(errorSchema(status)?.required, `${route.url} ${status}`).toEqual(['code', 'msg']);
      }
      const signedIn = JSON.stringify(op.security?.[0]) === JSON.stringify({ bearerAuth: [] });
      expect(Boolean(op.responses?.['401']), route.url).toBe(signedIn);
    }
    expect(doc.paths['/api/uc/v1/account/order/pay']!.post!.responses?.['429']).toBeDefined();
    expect(doc.paths['/api/uc/v1/account/get/me']!.post!.responses?.['429']).toBeUndefined();
    // product §27: reports are rate limited per user, and need a session.
    expect(doc.paths['/sl/v1/collection/report']!.post!.responses?.['429']).toBeDefined();
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

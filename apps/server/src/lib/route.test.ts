/**
 * The endpoint table (ADR 0018) and the app agree: every call of `ENDPOINTS` is registered on each
 * of its paths with its operationId, every POST route of the app is a call of the table, and the
 * table's `auth` is what a caller without a session meets.
 */
import { ENDPOINT_KEYS, ENDPOINT_SCHEMAS, ENDPOINTS, ErrorReason } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorHandlerPlugin } from '../plugins/error-handler';
import { createTestApp, type TestApp } from '../test/harness';
import { toPage } from './page';
import { defineEndpoint, operationIdFor } from './route';

let t: TestApp;
let doc: { paths: Record<string, Record<string, { operationId?: string; summary?: string; tags?: string[] }>> };
beforeAll(async () => {
  // PAYMENTS=sandbox (the test default): sandboxPay is registered too.
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
});
afterAll(() => t.close());

const postUrls = () => t.app.ctx.routes.filter((r) => r.method === 'POST').map((r) => r.url);

describe('endpoint table', () => {
  it('registers every call on each of its paths, with its schemas, summary, tags and operationId', () => {
    const registered = t.app.ctx.routes.filter((r) => r.method === 'POST');
    for (const key of ENDPOINT_KEYS) {
      ENDPOINTS[key].paths.forEach((path, index) => {
        const route = registered.find((r) => r.url === path);
        expect(route, `${key}: ${path} is not registered`).toBeDefined();
        expect(route!.bodySchema, path).toBe(ENDPOINT_SCHEMAS[key].body);
        const op = doc.paths[path]?.post;
        expect(op?.operationId, path).toBe(operationIdFor(key, index));
        expect(op?.summary, path).toBe(ENDPOINTS[key].summary);
        expect(op?.tags, path).toEqual([...ENDPOINTS[key].tags]);
      });
    }
  });

  it('has every POST route of the app in the table', () => {
    const tablePaths = new Set<string>(ENDPOINT_KEYS.flatMap((key) => [...ENDPOINTS[key].paths]));
    const urls = postUrls();
    expect(urls.length).toBe(tablePaths.size);
    for (const url of urls) expect(tablePaths.has(url), `${url} is registered but not in ENDPOINTS`).toBe(true);
  });

  it("marks the 'required' calls with the bearer scheme, 'optional' ones with anonymous or bearer, public ones with none; an access token with its scope where one may call", () => {
    for (const key of ENDPOINT_KEYS) {
      const { auth, scope } = ENDPOINTS[key];
      const withToken = scope ? [{ accessToken: [scope] }] : [];
      const expected = {
        required: [{ bearerAuth: [] }, ...withToken],
        optional: [{}, { bearerAuth: [] }, ...withToken],
        none: [],
      }[auth];
      for (const path of ENDPOINTS[key].paths) {
        const security = (doc.paths[path]?.post as { security?: unknown } | undefined)?.security;
        expect(security, path).toEqual(expected);
      }
    }
  });

  it("answers 401 UNAUTHORIZED without a session exactly on the 'required' calls (those whose body may be empty)", async () => {
    // A body is validated before the session is checked, so only calls that accept {} can show it.
    const keys = ENDPOINT_KEYS.filter((key) => ENDPOINT_SCHEMAS[key].body.safeParse({}).success);
    expect(keys.filter((key) => ENDPOINTS[key].auth === 'required').length).toBeGreaterThanOrEqual(2);
    expect(keys.filter((key) => ENDPOINTS[key].auth !== 'required').length).toBeGreaterThanOrEqual(2);
    for (const key of keys) {
      const { status, body } = await t.call(ENDPOINTS[key].paths[0], {});
      const refused = status === 401 && body.reason === ErrorReason.UNAUTHORIZED;
      expect(refused, `${key} answered ${status} ${body.reason ?? ''}`).toBe(ENDPOINTS[key].auth === 'required');
    }
  });
});

describe('encoded answers (ADR 0071)', () => {
  /** A bare app with the error handler and one call registered by defineEndpoint. */
  async function bareApp(handler: Parameters<typeof defineEndpoint<'marketCollections'>>[3]) {
    const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(errorHandlerPlugin);
    defineEndpoint(app, 'marketCollections', {}, handler);
    await app.ready();
    return app;
  }
  const page = toPage('collections', [], { page: 0, size: 10 }, 0);
  const body = { paginator: { page: 0, size: 10 } };

  it('sends the bytes the serializer would write for the same data', async () => {
    const encoded = await bareApp(async ({ encode }) => encode(page));
    const plain = await bareApp(async () => page);
    const a = await encoded.inject({ method: 'POST', url: '/sl/v1/market/collections', payload: body });
    const b = await plain.inject({ method: 'POST', url: '/sl/v1/market/collections', payload: body });
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toBe(b.headers['content-type']);
    expect(a.payload).toBe(b.payload);
    await Promise.all([encoded.close(), plain.close()]);
  });

  it('refuses to encode data that does not match the call schema: a 500 in the envelope, no stack', async () => {
    const app = await bareApp(async ({ encode }) => encode({ collections: 'not a list' } as never));
    const res = await app.inject({ method: 'POST', url: '/sl/v1/market/collections', payload: body });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ reason: ErrorReason.INTERNAL });
    expect(res.payload).not.toMatch(/at .*\.ts:\d+/);
    await app.close();
  });
});

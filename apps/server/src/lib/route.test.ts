/**
 * The endpoint table (ADR 0018) and the app agree: every call of `ENDPOINTS` is registered on each
 * of its paths with its operationId, every POST route of the app is a call of the table, and the
 * table's `auth` is what a caller without a session meets.
 */
import { ENDPOINT_KEYS, ENDPOINT_SCHEMAS, ENDPOINTS, ErrorReason } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { operationIdFor } from './route';

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

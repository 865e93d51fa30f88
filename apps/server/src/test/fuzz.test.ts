/**
 * Property test over every POST route of the app (fast-check): malformed bodies — wrong types, huge
 * strings, deep nesting, arrays, null, bad JSON text, a missing body, other content types — sent
 * with no token, a valid session, a valid personal access token and a junk token must never give a 5xx, and must always answer the
 * envelope `{code, msg, reason}` with `code != 10000`, a non-empty `msg` and the status and code that
 * ERROR_TABLE gives the reason.
 *
 * The routes are read from `app.ctx.routes` (collected by an onRoute hook in buildApp) when this
 * file runs, so calls added later are fuzzed without touching this file. A body is only sent when
 * the route's own zod schema rejects it, so no case can reach a handler and change data.
 */
import { ERROR_TABLE, type ErrorReason } from '@coffer/contract';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RegisteredRoute } from '../app';
import { createTestApp, createUser, md5, PASSWORD } from './harness';

const t = await createTestApp();
const user = await createUser(t);
/**
 * Sends only the over-the-limit bodies (one per route): the generated cases may spend `user`'s
 * per-user budget of a rate-limited call (webhook/redeliver: 30 per 10 minutes), and a limit is
 * counted before the body is read, so `user` could be answered 429 instead of 413.
 */
const bigSender = await createUser(t);
afterAll(() => t.close());

const routes: RegisteredRoute[] = t.app.ctx.routes.filter((r) => r.method === 'POST');
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

/** The top-level field names of a route's body schema (from zod's own JSON Schema of the input). */
function fieldsOf(schema: unknown): string[] {
  if (!(schema instanceof z.ZodType)) return [];
  try {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
    return Object.keys(json.properties ?? {});
  } catch {
    return [];
  }
}

/** True when the route's schema would accept this (already JSON-decoded) body, i.e. it is not malformed. */
async function accepted(route: RegisteredRoute, body: unknown): Promise<boolean> {
  if (!(route.bodySchema instanceof z.ZodType)) return false;
  return (await route.bodySchema.safeParseAsync(body)).success;
}

const nasty = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\ud800',
  '💥'.repeat(300),
  "' or '1'='1",
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  '-1',
  '1e309',
  'NaN',
  '0x10',
  '00000000-0000-0000-0000-000000000000',
  '999999999999999999999999999999.999999',
);

/** Values of every JSON type, including extremes; most are the wrong type for any given field. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(-1, -0.5, 1e308, -1e308, 2 ** 53 + 1, 0.1 + 0.2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 64 }),
  nasty,
  fc.nat({ max: 300_000 }).map((n) => 'x'.repeat(n)),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 8 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }),
  fc.integer({ min: 1, max: 2_000 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown),
  fc.integer({ min: 1, max: 500 }).map((depth) => JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)) as unknown),
);

/** A JSON body for the route: non-objects, or objects whose known fields (and some extra ones) carry junk. */
function bodies(route: RegisteredRoute): fc.Arbitrary<unknown> {
  const fields = fieldsOf(route.bodySchema);
  const known =
    fields.length > 0
      ? fc.record(Object.fromEntries(fields.map((f) => [f, junk])), { requiredKeys: [] })
      : fc.constant({} as Record<string, unknown>);
  const withExtra = fc
    .tuple(known, fc.dictionary(fc.string({ maxLength: 12 }), junk, { maxKeys: 3 }))
    .map(([a, b]) => ({ ...b, ...a }));
  return fc.oneof(junk, known, withExtra);
}

/** Raw request bodies that are not a JSON object at all. */
const rawCases = fc.oneof(
  fc.record({ contentType: fc.constant('application/json'), payload: fc.string().map((s) => `{"a":${s}`) }),
  fc.record({
    contentType: fc.constant('application/json'),
    payload: fc.constantFrom('', ' ', '{', '[1,', '{"a":1}}', 'undefined', "{'a':1}", '\u0000'),
  }),
  fc.record({
    contentType: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'),
    payload: fc.string(),
  }),
  fc.record({ contentType: fc.constant(undefined), payload: fc.constant(undefined) }),
);

/** A personal access token of `user` with one scope (ADR 0058): calls answer 400, 403 INSUFFICIENT_SCOPE or refuse the body. */
const accessToken = (
  await t.call(
    '/api/uc/v1/account/token/create',
    { name: 'fuzz', scopes: ['orders:read'], expires_in_days: 7, password: md5(PASSWORD) },
    user.token,
  )
).body.data.token as string;
const tokens = fc.oneof(
  fc.constant(undefined),
  fc.constant(user.token),
  fc.constant(accessToken),
  fc.string({ maxLength: 300 }),
  fc.constant('Bearer '),
  fc.constant('Bearer coffer_pat_000000000000000000000000000000000000'),
);

interface Sent {
  route: RegisteredRoute;
  contentType?: string;
  payload?: string;
  token?: string;
  ip: string;
}

async function send({ route, contentType, payload, token, ip }: Sent) {
  const headers: Record<string, string> = {};
  if (contentType) headers['content-type'] = contentType;
  if (token !== undefined) headers.authorization = token === user.token || token === accessToken ? `Bearer ${token}` : token;
  return t.app.inject({ method: 'POST', url: route.url, headers, payload, remoteAddress: ip });
}

/** The assertions every malformed call must satisfy. */
function expectRefusal(res: Awaited<ReturnType<typeof send>>, what: string) {
  expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, what).toBeLessThan(500);
  expect(res.headers['content-type'], what).toMatch(/^application\/json/);
  const body = res.json() as { code: unknown; msg: unknown; reason: unknown };
  expect(typeof body.code, what).toBe('number');
  expect(body.code, what).not.toBe(10000);
  expect(typeof body.msg, what).toBe('string');
  expect((body.msg as string).length, what).toBeGreaterThan(0);
  const row = ERROR_TABLE[body.reason as ErrorReason];
  expect(row, `${what}: unknown reason ${String(body.reason)}`).toBeDefined();
  expect({ code: body.code, status: res.statusCode }, what).toEqual(row);
}

describe('fuzz: every POST route refuses malformed input with the envelope', () => {
  it('found the routes of the app', () => {
    expect(routes.length).toBeGreaterThanOrEqual(11);
    expect(routes.map((r) => r.url)).toContain('/api/uc/v1/account/login');
  });

  describe.each(routes.map((r) => [r.url, r] as const))('%s', (_url, route) => {
    it('malformed JSON bodies', async () => {
      await fc.assert(
        fc.asyncProperty(bodies(route), tokens, fc.ipV4(), async (value, token, ip) => {
          const payload = JSON.stringify(value);
          fc.pre(!(await accepted(route, JSON.parse(payload))));
          const res = await send({ route, contentType: 'application/json', payload, token, ip });
          expectRefusal(res, `${route.url} ${payload.slice(0, 200)}`);
        }),
        { numRuns: RUNS },
      );
    });

    it('bodies that are not JSON, other content types and a missing body', async () => {
      await fc.assert(
        fc.asyncProperty(rawCases, tokens, fc.ipV4(), async ({ contentType, payload }, token, ip) => {
          // A route that takes an empty body (get/me, logout) rightly accepts a missing one.
          if (payload === undefined) fc.pre(!(await accepted(route, undefined)));
          // `{"a":` + a generated tail can happen to be valid JSON ({"a":0}); a route whose schema
          // accepts it (an empty body with unknown fields stripped) rightly answers 200.
          if (contentType === 'application/json' && payload !== undefined) {
            const parsed = (() => {
              try {
                return { ok: true as const, value: JSON.parse(payload) as unknown };
              } catch {
                return { ok: false as const };
              }
            })();
            if (parsed.ok) fc.pre(!(await accepted(route, parsed.value)));
          }
          const res = await send({ route, contentType, payload, token, ip });
          expectRefusal(res, `${route.url} ${contentType} ${String(payload).slice(0, 200)}`);
        }),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    });

    it('a body over the 1 MB limit', async () => {
      const payload = JSON.stringify({ junk: 'x'.repeat(1024 * 1024) });
      const res = await send({ route, contentType: 'application/json', payload, token: `Bearer ${bigSender.token}`, ip: '10.9.9.9' });
      expectRefusal(res, route.url);
      expect(res.json().reason).toBe('PAYLOAD_TOO_LARGE');
    });
  });

  it('left the signed-in user untouched', async () => {
    expect((await t.call('/api/uc/v1/account/get/me', {}, user.token)).body.code).toBe(10000);
  });
});

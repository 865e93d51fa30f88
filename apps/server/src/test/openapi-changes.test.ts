/**
 * The breaking-change classifier of the OpenAPI document (src/test/openapi-changes.ts, ADR 0069): each
 * kind of breaking change is found with its id, additive changes are not breaking, and a breaking
 * change is stated only when its id is in the changelog.
 */
import { describe, expect, it } from 'vitest';
import { classifyChanges, unstated } from './openapi-changes';

const base = () => ({
  paths: {
    '/api/login': {
      post: {
        security: [],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['account'],
                properties: {
                  account: { type: 'string', maxLength: 254 },
                  sort: { type: 'string', enum: ['newest', 'popular'] },
                  size: { type: 'integer', minimum: 1, maximum: 100 },
                },
              },
            },
          },
        },
        responses: {
          200: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['token', 'status'],
                  properties: {
                    token: { type: 'string' },
                    status: { type: 'string', enum: ['Active'] },
                    tags: { type: 'array', items: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      },
    },
    '/api/me': { post: { security: [{ bearerAuth: [] }], responses: {} } },
  },
});
type D = ReturnType<typeof base> & Record<string, any>;
const body = (d: D) => d.paths['/api/login'].post.requestBody.content['application/json'].schema as Record<string, any>;
const answer = (d: D) => d.paths['/api/login'].post.responses[200].content['application/json'].schema as Record<string, any>;

function changed(mutate: (d: D) => void) {
  const after = base() as D;
  mutate(after);
  return classifyChanges(base(), after);
}
const breakingIds = (mutate: (d: D) => void) =>
  changed(mutate)
    .filter((c) => c.breaking)
    .map((c) => c.id);

describe('classifyChanges', () => {
  it('finds nothing between equal documents', () => {
    expect(changed(() => {})).toEqual([]);
  });

  it.each<[string, (d: D) => void, string]>([
    ['a removed operation', (d) => delete (d.paths as any)['/api/me'], 'operation-removed POST /api/me'],
    [
      'a new required request field',
      (d) => {
        body(d).properties.code = { type: 'string' };
        body(d).required.push('code');
      },
      'request-required-added POST /api/login body.code',
    ],
    [
      'an optional request field made required',
      (d) => body(d).required.push('sort'),
      'request-field-now-required POST /api/login body.sort',
    ],
    ['a removed request field', (d) => delete body(d).properties.sort, 'request-field-removed POST /api/login body.sort'],
    [
      'a narrowed request enum',
      (d) => (body(d).properties.sort.enum = ['newest']),
      'request-enum-narrowed POST /api/login body.sort',
    ],
    [
      'a narrowed request type',
      (d) => (body(d).properties.size.type = 'string'),
      'request-type-narrowed POST /api/login body.size',
    ],
    [
      'a tighter request bound',
      (d) => (body(d).properties.size.maximum = 50),
      'request-bound-tightened POST /api/login body.size',
    ],
    [
      'a removed answer field',
      (d) => {
        delete answer(d).properties.token;
        answer(d).required = ['status'];
      },
      'response-field-removed POST /api/login answer.token',
    ],
    [
      'an answer field made optional',
      (d) => (answer(d).required = ['token']),
      'response-field-now-optional POST /api/login answer.status',
    ],
    [
      'a widened answer enum',
      (d) => answer(d).properties.status.enum.push('Suspended'),
      'response-enum-widened POST /api/login answer.status',
    ],
    [
      'a changed answer type',
      (d) => (answer(d).properties.tags.items.type = 'integer'),
      'response-type-changed POST /api/login answer.tags[]',
    ],
    [
      'a public call that now needs a session',
      (d) => (d.paths['/api/login'].post.security = [{ bearerAuth: [] }] as never),
      'security-added POST /api/login',
    ],
  ])('%s is breaking', (_name, mutate, id) => {
    expect(breakingIds(mutate)).toContain(id);
  });

  it('classifies additions and wider requests as additive', () => {
    const changes = changed((d) => {
      (d.paths as any)['/api/new'] = { post: { security: [], responses: {} } };
      body(d).properties.note = { type: 'string' };
      body(d).properties.sort.enum.push('rating');
      body(d).properties.size.maximum = 500;
      body(d).properties.account.maxLength = 300;
      answer(d).properties.nickname = { type: 'string' };
      d.paths['/api/me'].post = { ...d.paths['/api/me'].post, summary: 'The signed-in user' } as never;
    });
    expect(changes.filter((c) => c.breaking)).toEqual([]);
    expect(changes.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'operation-added POST /api/new',
        'request-field-added POST /api/login body.note',
        'response-field-added POST /api/login answer.nickname',
        'operation-changed POST /api/me',
      ]),
    );
  });
});

describe('unstated', () => {
  it('keeps the breaking changes whose id the changelog does not list', () => {
    const changes = changed((d) => {
      delete (d.paths as any)['/api/me'];
      body(d).properties.sort.enum = ['newest'];
    });
    expect(unstated(changes, '').map((c) => c.id)).toEqual([
      'request-enum-narrowed POST /api/login body.sort',
      'operation-removed POST /api/me',
    ]);
    expect(unstated(changes, '- `operation-removed POST /api/me`: replaced by /api/self').map((c) => c.id)).toEqual([
      'request-enum-narrowed POST /api/login body.sort',
    ]);
  });
});

/**
 * Breaking changes to the API fail CI unless stated (docs/api.md "The API document", ADR 0069): the
 * live document at /api/docs/json is compared with the committed snapshot docs/openapi.json
 * (src/test/openapi-changes.ts classifies each change). A breaking change fails unless its id is in
 * docs/api-changes.md; any change at all fails until the snapshot is refreshed with
 *   UPDATE_OPENAPI_SNAPSHOT=1 npx vitest run src/plugins/openapi-snapshot.test.ts
 * (which refuses to write while a breaking change is unstated).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { classifyChanges, unstated, type ApiChange } from '../test/openapi-changes';

const SNAPSHOT = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));
const CHANGELOG = fileURLToPath(new URL('../../../../docs/api-changes.md', import.meta.url));
const UPDATE = process.env.UPDATE_OPENAPI_SNAPSHOT === '1';
const REFRESH = 'UPDATE_OPENAPI_SNAPSHOT=1 npx vitest run src/plugins/openapi-snapshot.test.ts (in apps/server)';

let t: TestApp;
let live: object;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  live = res.json();
});
afterAll(() => t.close());

const list = (changes: readonly ApiChange[]) => changes.map((c) => `  ${c.id} (${c.detail})`).join('\n');

describe('docs/openapi.json, the committed API document', () => {
  it('exists, with the changelog of stated breaking changes beside it', () => {
    if (!existsSync(SNAPSHOT) && UPDATE) writeFileSync(SNAPSHOT, `${JSON.stringify(live, null, 2)}\n`);
    expect(existsSync(SNAPSHOT), `docs/openapi.json is missing: ${REFRESH}`).toBe(true);
    expect(existsSync(CHANGELOG), 'docs/api-changes.md is missing').toBe(true);
  });

  it('has no breaking change against the live document that docs/api-changes.md does not state', () => {
    const changes = classifyChanges(JSON.parse(readFileSync(SNAPSHOT, 'utf8')), live);
    const missing = unstated(changes, readFileSync(CHANGELOG, 'utf8'));
    expect(
      missing.map((c) => c.id),
      `Breaking API changes not stated in docs/api-changes.md; add a line with each id (and why), or undo the change:\n${list(missing)}`,
    ).toEqual([]);
  });

  it('matches the live document (refresh it after an additive or stated change)', () => {
    const snapshot = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
    if (JSON.stringify(snapshot) === JSON.stringify(live)) return;
    const changes = classifyChanges(snapshot, live);
    if (UPDATE && unstated(changes, readFileSync(CHANGELOG, 'utf8')).length === 0) {
      writeFileSync(SNAPSHOT, `${JSON.stringify(live, null, 2)}\n`);
      console.log(`docs/openapi.json refreshed:\n${list(changes) || '  (document-level texts)'}`);
      return;
    }
    expect.fail(
      `The API document changed; if that is intended, refresh the snapshot with\n  ${REFRESH}\nChanges:\n${list(changes) || '  (document-level texts)'}`,
    );
  });
});

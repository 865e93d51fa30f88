import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { createTestApp } from '../test/harness';
it('dump', async () => {
  const t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  writeFileSync('/tmp/apidoc/doc.json', JSON.stringify(res.json(), null, 2));
  await t.close();
}, 60000);

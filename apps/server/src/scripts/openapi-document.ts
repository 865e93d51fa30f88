/**
 * The OpenAPI document (plugins/openapi.ts) built in-process, without listening on a port: the app
 * is built on an in-memory PGlite database and a temporary data dir, `/api/docs/json` is read
 * through `inject`, and the app is closed. `@coffer/sdk` generates its types from it
 * (packages/sdk/scripts/generate.ts; docs/decisions/0062-sdk-generated-client.md).
 *
 * Run: `tsx src/scripts/openapi-document.ts` prints the document (JSON, 2-space indent) to stdout.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../app';
import { loadConfig } from '../env';

/**
 * The document as the server answers it at /api/docs/json.
 * @throws Error when the app does not build or the document is not served
 */
export async function buildOpenApiDocument(): Promise<unknown> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-openapi-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: 'memory://',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WORKERS: 'false',
    SERVE_WEB: 'false',
    PUBLIC_URL: 'http://127.0.0.1:8080',
  });
  const app = await buildApp({ config, logger: false, checkPaymentsMode: false });
  try {
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    if (res.statusCode !== 200) throw new Error(`/api/docs/json answered ${res.statusCode}`);
    return res.json();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await buildOpenApiDocument(), null, 2)}\n`);
}

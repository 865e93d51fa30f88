/**
 * Starts a worker thread from a TypeScript module of the source tree, typed and linted like the rest
 * (docs/architecture.md "Worker threads").
 *
 * `url` is the worker module as the caller sees it: `new URL('./x.worker.js', import.meta.url)`
 * written with the extension of the calling file ({@link workerUrl} does this). In the compiled
 * server (`npm start`, dist/) that is a `.js` file Node runs as it is. In tests and `npm run dev`
 * the caller runs from its `.ts` source, and a worker's entry file is loaded before any `--import`
 * hook of its own execArgv is registered (Node 20), so the thread first registers tsx's loader
 * (`tsx/esm/api`, a dev dependency) and then imports the module.
 *
 * @throws whatever `new Worker` throws (an unreadable file, bad options)
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The URL of the sibling worker module `name` (no extension) of the module at `from` (its import.meta.url). */
export function workerUrl(name: string, from: string): URL {
  const ext = /\.[cm]?ts$/.test(new URL(from).pathname) ? '.ts' : '.js';
  return new URL(`./${name}${ext}`, from);
}

/** The file of tsx's ESM API (`tsx/esm/api` under the `import` condition, which require.resolve does not take). */
function tsxEsmApi(): string {
  const pkgFile = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return path.join(path.dirname(pkgFile), pkg.exports['./esm/api']!.import.default);
}

/** Starts the worker module at `url` (see the module comment). `options.eval` is not allowed. */
export function startWorkerModule(url: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const tsx = pathToFileURL(tsxEsmApi()).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); });`;
  // No flags of this process (`--conditions`, `--input-type`, ...): the worker starts clean.
  return new Worker(bootstrap, { execArgv: [], ...options, eval: true });
}

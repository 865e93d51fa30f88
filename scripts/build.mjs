/**
 * `npm run build` (docs/operations.md, ADR 0015): compiles packages/contract and apps/server to
 * JavaScript with tsc (each to its `dist/`), makes the emitted relative imports Node-ESM valid
 * (`./x` -> `./x.js`, `./dir` -> `./dir/index.js`; the sources keep extensionless, bundler-style
 * imports), copies the SQL migrations beside the compiled database client, builds the web app
 * (Vite), then writes `apps/server/dist/.build-stamp`.
 *
 * The compiled server is started with `node --conditions=coffer-compiled`, under which
 * `@coffer/contract` resolves to its `dist/index.js`; tests and `npm run dev` resolve the
 * TypeScript sources (package.json `exports`).
 *
 * Also a module: {@link buildIsCurrent} tells scripts/start.mjs whether a rebuild is needed.
 * Throws (exit 1 from the command line) when a step fails.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'apps/server');
const contractDir = path.join(root, 'packages/contract');
const webDir = path.join(root, 'apps/web');
/** Written last by {@link build}; its mtime is the build's time. */
export const stampFile = path.join(serverDir, 'dist/.build-stamp');
/** The compiled entry point. */
export const serverEntry = path.join(serverDir, 'dist/server.js');
/** Written after a web build that passed (here or by scripts/build-web.mjs); its mtime is that build's start. */
export const webStampFile = path.join(webDir, 'dist/.web-stamp');

/**
 * Writes {@link webStampFile} with the start time (ms since the epoch) of the web build that just
 * passed: a web source saved while Vite ran is newer than the stamp, so scripts/build-web.mjs builds again.
 */
export function writeWebStamp(startedMs) {
  writeFileSync(webStampFile, `${new Date(startedMs).toISOString()}\n`);
  utimesSync(webStampFile, new Date(startedMs), new Date(startedMs));
}

/** What the web app's build reads (also scripts/build-web.mjs's staleness rule for `npm run e2e`). */
export const WEB_SOURCES = [
  'package-lock.json',
  'tsconfig.base.json',
  'packages/contract/src',
  'packages/contract/package.json',
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/package.json',
  'apps/web/tsconfig.json',
  'apps/web/vite.config.ts',
];

/** Inputs of the build: a change under these (newer than the stamp) makes the build stale. */
const SOURCES = [
  ...WEB_SOURCES,
  'packages/contract/tsconfig.json',
  'packages/contract/tsconfig.build.json',
  'apps/server/src',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'apps/server/tsconfig.build.json',
  'scripts/build.mjs',
];
/** Newest mtime (ms since epoch) of a file or of the files under a directory (but `node_modules` and `dist`); 0 when absent. */
export function newestMtime(p) {
  let st;
  try {
    st = statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/**
 * True when the compiled server, contract and web app exist and the stamp is newer than every source
 * listed in SOURCES (file mtimes; a fresh clone has no stamp, so it builds).
 */
export function buildIsCurrent() {
  if (!existsSync(stampFile) || !existsSync(serverEntry) || !existsSync(path.join(contractDir, 'dist/index.js'))) return false;
  if (!existsSync(path.join(webDir, 'dist/index.html'))) return false;
  const built = statSync(stampFile).mtimeMs;
  return SOURCES.every((s) => newestMtime(path.join(root, s)) <= built);
}

/** All .js files under a directory. */
function jsFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/**
 * Rewrites extensionless relative specifiers in emitted ESM (`import`/`export ... from '...'` at the
 * start of a line, bare `import '...'` and dynamic `import('...')`) to the file that exists: `<spec>.js` or `<spec>/index.js`.
 * @throws Error naming the file and specifier when neither exists
 */
export function fixRelativeImports(distDir) {
  // Statements start a line (tsc's output); `[^;'"\`]*` keeps a match inside one statement, so text
  // such as demo files' source held in template strings is not touched. Dynamic imports: `import('./x')`.
  const pattern = /(^[ \t]*(?:import|export)\b[^;'"`]*?\bfrom\s*|^[ \t]*import\s*|\bimport\(\s*)(['"])(\.{1,2}\/[^'"]*)\2/gm;
  for (const file of jsFiles(distDir)) {
    const text = readFileSync(file, 'utf8');
    const fixed = text.replace(pattern, (whole, lead, quote, spec) => {
      if (/\.(m?js|json)$/.test(spec)) return whole;
      const base = path.resolve(path.dirname(file), spec);
      if (existsSync(`${base}.js`)) return `${lead}${quote}${spec}.js${quote}`;
      if (existsSync(path.join(base, 'index.js'))) return `${lead}${quote}${spec}/index.js${quote}`;
      throw new Error(`${path.relative(root, file)}: cannot resolve ${spec}`);
    });
    if (fixed !== text) writeFileSync(file, fixed);
  }
}

/** Seconds between the "still working" lines of a long step. */
const HEARTBEAT_S = 15;

/**
 * Runs one step, its output shown as it comes; says every {@link HEARTBEAT_S} s that it is still
 * running (tsc prints nothing until it is done) and how long it took.
 * @throws Error when the command exits with a status other than 0
 */
async function run(label, cmd, args, cwd) {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const ticker = setInterval(() => console.log(`build: still ${label} (${seconds()} s)`), HEARTBEAT_S * 1000);
  try {
    await new Promise((resolve, reject) => {
      const child = spawn(cmd, args, { cwd, stdio: 'inherit' });
      child.on('error', reject);
      child.on('exit', (code, signal) =>
        code === 0 ? resolve() : reject(new Error(`build: ${label} failed (${signal ?? `exit ${code}`})`)),
      );
    });
  } finally {
    clearInterval(ticker);
  }
  console.log(`build: ${label}: done in ${seconds()} s`);
}

/**
 * Runs every build step (see the module docstring), saying which and how long each took: on two
 * cores about 20 s for the contract, 60-90 s for the server and 30-60 s for the web app.
 * @throws Error when a step fails
 */
export async function build({ web = true } = {}) {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  const started = Date.now();
  const steps = web ? 3 : 2;
  console.log(
    `build: ${steps} steps, about ${web ? '2-3 minutes' : '1-2 minutes'} on two cores (once: later starts reuse the build)`,
  );
  for (const [i, [dir, label]] of [
    [contractDir, 'compiling the contract (tsc)'],
    [serverDir, 'compiling the server (tsc)'],
  ].entries()) {
    console.log(`build ${i + 1}/${steps}: ${label}`);
    rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
    await run(label, process.execPath, [tsc, '-p', 'tsconfig.build.json'], dir);
    fixRelativeImports(path.join(dir, 'dist'));
  }
  cpSync(path.join(serverDir, 'src/db/migrations'), path.join(serverDir, 'dist/db/migrations'), { recursive: true });
  if (web) {
    console.log(`build 3/3: building the web app (vite)`);
    const webStarted = Date.now();
    await run('building the web app (vite)', 'npm', ['run', 'build', '-w', '@coffer/web'], root);
    writeWebStamp(webStarted);
  }
  writeFileSync(stampFile, `${new Date().toISOString()}\n`);
  console.log(`build: done in ${Math.round((Date.now() - started) / 1000)} s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

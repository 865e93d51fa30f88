/**
 * `npm run e2e` and `npm run e2e:journey`, first step: builds the web app (`npm run build -w
 * @coffer/web`, Vite) only when `apps/web/dist` is missing or older than one of its sources
 * (`WEB_SOURCES` of scripts/build.mjs, and this script), and otherwise says so and returns at once. `.ci/run`'s PostgreSQL pass runs
 * the journey after the PGlite pass built the same sources: about 20-25 s of a second Vite build
 * saved on the 2-core CI machine.
 *
 * Staleness is by file mtimes against `apps/web/dist/.web-stamp`, written after a build that passed
 * (scripts/build.mjs's `newestMtime`, the same rule `npm start` uses for the whole build; `npm start`'s
 * build writes the same stamp, so `npm run e2e` after it does not build the web app again).
 * `--force` builds whatever the stamp says. Exit 1 when the build fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { newestMtime, root, WEB_SOURCES, webStampFile as stamp, writeWebStamp } from './build.mjs';

const webDir = path.join(root, 'apps/web');

/** True when the stamp and the built document exist and the stamp is newer than every web source and this script. */
function webBuildIsCurrent() {
  if (!existsSync(stamp) || !existsSync(path.join(webDir, 'dist/index.html'))) return false;
  const built = statSync(stamp).mtimeMs;
  return [...WEB_SOURCES, 'scripts/build-web.mjs'].every((s) => newestMtime(path.join(root, s)) <= built);
}

if (!process.argv.includes('--force') && webBuildIsCurrent()) {
  console.log('build-web: apps/web/dist is newer than every web source; not building again');
} else {
  const started = Date.now();
  const result = spawnSync('npm', ['run', 'build', '-w', '@coffer/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build-web: the web build failed (${result.signal ?? `exit ${result.status}`})`);
    process.exit(1);
  }
  // The stamp carries the build's start time: a source saved while Vite ran is newer, so stale.
  writeWebStamp(started);
  console.log(`build-web: done in ${Math.round((Date.now() - started) / 1000)} s`);
}

/**
 * `npm start`, first half (docs/operations.md, ADR 0015): builds (scripts/build.mjs) only when the
 * build is missing or older than its sources, and otherwise returns at once. The npm script then
 * `exec`s `node --conditions=coffer-compiled apps/server/dist/server.js`, so the running server is
 * one plain Node process (no tsx, no wrapper) that receives SIGTERM directly.
 */
import { build, buildIsCurrent } from './build.mjs';

if (!buildIsCurrent()) {
  console.log('start: the build is missing or older than the sources; building first');
  try {
    await build();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}

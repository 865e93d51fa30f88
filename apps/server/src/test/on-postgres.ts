/**
 * True when DATABASE_URL names a PostgreSQL server (`.ci/run`'s PostgreSQL pass); unset or `memory://`:
 * PGlite. A case that pins PGlite whatever the variable says (a script spawned on an on-disk PGlite
 * data dir, a child on `memory://`) is skipped on PostgreSQL with `it.skipIf(onPostgres)`: there it
 * would only repeat the PGlite pass's run. Its own module, free of app imports, so that a test which
 * must not load the app (boot-imports.test.ts) can read it; test/harness.ts re-exports it.
 */
export const onPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');

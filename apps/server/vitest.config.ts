import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // PGlite is WASM (memory-hungry per instance); two workers fit the 2-core machines.
    maxWorkers: 2,
    // Test files share their worker's modules instead of importing the app anew each (3-4 s a
    // file): every file builds its own app (harness.ts) and restores what it spies on, so nothing
    // else crosses files. Measured on 2026-11-27: the PGlite suite in 291 s instead of 421 s.
    isolate: false,
  },
});

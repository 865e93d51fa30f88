import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // PGlite is WASM (memory-hungry per instance); two workers fit the 2-core machines.
    maxWorkers: 2,
  },
});

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { srcAlias } from './vite.config';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: [srcAlias] },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/vm-globals.ts', './src/test/setup.ts'],
    css: false,
    // Dates are formatted in UTC so that expectations do not depend on the machine's zone.
    env: { TZ: 'UTC' },
    restoreMocks: true,
    // Above testing-library's 5 s asyncUtilTimeout (src/test/setup.ts), so a slow machine fails
    // with the waitFor's own message rather than a bare test timeout.
    testTimeout: 20_000,
    // Both cores: vitest's default is one worker fewer than the cores (one, on a 2-core machine).
    // Measured on 2026-11-29: 140 s instead of 207 s for the suite. Files stay isolated (each its
    // own jsdom and modules): without isolation, a shuffled order failed a test.
    maxWorkers: 2,
    // Each file in its own VM context of a worker thread (still its own jsdom and its own app
    // modules) instead of a process each: the forked workers spent about half the suite setting up
    // jsdom and importing the same libraries per file. Measured on 2026-11-29 (2 cores, load 2-3):
    // 149 s (setup 75 s) with forks, 78 s (setup 43 s) with vmThreads, the same 426 tests. The VM
    // context lacks web streams (src/test/vm-globals.ts), and its window's `location` cannot be
    // spied on (src/lib/page-reload.ts). A worker is restarted past vmMemoryLimit (a share of the
    // memory by default).
    pool: 'vmThreads',
  },
});

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { srcAlias } from './vite.config';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: [srcAlias] },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
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
  },
});

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // Dates are formatted in UTC so that expectations do not depend on the machine's zone.
    env: { TZ: 'UTC' },
    restoreMocks: true,
  },
});

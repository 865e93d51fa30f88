import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const api = process.env.COFFER_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  // Precompressed .br and .gz files beside each asset: the server sends them as they are (no per-request CPU).
  plugins: [react(), tailwindcss(), compression({ algorithms: ['gzip', 'brotliCompress'], threshold: 1024 })],
  server: {
    port: 5173,
    proxy: {
      '/api': api,
      '/sl': api,
      '/files': api,
      '/static': api,
      '/media': api,
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      output: {
        // Merge chunks under 2 kB into a neighbour that loads with them: fewer tiny requests on a phone (ADR 0016).
        experimentalMinChunkSize: 2000,
        // Long-lived vendor chunks: they change less often than the app, so browsers keep them cached.
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
          // Anything else (e.g. a page's own library) stays with the lazy page that uses it.
          return undefined;
        },
      },
    },
  },
});

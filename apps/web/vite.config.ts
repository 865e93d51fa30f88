import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

const api = process.env.COFFER_API ?? 'http://127.0.0.1:8080';

/** '@/x' is src/x (tsconfig.json "paths" and vitest.config.ts say the same); '@coffer/...' is untouched. */
export const srcAlias = { find: /^@\//, replacement: `${fileURLToPath(new URL('./src/', import.meta.url))}` };

/**
 * Preloads the Latin Inter font the first paint's text needs (ADR 0016): its hashed file name is
 * known only once the bundle is written, so the link is added to the built index.html here.
 */
function preloadLatinFont(): Plugin {
  return {
    name: 'coffer-preload-latin-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((f) => /inter-latin-wght-normal-[\w-]+\.woff2$/.test(f));
        return font
          ? [
              {
                tag: 'link',
                attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${font}`, crossorigin: '' },
                injectTo: 'head',
              },
            ]
          : [];
      },
    },
  };
}

export default defineConfig({
  // Precompressed .br and .gz files beside each asset: the server sends them as they are (no per-request CPU).
  plugins: [react(), tailwindcss(), preloadLatinFont(), compression({ algorithms: ['gzip', 'brotliCompress'], threshold: 1024 })],
  resolve: { alias: [srcAlias] },
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

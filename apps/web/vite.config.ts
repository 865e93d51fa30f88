import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

const api = process.env.COFFER_API ?? 'http://127.0.0.1:8080';

/** '@/x' is src/x (tsconfig.json "paths" and vitest.config.ts say the same); '@coffer/...' is untouched. */
export const srcAlias = { find: /^@\//, replacement: `${fileURLToPath(new URL('./src/', import.meta.url))}` };

/**
 * The lazy page module each document path opens with (src/app/router.tsx); `:id` stands for one path
 * segment. The server links these chunks as modulepreload in the document it answers for the path,
 * so a phone fetches the page's code beside the entry instead of after it (issue 16, ADR 0035).
 */
export const ROUTE_MODULES: Record<string, string> = {
  '/': 'src/app/routes/home.tsx',
  '/collection/:id': 'src/app/routes/collection.tsx',
  '/resource/:id': 'src/app/routes/resource.tsx',
  '/login': 'src/app/routes/auth/login.tsx',
  '/register': 'src/app/routes/auth/register.tsx',
  '/mycollections': 'src/app/routes/my-collections.tsx',
  '/upload': 'src/app/routes/upload.tsx',
  '/transactions': 'src/app/routes/transactions.tsx',
};

/**
 * Writes dist/route-preloads.json: `{ "/collection/:id": ["/assets/collection-x.js", ...] }`, each
 * path's page chunk and the chunks it imports statically, without those the entry already loads.
 */
function routePreloads(): Plugin {
  return {
    name: 'coffer-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (file: string, into: Set<string>) => {
        if (into.has(file)) return into;
        into.add(file);
        for (const dep of byFile.get(file)?.imports ?? []) closure(dep, into);
        return into;
      };
      const loaded = new Set<string>();
      for (const entry of chunks.filter((c) => c.isEntry)) closure(entry.fileName, loaded);
      const out: Record<string, string[]> = {};
      for (const [route, module] of Object.entries(ROUTE_MODULES)) {
        const own = (id: string | null) => Boolean(id?.endsWith(`/apps/web/${module}`));
        // A small page may have been merged into a neighbour (experimentalMinChunkSize): then that chunk.
        const page = chunks.find((c) => own(c.facadeModuleId)) ?? chunks.find((c) => c.moduleIds.some(own));
        if (!page) this.error(`route-preloads: no chunk for ${module} (${route})`);
        out[route] = [...closure(page.fileName, new Set())].filter((f) => !loaded.has(f)).map((f) => `/${f}`);
      }
      this.emitFile({ type: 'asset', fileName: 'route-preloads.json', source: `${JSON.stringify(out, null, 2)}\n` });
    },
  };
}

export default defineConfig({
  // Precompressed .br and .gz files beside each asset: the server sends them as they are (no per-request CPU).
  plugins: [react(), tailwindcss(), routePreloads(), compression({ algorithms: ['gzip', 'brotliCompress'], threshold: 1024 })],
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

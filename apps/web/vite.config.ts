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
  // The first screens (bench:web's pages) before the rest: a route's group holds only what no earlier
  // group holds, so a later page (the creator page shares the pager with My Collections) must not
  // make a first screen load its group.
  '/mycollections': 'src/app/routes/my-collections.tsx',
  '/creator/:id': 'src/app/routes/creator.tsx',
  '/resource/:id': 'src/app/routes/resource.tsx',
  '/login': 'src/app/routes/auth/login.tsx',
  '/register': 'src/app/routes/auth/register.tsx',
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
    buildStart() {
      routeGroups = undefined; // computed again from this build's module graph
    },
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

/**
 * The chunk of each module a first screen needs (ADR 0042, amended by ADR 0044):
 * - `index`, the entry chunk: what the entry reaches by static imports, the storefront's page
 *   (`/`, the first of {@link ROUTE_MODULES}) with everything it reaches, and what the other two
 *   first screens opened from outside share ({@link SHARED_FIRST_SCREENS}). Every first screen needs
 *   most of it, and on a phone's link (HTTP/1.1, six connections, a round trip per file on each) a
 *   separate file for it cost more than the few kB the other pages carry with it;
 * - `route-<name>` for each other route: what its page reaches that no earlier group holds (the
 *   order of {@link ROUTE_MODULES}); a later route's page loads the earlier groups it shares
 *   modules with.
 * `/` then needs the entry and `react` (2 files), `/collection/:id` and `/mycollections` one more
 * (17, 24 and 18 before ADR 0042). Dynamic imports start their own chunks as before.
 * @returns module id -> chunk name, for `manualChunks`
 */
function groupByRoute(
  info: (id: string) => ModuleFacts | null,
  ids: () => IterableIterator<string>,
): Map<string, string> {
  const all = [...ids()];
  const icons = iconFiles(all, info);
  const closure = (roots: string[], into = new Set<string>()) => {
    const stack = [...roots];
    while (stack.length) {
      const id = stack.pop()!;
      if (into.has(id)) continue;
      into.add(id);
      const module = info(id);
      if (!module) continue;
      // lucide-react's index re-exports every icon: followed, whoever imports it first (the entry)
      // would take every icon the whole app uses. Only the icons this module names are followed.
      if (icons && module.importedIds.includes(icons.index)) {
        stack.push(...module.importedIds.filter((dep) => dep !== icons.index), ...icons.usedBy(module.code ?? ''));
      } else if (id !== icons?.index) {
        stack.push(...module.importedIds);
      }
    }
    return into;
  };
  const taken = closure(all.filter((id) => info(id)?.isEntry));
  // The entry's own modules are named too: Rollup adds a manual chunk's unnamed static dependencies
  // to that chunk, which would move the entry's code into the first route's group.
  const groups = new Map<string, string>([...taken].filter((id) => !id.startsWith('\0')).map((id) => [id, 'index']));
  const pageOf = (module: string) => all.find((id) => id.endsWith(`/apps/web/${module}`));
  const assign = (ids: Iterable<string>, name: string) => {
    for (const id of ids) {
      if (taken.has(id) || id.startsWith('\0') || /\.css($|\?)/.test(id)) continue;
      groups.set(id, name);
      taken.add(id);
    }
  };
  const [first, ...others] = Object.entries(ROUTE_MODULES);
  const home = pageOf(first![1]);
  if (home) assign(closure([home]), 'index');
  // What the two other first screens share travels with the entry too, so that neither loads the
  // other's whole group for it (ADR 0044).
  const [a, b] = SHARED_FIRST_SCREENS.map((route) => pageOf(ROUTE_MODULES[route]!));
  if (a && b) {
    const inB = closure([b]);
    assign([...closure([a])].filter((id) => inB.has(id)), 'index');
  }
  for (const [, module] of others) {
    const page = pageOf(module);
    if (page) assign(closure([page]), routeGroupName(module));
  }
  return groups;
}
let routeGroups: Map<string, string> | undefined;

interface ModuleFacts {
  importedIds: readonly string[];
  isEntry: boolean;
  code: string | null;
}

/**
 * lucide-react's index module and, for a module's code, the icon modules its `import {…} from
 * 'lucide-react'` names (from the index's own `export { default as Name, … } from './icons/x.js'`
 * lines). Without it the index's static closure is every icon, and the group that reaches the index
 * first (the entry's) took every icon the app uses anywhere: 81 icons, most for later pages (ADR 0044).
 * @returns null when the build has no lucide-react, or its index is not in the expected shape
 */
function iconFiles(all: string[], info: (id: string) => ModuleFacts | null) {
  const index = all.find((id) => /\/node_modules\/lucide-react\/dist\/esm\/lucide-react\.js$/.test(id));
  const code = index ? info(index)?.code : null;
  if (!index || !code) return null;
  const dir = index.slice(0, index.lastIndexOf('/') + 1);
  const fileOf = new Map<string, string>();
  for (const [, names, file] of code.matchAll(/export \{([^}]*)\} from '(\.\/icons\/[^']+)'/g)) {
    for (const name of names!.split(',')) fileOf.set(name.trim().split(/\s+as\s+/).pop()!, `${dir}${file!.slice(2)}`);
  }
  // An index of another shape (a new lucide-react): follow it whole, as before, rather than lose icons.
  if (!fileOf.size) return null;
  return {
    index,
    usedBy(moduleCode: string): string[] {
      const used: string[] = [];
      for (const [, names] of moduleCode.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]lucide-react['"]/g)) {
        for (const name of names!.split(',')) {
          const file = fileOf.get(name.trim().split(/\s+as\s+/)[0]!);
          if (file) used.push(file);
        }
      }
      return used;
    },
  };
}

/** `src/app/routes/auth/login.tsx` -> `route-auth-login`. */
function routeGroupName(module: string): string {
  return `route-${module
    .replace(/^src\/app\/routes\//, '')
    .replace(/\.tsx$/, '')
    .replace(/\//g, '-')}`;
}

/**
 * The two first screens besides the storefront that readers open from outside (a shared link, a
 * bookmark): the modules both reach travel in the entry chunk; before, `/mycollections` loaded all
 * of `route-collection` for a fifth of it.
 */
const SHARED_FIRST_SCREENS = ['/collection/:id', '/mycollections'] as const;

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
        // React as a long-lived vendor chunk (it changes less often than the app, so browsers keep it
        // cached); the entry's modules as `index`; each route's first screen as one group.
        manualChunks(id, { getModuleInfo, getModuleIds }) {
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
          routeGroups ??= groupByRoute(getModuleInfo, getModuleIds);
          // What a route's page needs beyond the entry travels as one file (ADR 0016, issue 16).
          return routeGroups.get(id);
        },
      },
    },
  },
});

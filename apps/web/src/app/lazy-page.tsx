/**
 * Pages that load lazily (React.lazy, product §2) and can also be loaded ahead.
 *
 * `lazyPage(load)` is a component that renders the page through `React.lazy` (the layout's Suspense
 * fallback shows while its chunk loads) until the module is in; from then on it renders the page at
 * once. {@link preloadPagesFor} loads the pages of a URL before the first render: the document
 * modulepreloads their chunks beside the entry (apps/server/src/plugins/web-document.ts), so the
 * first screen is painted once, complete, instead of a fallback first and the page a render later
 * (issue 16, docs/decisions/0035-first-screen-in-the-document.md).
 */
import type { QueryClient } from '@tanstack/react-query';
import { lazy, type ComponentType, type ReactElement } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';

/**
 * A lazily loaded page component with `preload()`, which resolves once its module is loaded, and
 * `prefetch(client)`, which starts the page's first call when the page is the first URL.
 */
export type LazyPage = ComponentType & { preload: () => Promise<void>; prefetch?: (client: QueryClient) => void };

/**
 * @param load the page module's dynamic import (its default export is the page)
 * @param prefetch starts the first call the page makes (with the exact key it reads), so that it
 *   travels beside the page's chunk instead of after the first render
 */
export function lazyPage(
  load: () => Promise<{ default: ComponentType }>,
  prefetch?: (client: QueryClient) => void,
): LazyPage {
  let loaded: ComponentType | null = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (m) => {
        loaded = m.default;
      },
      (err: unknown) => {
        pending = null; // a later render or preload tries again
        throw err;
      },
    ));
  // React.lazy keeps a rejected import for good: after a failure the next render (the error
  // screen's "Try again", or coming back to the route) gets a new one, which imports again.
  const makeLazy = () =>
    lazy(() =>
      preload().then(
        () => ({ default: loaded! }),
        (err: unknown) => {
          Lazy = makeLazy();
          throw err;
        },
      ),
    );
  let Lazy = makeLazy();
  function Page() {
    const Loaded = loaded;
    const Pending = Lazy;
    return Loaded ? <Loaded /> : <Pending />;
  }
  return Object.assign(Page, { preload, ...(prefetch ? { prefetch } : {}) });
}

/**
 * Loads the lazy pages `routes` render for `pathname` and starts their first calls in `client`,
 * waiting at most `maxWaitMs` (ms; a slow network then sees the fallback as before) for the
 * modules. Never rejects: a chunk that fails to load is loaded again when the page renders, and
 * its error is shown there.
 */
export async function preloadPagesFor(
  routes: RouteObject[],
  pathname: string,
  client: QueryClient,
  maxWaitMs = 1_000,
): Promise<void> {
  const loads = (matchRoutes(routes, pathname) ?? []).flatMap((m) => {
    const type = (m.route.element as ReactElement | undefined)?.type as Partial<LazyPage> | undefined;
    type?.prefetch?.(client);
    return typeof type?.preload === 'function' ? [type.preload().catch(() => undefined)] : [];
  });
  if (!loads.length) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([Promise.all(loads), new Promise((resolve) => (timer = setTimeout(resolve, maxWaitMs)))]);
  clearTimeout(timer);
}

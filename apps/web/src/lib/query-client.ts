/**
 * TanStack Query setup of product §9: the default cache and the realtime, static and user presets,
 * plus the query-key roots every feature uses so that session expiry can drop cached data.
 */
import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

/** product §9 "Default cache": stale after 5 min, kept 10 min, no retry, no refetch on window focus. */
export const queryConfig = {
  queries: {
    staleTime: 5 * 60_000,
    gcTime: 10 * 60_000,
    retry: false,
    refetchOnWindowFocus: false,
  },
  mutations: { retry: false },
} satisfies DefaultOptions;

/** product §9 presets, spread into a query's options: `useQuery({ ...queryPresets.realtime, queryKey, queryFn })`. */
export const queryPresets = {
  /** stale at once, kept 1 min, refetched every 30 s */
  realtime: { staleTime: 0, gcTime: 60_000, refetchInterval: 30_000 },
  /** stale after 1 h, kept 24 h */
  static: { staleTime: 60 * 60_000, gcTime: 24 * 60 * 60_000 },
  /** stale after 5 min, kept 15 min */
  user: { staleTime: 5 * 60_000, gcTime: 15 * 60_000 },
} as const;

/**
 * Query-key roots. Every key starts with one of these, e.g. ['collections', 'mine', {page, size}],
 * ['transactions', userId, cate], ['assets', userId], ['user', 'me'], ['currencies', 'deposit'].
 */
export const queryKeys = {
  collections: ['collections'],
  resources: ['resources'],
  transactions: ['transactions'],
  user: ['user'],
  assets: ['assets'],
  currencies: ['currencies'],
} as const;

/** Roots whose data belongs to the signed-in user: dropped on session expiry and logout (product §4). */
export const SESSION_QUERY_ROOTS = [queryKeys.user, queryKeys.assets, queryKeys.collections, queryKeys.resources, queryKeys.transactions] as const;

/** A QueryClient with the default cache of product §9. */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryConfig });
}

/** Removes every cached query of the signed-in user (product §4, session expiry and logout). */
export function clearSessionQueries(client: QueryClient): void {
  for (const queryKey of SESSION_QUERY_ROOTS) client.removeQueries({ queryKey });
}

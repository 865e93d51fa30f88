import { describe, expect, it } from 'vitest';
import { clearSessionQueries, createQueryClient, queryPresets } from './query-client';

describe('query client (product §9)', () => {
  it('defaults: stale after 5 min, kept 10 min, no retry, no refetch on window focus', () => {
    const q = createQueryClient().getDefaultOptions().queries!;
    expect(q).toMatchObject({ staleTime: 300_000, gcTime: 600_000, retry: false, refetchOnWindowFocus: false });
  });

  it('presets: realtime, static and user', () => {
    expect(queryPresets.realtime).toEqual({ staleTime: 0, gcTime: 60_000, refetchInterval: 30_000 });
    expect(queryPresets.static).toEqual({ staleTime: 3_600_000, gcTime: 86_400_000 });
    expect(queryPresets.user).toEqual({ staleTime: 300_000, gcTime: 900_000 });
  });

  it("clearSessionQueries drops the user's data and keeps public currencies", () => {
    const client = createQueryClient();
    for (const key of [['user', 'me'], ['assets', 'u1'], ['collections', 'mine'], ['resources', 'r1'], ['transactions', 'u1', 'all'], ['currencies', 'deposit']]) {
      client.setQueryData(key, { any: 1 });
    }
    clearSessionQueries(client);
    expect(client.getQueryCache().getAll().map((q) => q.queryKey)).toEqual([['currencies', 'deposit']]);
  });
});

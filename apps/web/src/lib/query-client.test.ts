import { focusManager, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSessionQueries, createQueryClient, queryPresets } from './query-client';

afterEach(() => vi.useRealTimers());

describe('query client (product §9)', () => {
  // Behaviour, not the option values: what a query does over time with the default client.
  it('default cache: a fetch within 5 min is served from the cache, after it asks again; a failure is not retried', async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const queryFn = vi.fn(async () => 'v');
    await client.fetchQuery({ queryKey: ['k'], queryFn });
    vi.advanceTimersByTime(5 * 60_000 - 1);
    await client.fetchQuery({ queryKey: ['k'], queryFn });
    expect(queryFn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2);
    await client.fetchQuery({ queryKey: ['k'], queryFn });
    expect(queryFn).toHaveBeenCalledTimes(2);

    const failing = vi.fn(async () => {
      throw new Error('down');
    });
    await expect(client.fetchQuery({ queryKey: ['f'], queryFn: failing })).rejects.toThrow('down');
    expect(failing).toHaveBeenCalledTimes(1);
  });

  it('default cache: an unused query is dropped after 10 min, not before', async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    await client.fetchQuery({ queryKey: ['k'], queryFn: async () => 'v' });
    await vi.advanceTimersByTimeAsync(10 * 60_000 - 1);
    expect(client.getQueryData(['k'])).toBe('v');
    await vi.advanceTimersByTimeAsync(1);
    expect(client.getQueryData(['k'])).toBeUndefined();
  });

  it('default cache: the window regaining focus does not refetch', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(async () => 'v');
    const observer = new QueryObserver(client, { queryKey: ['k'], queryFn, staleTime: 0 });
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(queryFn).toHaveBeenCalledTimes(1));
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(queryFn).toHaveBeenCalledTimes(1);
    unsubscribe();
    focusManager.setFocused(undefined);
  });

  it('realtime preset: an observed query is fetched again every 30 s', async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const queryFn = vi.fn(async () => 'v');
    const unsubscribe = new QueryObserver(client, { ...queryPresets.realtime, queryKey: ['k'], queryFn }).subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(queryFn).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it.each([
    ['static', queryPresets.static, 60 * 60_000, 24 * 60 * 60_000],
    ['user', queryPresets.user, 5 * 60_000, 15 * 60_000],
  ] as const)('%s preset: served from the cache until stale, dropped when unused for its keep time', async (_name, preset, staleMs, keepMs) => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const queryFn = vi.fn(async () => 'v');
    await client.fetchQuery({ ...preset, queryKey: ['k'], queryFn });
    vi.advanceTimersByTime(staleMs - 1);
    await client.fetchQuery({ ...preset, queryKey: ['k'], queryFn });
    expect(queryFn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2);
    await client.fetchQuery({ ...preset, queryKey: ['k'], queryFn });
    expect(queryFn).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(keepMs - 1);
    expect(client.getQueryData(['k'])).toBe('v');
    await vi.advanceTimersByTimeAsync(1);
    expect(client.getQueryData(['k'])).toBeUndefined();
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

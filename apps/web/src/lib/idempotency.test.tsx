import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { newIdempotencyKey, useIdempotentMutation } from './idempotency';

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** A mutation whose calls are recorded and answered by `answers` in turn (true: success). */
function setup(answers: boolean[]) {
  const calls: { vars: string; key: string }[] = [];
  const resolvers: (() => void)[] = [];
  const hook = renderHook(
    () =>
      useIdempotentMutation(
        (vars: string, key: string) =>
          new Promise<string>((resolve, reject) => {
            const ok = answers[calls.length];
            calls.push({ vars, key });
            resolvers.push(() => (ok ? resolve('done') : reject(new Error('lost'))));
          }),
      ),
    { wrapper },
  );
  /** Waits for call number `n` (1-based) to start, then answers it. */
  const settle = async (n: number) => {
    await waitFor(() => expect(calls).toHaveLength(n));
    await act(async () => resolvers.shift()!());
  };
  return { hook, calls, settle };
}

describe('useIdempotentMutation', () => {
  it('sends once for two mutate calls in the same task (a double click)', async () => {
    const { hook, calls, settle } = setup([true]);
    act(() => {
      hook.result.current.mutate('a');
      hook.result.current.mutate('a');
    });
    await settle(1);
    await waitFor(() => expect(hook.result.current.isSuccess).toBe(true));
    expect(calls).toHaveLength(1);
  });

  it('keeps the key of the same variables after a failure, and takes a new one after a success or for other variables', async () => {
    const { hook, calls, settle } = setup([false, true, true, true]);
    act(() => hook.result.current.mutate('a'));
    await settle(1);
    await waitFor(() => expect(hook.result.current.isError).toBe(true));
    act(() => hook.result.current.mutate('a'));
    await settle(2);
    await waitFor(() => expect(hook.result.current.isSuccess).toBe(true));
    expect(calls[1]!.key).toBe(calls[0]!.key);
    act(() => hook.result.current.mutate('a'));
    await settle(3);
    expect(calls[2]!.key).not.toBe(calls[0]!.key);
    await waitFor(() => expect(hook.result.current.isPending).toBe(false));
    act(() => hook.result.current.mutate('b'));
    await settle(4);
    expect(calls[3]!.key).not.toBe(calls[2]!.key);
  });

  it('makes UUID keys', () => {
    expect(newIdempotencyKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
  });
});

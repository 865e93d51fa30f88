/**
 * One action, one effect (docs/api.md "Idempotency keys", docs/decisions/0051-idempotency-keys.md):
 * every button that creates something or moves points sends an `Idempotency-Key` with its call and
 * ignores clicks while its call is out.
 *
 * - {@link useActionKey}: the key of an intended action. The same input keeps its key until the call
 *   succeeds (a retry after a lost answer is answered the first result, never run twice); another
 *   input, or a new action after a success, gets a new key.
 * - {@link useSingleFlight}: a synchronous guard. `isPending` from react-query turns true only on the
 *   next render, so the second click of a double click would otherwise start a second call.
 * - {@link useIdempotentMutation}: both around a react-query mutation.
 */
import { useMutation, type MutateOptions, type UseMutationOptions, type UseMutationResult } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';

/** A fresh key: a random UUID (crypto.randomUUID, secure contexts; a random fallback elsewhere). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The key of the action whose input is `input` (any JSON value), and `done()` after its success. */
export function useActionKey(): { keyFor(input: unknown): string; done(): void } {
  const current = useRef<{ input: string; key: string } | null>(null);
  const keyFor = useCallback((input: unknown) => {
    const json = JSON.stringify(input ?? null);
    if (!current.current || current.current.input !== json) current.current = { input: json, key: newIdempotencyKey() };
    return current.current.key;
  }, []);
  const done = useCallback(() => {
    current.current = null;
  }, []);
  return useMemo(() => ({ keyFor, done }), [keyFor, done]);
}

/**
 * `run(start)` calls `start(release)` unless a call is out; `release()` (from onSettled) lets the
 * next one start. @returns whether it started
 */
export function useSingleFlight(): { run(start: (release: () => void) => void): boolean; busy(): boolean } {
  const out = useRef(false);
  const run = useCallback((start: (release: () => void) => void) => {
    if (out.current) return false;
    out.current = true;
    let released = false;
    start(() => {
      if (released) return;
      released = true;
      out.current = false;
    });
    return true;
  }, []);
  const busy = useCallback(() => out.current, []);
  return useMemo(() => ({ run, busy }), [run, busy]);
}

/**
 * `useMutation` for a call that creates something or moves points: `mutationFn` receives the
 * action's key ({@link useActionKey}: the same variables keep their key until a success), and
 * `mutate` ignores calls while one is out ({@link useSingleFlight}), so a double click sends once.
 */
export function useIdempotentMutation<TData, TVariables>(
  mutationFn: (variables: TVariables, idempotencyKey: string) => Promise<TData>,
  options: Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'> = {},
): UseMutationResult<TData, Error, TVariables> {
  const action = useActionKey();
  const flight = useSingleFlight();
  const mutation = useMutation<TData, Error, TVariables>({
    ...options,
    mutationFn: (variables) => mutationFn(variables, action.keyFor(variables)),
    onSuccess: (...args) => {
      action.done();
      return options.onSuccess?.(...args);
    },
  });
  const { mutate: send } = mutation;
  const mutate = useCallback(
    (variables: TVariables, callbacks?: MutateOptions<TData, Error, TVariables>) => {
      flight.run((release) =>
        send(variables, {
          ...callbacks,
          onSettled: (...args) => {
            release();
            callbacks?.onSettled?.(...args);
          },
        }),
      );
    },
    [flight, send],
  );
  return { ...mutation, mutate: mutate as UseMutationResult<TData, Error, TVariables>['mutate'] };
}

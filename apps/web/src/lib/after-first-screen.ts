/**
 * Work for after the first screen (issue 16, docs/decisions/0044-first-screen-before-the-font.md):
 * what the first screen does not show (the web font, the dialog code) is requested once it has been
 * shown, so that on a phone's link it does not take bandwidth from the JavaScript, data and banner
 * the first screen is waiting for. "Shown" is the first `largest-contentful-paint` entry, which the
 * browser reports once the frame that painted it is on screen; where that never comes (a hidden
 * tab, a browser without the entry type) the work runs after {@link FIRST_SCREEN_FALLBACK_MS}.
 */

import { useSyncExternalStore } from 'react';

/** How long to wait for the first screen to be reported before running the work anyway (ms). */
export const FIRST_SCREEN_FALLBACK_MS = 3000;

/**
 * Calls `load` once: at the first `largest-contentful-paint` entry observed on `win` (buffered, so
 * one reported before this call counts), or after `fallbackMs`, whichever comes first. A promise
 * `load` returns that rejects is ignored (the caller loads again when it needs the thing).
 * @returns a function that cancels the wait (nothing runs after it)
 */
export function afterFirstScreen(
  load: () => unknown,
  { win = window, fallbackMs = FIRST_SCREEN_FALLBACK_MS }: { win?: Window & typeof globalThis; fallbackMs?: number } = {},
): () => void {
  let done = false;
  let observer: PerformanceObserver | undefined;
  const finish = (run: boolean) => {
    if (done) return;
    done = true;
    observer?.disconnect();
    win.clearTimeout(timer);
    if (run) void Promise.resolve().then(load).catch(() => undefined);
  };
  const timer = win.setTimeout(() => finish(true), fallbackMs);
  try {
    if (win.PerformanceObserver?.supportedEntryTypes?.includes('largest-contentful-paint')) {
      observer = new win.PerformanceObserver(() => finish(true));
      observer.observe({ type: 'largest-contentful-paint', buffered: true });
    }
  } catch {
    /* no observer: the timer runs the work */
  }
  return () => finish(false);
}

let shown = false;
const listeners = new Set<() => void>();

/** Records that the page's first screen has been shown (main.tsx calls it through {@link afterFirstScreen}). */
export function markFirstScreenShown(): void {
  if (shown) return;
  shown = true;
  for (const listener of [...listeners]) listener();
}

/**
 * Whether the first screen has been shown: false until {@link markFirstScreenShown}, then true for
 * the rest of the page's life (later client-side navigations render at once).
 */
export function useFirstScreenShown(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => shown,
    () => false,
  );
}

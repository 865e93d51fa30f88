/**
 * The web font, loaded once the first screen has been shown (issue 16,
 * docs/decisions/0044-first-screen-before-the-font.md).
 *
 * Inter's files (48 kB for Latin) are not needed to paint anything: until they arrive, text is set
 * in 'Inter Fallback', a local sans-serif scaled to Inter's metrics (src/index.css), so the swap
 * moves nothing. Requested together with the first screen they take a phone's bandwidth from the
 * JavaScript, the data and the banner the first screen is waiting for; requested after it, they
 * cost the first screen nothing. "Shown" is the first `largest-contentful-paint` entry, which the
 * browser reports once the frame that painted it is on screen; where that never comes (a hidden
 * tab, a browser without the entry type) the font is loaded after {@link FONT_FALLBACK_MS}.
 */

/** How long to wait for the first screen to be reported before loading the font anyway (ms). */
export const FONT_FALLBACK_MS = 3000;

/** The stylesheet that declares Inter's `@font-face`s (its own chunk: src/styles/inter.css). */
export const importFontStyles = () => import('../styles/inter.css');

/**
 * Calls `load` once: at the first `largest-contentful-paint` entry observed on `win` (buffered, so
 * one reported before this call counts), or after `fallbackMs`, whichever comes first.
 * @returns a function that cancels the wait (nothing is loaded after it)
 */
export function loadAfterFirstScreen(
  load: () => unknown = importFontStyles,
  { win = window, fallbackMs = FONT_FALLBACK_MS }: { win?: Window & typeof globalThis; fallbackMs?: number } = {},
): () => void {
  let done = false;
  let observer: PerformanceObserver | undefined;
  const finish = (run: boolean) => {
    if (done) return;
    done = true;
    observer?.disconnect();
    win.clearTimeout(timer);
    if (run)
      void Promise.resolve()
        .then(load)
        .catch(() => undefined);
  };
  const timer = win.setTimeout(() => finish(true), fallbackMs);
  try {
    if (win.PerformanceObserver?.supportedEntryTypes?.includes('largest-contentful-paint')) {
      observer = new win.PerformanceObserver(() => finish(true));
      observer.observe({ type: 'largest-contentful-paint', buffered: true });
    }
  } catch {
    /* no observer: the timer loads the font */
  }
  return () => finish(false);
}

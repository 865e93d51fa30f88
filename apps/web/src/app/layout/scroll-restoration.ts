/**
 * Where a page opens (issue 43): a new page (a link, Save changes, a footer link) opens at the top;
 * Back and Forward return to where that entry was left. The declarative router (`useRoutes`, ADR
 * 0044) has no `<ScrollRestoration>` (a data-router feature), and the browser's own restoration
 * acts before a lazy page has rendered, so the app does it: positions are kept per history entry
 * (`location.key`) while the user scrolls, and restored on POP once the page is tall enough (for at
 * most {@link RESTORE_WAIT_MS} ms of frames, as lazy pages and their data come in).
 */
import { useEffect, useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/** How long a restore waits for the page to grow tall enough, in milliseconds. */
export const RESTORE_WAIT_MS = 1_000;

/** Scroll positions (px from the top) per history entry key; kept for the tab's life. */
const positions = new Map<string, number>();

/** Restores or resets the window's scroll position on every navigation (see the module docstring). */
export function useScrollRestoration(): void {
  const { key, hash } = useLocation();
  const type = useNavigationType();

  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
  }, []);

  // Remember this entry's position while it is shown.
  useEffect(() => {
    const save = () => positions.set(key, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, [key]);

  useLayoutEffect(() => {
    if (type !== 'POP') {
      // A link to an anchor scrolls there itself.
      if (!hash) window.scrollTo(0, 0);
      return;
    }
    const target = positions.get(key) ?? 0;
    const started = performance.now();
    let frame = 0;
    const attempt = () => {
      const reachable = document.documentElement.scrollHeight - window.innerHeight >= target;
      if (reachable || performance.now() - started > RESTORE_WAIT_MS) {
        window.scrollTo(0, target);
        return;
      }
      frame = requestAnimationFrame(attempt);
    };
    attempt();
    return () => cancelAnimationFrame(frame);
  }, [key, type, hash]);
}

/**
 * Warns before work in progress is lost (uploads not yet in a collection): while `active`,
 * - closing or reloading the tab asks the browser's own "Leave site?" (beforeunload);
 * - a click on a link to another page of the app asks `message` with window.confirm first, and is
 *   dropped when the user stays (a capture listener on the document runs before react-router's
 *   Link handler; the app uses the declarative router, which has no navigation blocker);
 * - the browser's Back button asks too: a guard entry, a copy of the current history entry (same
 *   URL, same react-router state plus {@link LEAVE_GUARD_STATE}), is pushed on top, so Back first
 *   lands on the same page; the popstate listener then asks, and either goes back once more
 *   (leave) or pushes the guard entry again (stay). Chromium skips entries a page added without a
 *   user activation ("history manipulation intervention"); the guard is pushed once files are picked,
 *   which is such an activation.
 * When the warning ends on the page itself (the files are in the collection), the guard entry is
 * made an ordinary copy of the page (its flag removed); a page that then navigates away on its own
 * does so with {@link leaveGuardOptions}, replacing the guard entry instead of stacking on it. A
 * link the user confirms leaving by first steps back off the guard entry, then follows the link, so
 * Back from the next page returns to this page once.
 * Links inside `scope` (the form itself), new-tab clicks and downloads are left alone.
 */
import { useEffect, useRef, type RefObject } from 'react';
import { useNavigate } from 'react-router';

/** The key set in `history.state` on a guard entry. */
export const LEAVE_GUARD_STATE = 'cofferLeaveGuard';

type GuardState = Record<string, unknown> | null;

function onGuardEntry(): boolean {
  return Boolean((window.history.state as GuardState)?.[LEAVE_GUARD_STATE]);
}

function pushGuard(): void {
  window.history.pushState(
    { ...((window.history.state as GuardState) ?? {}), [LEAVE_GUARD_STATE]: true },
    '',
    window.location.href,
  );
}

/**
 * Options for a page's own `navigate(to, options)` when its work is done (e.g. after saving):
 * `{ replace: true }` while the current entry is a guard entry, so Back from the next page returns
 * to this page once, not twice.
 */
export function leaveGuardOptions(): { replace: boolean } {
  return { replace: onGuardEntry() };
}

export function useLeaveWarning(active: boolean, message: string, scope?: RefObject<HTMLElement | null>): void {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  useEffect(() => {
    if (!active) return;
    const href = window.location.href;
    let leaving = false;
    if (!onGuardEntry()) pushGuard();
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = message;
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = (e.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || link.target === '_blank' || link.hasAttribute('download')) return;
      if (scope?.current?.contains(link)) return;
      const to = new URL(link.href, window.location.href);
      if (
        to.origin !== window.location.origin ||
        (to.pathname === window.location.pathname && to.search === window.location.search)
      )
        return;
      if (!window.confirm(message)) {
        e.preventDefault();
        e.stopPropagation();
        return;
      }
      leaving = true;
      if (!onGuardEntry()) return;
      // Off the guard entry first, then to the link: the guard never stays in the history.
      e.preventDefault();
      e.stopPropagation();
      window.addEventListener('popstate', () => void navigateRef.current(`${to.pathname}${to.search}${to.hash}`), { once: true });
      window.history.back();
    };
    const onPopState = () => {
      // Forward onto the guard entry again, another page, or our own second step back: nothing to ask.
      if (leaving || onGuardEntry() || window.location.href !== href) return;
      if (window.confirm(message)) {
        leaving = true;
        window.history.back();
      } else {
        pushGuard();
      }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('popstate', onPopState);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('popstate', onPopState);
      document.removeEventListener('click', onClick, true);
      // The work is safe and the page stays: the guard entry becomes a plain copy of the page.
      if (!leaving && onGuardEntry() && window.location.href === href) {
        const { [LEAVE_GUARD_STATE]: _guard, ...rest } = (window.history.state as Record<string, unknown>) ?? {};
        window.history.replaceState(rest, '', href);
      }
    };
  }, [active, message, scope]);
}

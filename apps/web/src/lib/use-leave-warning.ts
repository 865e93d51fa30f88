/**
 * Warns before work in progress is lost (uploads not yet in a collection): while `active`,
 * - closing or reloading the tab asks the browser's own "Leave site?" (beforeunload);
 * - a click on a link to another page of the app asks `message` with window.confirm first, and is
 *   dropped when the user stays (a capture listener on the document runs before react-router's
 *   Link handler; the app uses the declarative router, which has no navigation blocker).
 * Links inside `scope` (the form itself), new-tab clicks and downloads are left alone.
 */
import { useEffect, type RefObject } from 'react';

export function useLeaveWarning(active: boolean, message: string, scope?: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!active) return;
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
      if (to.origin !== window.location.origin || (to.pathname === window.location.pathname && to.search === window.location.search)) return;
      if (window.confirm(message)) return;
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [active, message, scope]);
}

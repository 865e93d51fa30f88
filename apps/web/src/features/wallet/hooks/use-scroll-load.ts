/**
 * Infinite scroll of product §2: calls `onLoad` when the scroll position is within `threshold` px
 * (product §9: 50) of the bottom of `target` (an element, or the window), and again after each load
 * while the content is still too short to scroll.
 */
import { SCROLL_LOAD_THRESHOLD_PX } from '@coffer/contract/constants';
import { useCallback, useEffect, useRef, type RefObject } from 'react';

export interface ScrollLoadOptions {
  /** The scrolling element, or 'window' for the page. */
  target: RefObject<HTMLElement | null> | 'window';
  /** A next page exists. */
  hasMore: boolean;
  /** A page is being fetched (no second request meanwhile). */
  busy: boolean;
  onLoad: () => void;
  threshold?: number;
  /** Changes when rows were added (e.g. the number of loaded rows). */
  contentKey: unknown;
}

/** Distance in px between the visible bottom and the end of the content. */
export function distanceToBottom(target: HTMLElement | 'window'): number {
  if (target === 'window') {
    const doc = document.documentElement;
    return doc.scrollHeight - window.scrollY - window.innerHeight;
  }
  return target.scrollHeight - target.scrollTop - target.clientHeight;
}

export function useScrollLoad({
  target,
  hasMore,
  busy,
  onLoad,
  threshold = SCROLL_LOAD_THRESHOLD_PX,
  contentKey,
}: ScrollLoadOptions) {
  const state = useRef({ hasMore, busy, onLoad });
  state.current = { hasMore, busy, onLoad };

  const check = useCallback(() => {
    const { hasMore: more, busy: loading, onLoad: load } = state.current;
    if (!more || loading) return;
    const el = target === 'window' ? 'window' : target.current;
    if (!el) return;
    if (distanceToBottom(el) <= threshold) load();
  }, [target, threshold]);

  useEffect(() => {
    const el = target === 'window' ? window : target.current;
    if (!el) return;
    el.addEventListener('scroll', check, { passive: true });
    if (target === 'window') window.addEventListener('resize', check);
    return () => {
      el.removeEventListener('scroll', check);
      if (target === 'window') window.removeEventListener('resize', check);
    };
  }, [target, check]);

  // After rows arrive: content that does not fill the viewport cannot be scrolled, so load on.
  useEffect(() => {
    if (!busy) check();
  }, [contentKey, busy, hasMore, check]);
}

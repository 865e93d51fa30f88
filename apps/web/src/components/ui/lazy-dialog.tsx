/**
 * The dialog API of ./dialog.tsx (`Dialog` with `open`/`onOpenChange`, `DialogContent`,
 * `DialogFooter`, `useReturnFocus`) for a first screen that only may open a dialog: the Radix
 * implementation (about 30 kB of the collection page's JavaScript) is not part of that screen. It
 * is loaded once the screen has been shown ({@link afterFirstScreen}) or when a dialog opens
 * before that; a dialog opened before it has arrived appears as soon as it has (issue 16,
 * docs/decisions/0044-first-screen-before-the-font.md). Once loaded, opening renders in the same
 * pass as before. Controlled dialogs only: there is no `DialogTrigger` here.
 */
import type * as DialogPrimitive from '@radix-ui/react-dialog';
import { useEffect, useReducer, useState, type ComponentProps } from 'react';
import { afterFirstScreen } from '@/lib/after-first-screen';
import type { DialogContentProps } from './dialog';

export { DialogFooter, useReturnFocus } from './dialog-parts';

type Implementation = typeof import('./dialog');
let implementation: Implementation | null = null;
let loading: Promise<Implementation> | null = null;

/**
 * Loads the dialog implementation (once; later calls share the first load).
 * @returns the ./dialog.tsx module; rejects when its file cannot be fetched (a later call tries again)
 */
export function preloadDialog(): Promise<Implementation> {
  loading ??= import('./dialog').then(
    (m) => (implementation = m),
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

/** The implementation once loaded; loads it (and renders again) as soon as `wanted` is true. */
function useImplementation(wanted: boolean): Implementation | null {
  const [, loaded] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (!wanted || implementation) return;
    let live = true;
    preloadDialog().then(
      () => live && loaded(),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted]);
  // Not needed yet: fetch it after the first screen, so that a later click opens at once.
  useEffect(() => (implementation ? undefined : afterFirstScreen(preloadDialog)), []);
  return implementation;
}

/** `Dialog` of ./dialog.tsx: nothing is rendered (or loaded for it) until it is first open. */
export function Dialog(props: ComponentProps<typeof DialogPrimitive.Root>) {
  const [opened, setOpened] = useState(Boolean(props.open ?? props.defaultOpen));
  if ((props.open || props.defaultOpen) && !opened) setOpened(true);
  const m = useImplementation(opened);
  if (!opened || !m) return null;
  return <m.Dialog {...props} />;
}

/** `DialogContent` of ./dialog.tsx; only rendered inside {@link Dialog}, once the implementation is there. */
export function DialogContent(props: DialogContentProps) {
  const Content = implementation?.DialogContent;
  return Content ? <Content {...props} /> : null;
}

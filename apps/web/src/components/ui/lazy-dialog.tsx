/**
 * The dialog API of ./dialog.tsx (`Dialog` with `open`/`onOpenChange`, `DialogContent`,
 * `DialogFooter`, `useReturnFocus`) for a first screen that only may open a dialog: the Radix
 * implementation (about 30 kB of the collection page's JavaScript) is not part of that screen. It
 * is loaded once the screen has been shown ({@link afterFirstScreen}) or when a dialog opens
 * before that; a dialog opened before it has arrived appears as soon as it has (issue 16,
 * docs/decisions/0044-first-screen-before-the-font.md). Once loaded, opening renders in the same
 * pass as before. Controlled dialogs only: there is no `DialogTrigger` here.
 *
 * When the code cannot be fetched (the connection dropped, a new release removed the old file),
 * the dialog closes itself (`onOpenChange(false)`) and toasts 'An unexpected error occurred.'
 * (product §8); opening it again tries the fetch again.
 */
import type * as DialogPrimitive from '@radix-ui/react-dialog';
import { useEffect, useReducer, useRef, useState, type ComponentProps } from 'react';
import toast from 'react-hot-toast';
import { afterFirstScreen } from '@/lib/after-first-screen';
import { ErrorMessages } from '@/lib/api-client';
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

/**
 * The implementation once loaded; loads it (and renders again) as soon as `wanted` is true, and
 * calls `failed` when that load fails.
 */
function useImplementation(wanted: boolean, failed: () => void): Implementation | null {
  const [, loaded] = useReducer((n: number) => n + 1, 0);
  const onFailure = useRef(failed);
  onFailure.current = failed;
  useEffect(() => {
    if (!wanted || implementation) return;
    let live = true;
    preloadDialog().then(
      () => live && loaded(),
      () => live && onFailure.current(),
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
  // Opening (false -> true) asks for the implementation; after a failed load only a new opening asks again.
  const [wasOpen, setWasOpen] = useState(Boolean(props.open));
  if (Boolean(props.open) !== wasOpen) {
    setWasOpen(Boolean(props.open));
    if (props.open) setOpened(true);
  }
  const m = useImplementation(opened, () => {
    setOpened(false);
    props.onOpenChange?.(false);
    toast.error(ErrorMessages.unexpected, { id: 'dialog-code' });
  });
  if (!opened || !m) return null;
  return <m.Dialog {...props} />;
}

/** `DialogContent` of ./dialog.tsx; only rendered inside {@link Dialog}, once the implementation is there. */
export function DialogContent(props: DialogContentProps) {
  const Content = implementation?.DialogContent;
  return Content ? <Content {...props} /> : null;
}

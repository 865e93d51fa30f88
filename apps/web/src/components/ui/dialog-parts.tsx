/**
 * The parts of the dialog API that need no Radix code (./dialog.tsx re-exports them), so that
 * ./lazy-dialog.tsx can offer them before the dialog implementation has loaded.
 */
import { useRef, type ComponentProps } from 'react';
import type { DialogContentProps } from './dialog';
import { cn } from '@/lib/cn';

/**
 * Handlers for `DialogContent` of a dialog opened without a `DialogTrigger` (from a menu or a table
 * row): they remember what had focus when it opened and give focus back to it on close, when it is
 * still in the page. Spread them: `<DialogContent {...useReturnFocus()} ...>`.
 */
export function useReturnFocus(): Pick<DialogContentProps, 'onOpenAutoFocus' | 'onCloseAutoFocus'> {
  const opener = useRef<HTMLElement | null>(null);
  return {
    // Runs before focus moves in: what has it now opened the dialog.
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (e) => {
      if (opener.current?.isConnected) {
        e.preventDefault();
        opener.current.focus();
      }
    },
  };
}

/** Right-aligned action row at the bottom of a dialog. */
export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />;
}

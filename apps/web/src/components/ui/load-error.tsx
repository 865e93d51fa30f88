/**
 * The failed-load state of a screen or a list: the error text (the server msg or the product §8
 * fallback) and a 'Try again' button that asks again. Every screen and list whose query failed
 * shows it (pages, lists, the wallet's dialogs, the collection, creator and file pages: docs/web.md
 * "Features"); a failure is never a bare red line without a way to ask again. `detail`, when given,
 * is a second line under the text (e.g. product §8's 404 or 5xx text under a screen's own).
 */
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

/**
 * @param message the first line, in the error colour
 * @param detail a second line under it
 * @param onRetry what 'Try again' does (refetch the failed query)
 * @param children further actions beside 'Try again' (e.g. a link away from the screen)
 */
export function LoadError({
  message,
  detail,
  onRetry,
  className,
  children,
}: {
  message: string;
  detail?: string;
  onRetry: () => void;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div role="alert" className={cn('flex flex-col items-center gap-3 py-8 text-center', className)}>
      <p className="text-sm wrap-anywhere text-red-600 dark:text-red-400">{message}</p>
      {detail ? <p className="text-sm wrap-anywhere text-slate-600 dark:text-slate-400">{detail}</p> : null}
      <div className="flex flex-wrap justify-center gap-3">
        <Button variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
        {children}
      </div>
    </div>
  );
}

/**
 * The wallet's failed-load state: the error text (the server msg or the product §8 fallback) and a
 * 'Try again' button that refetches. Used by the currency lists, record lists and bill details.
 * `detail`, when given, is a second line under the text (e.g. product §8's 404 text under a screen's own).
 */
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

export function LoadError({
  message,
  detail,
  onRetry,
  className,
}: {
  message: string;
  detail?: string;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <div role="alert" className={cn('flex flex-col items-center gap-3 py-8 text-center', className)}>
      <p className="text-sm text-red-600 dark:text-red-400">{message}</p>
      {detail ? <p className="text-sm text-slate-600 dark:text-slate-400">{detail}</p> : null}
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/**
 * The wallet's failed-load state: the error text (the server msg or the SPEC 8 fallback) and a
 * 'Try again' button that refetches. Used by the currency lists, record lists and bill details.
 */
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';

export function LoadError({ message, onRetry, className }: { message: string; onRetry: () => void; className?: string }) {
  return (
    <div role="alert" className={cn('flex flex-col items-center gap-3 py-8 text-center', className)}>
      <p className="text-sm text-red-600 dark:text-red-400">{message}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

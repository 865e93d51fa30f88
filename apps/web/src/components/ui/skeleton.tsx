import { cn } from '@/lib/cn';

/** A pulsing placeholder block; size it with classes (`h-4 w-32`). */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-slate-200/80 dark:bg-slate-800', className)} />;
}

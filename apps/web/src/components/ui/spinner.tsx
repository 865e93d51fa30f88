import { LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/cn';

/** A small spinning indicator for buttons and inline waits (lists use skeletons instead). */
export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return <LoaderCircle role="status" aria-label={label} className={cn('size-4 animate-spin', className)} />;
}

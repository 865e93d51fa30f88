import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

/** A rounded card with a soft border. */
export function Card({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('rounded-2xl border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900', className)} {...props} />;
}

import { cn } from '@/lib/cn';

/** A labelled progress bar (role progressbar, 0-100); `data-tone` carries its colour. */
export function ProgressBar({ value, label, tone = 'brand', className }: { value: number; label: string; tone?: 'brand' | 'green' | 'red' | 'slate'; className?: string }) {
  const v = Math.max(0, Math.min(100, Math.round(value)));
  const fill = { brand: 'bg-brand-600 dark:bg-brand-500', green: 'bg-emerald-600 dark:bg-emerald-500', red: 'bg-red-600', slate: 'bg-slate-400' }[tone];
  return (
    <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={v} data-tone={tone} className={cn('h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800', className)}>
      <div className={cn('h-full rounded-full transition-[width] duration-200 motion-reduce:transition-none', fill)} style={{ width: `${v}%` }} />
    </div>
  );
}

/**
 * Badge with the tones of product §21. Which status gets which tone is status-palette.ts's (one
 * meaning per colour everywhere).
 */
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export type BadgeTone = 'slate' | 'amber' | 'green' | 'zinc' | 'red' | 'blue' | 'brand';

const tones: Record<BadgeTone, string> = {
  slate: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/25 dark:bg-amber-500/15 dark:text-amber-300',
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/25 dark:bg-emerald-500/15 dark:text-emerald-300',
  zinc: 'bg-zinc-100 text-zinc-700 ring-zinc-500/25 dark:bg-zinc-700/40 dark:text-zinc-300',
  red: 'bg-red-50 text-red-800 ring-red-600/25 dark:bg-red-500/15 dark:text-red-300',
  blue: 'bg-blue-50 text-blue-800 ring-blue-600/25 dark:bg-blue-500/15 dark:text-blue-300',
  brand: 'bg-brand-50 text-brand-700 ring-brand-600/25 dark:bg-brand-500/15 dark:text-brand-300',
};

/** A rounded label in one of the tones; status badges take theirs from status-palette.ts. */
export function Badge({ tone = 'slate', className, children, icon }: { tone?: BadgeTone; className?: string; children: ReactNode; icon?: ReactNode }) {
  return (
    <span className={cn('inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset', tones[tone], className)}>
      {icon}
      {children}
    </span>
  );
}

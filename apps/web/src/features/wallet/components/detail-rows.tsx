/**
 * Label/value rows of the bill views: money right-aligned with tabular numbers, crypto and ids in
 * a monospace face, copyable values with a copy button and its toasts.
 */
import type { ReactNode } from 'react';
import { CopyButton } from '@/components/ui/copy-button';
import { cn } from '@/lib/cn';

export function DetailList({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <dl
      className={cn(
        'divide-y divide-slate-100 rounded-xl border border-slate-200 px-4 dark:divide-slate-800 dark:border-slate-800',
        className,
      )}
    >
      {children}
    </dl>
  );
}

export interface DetailRowProps {
  label: ReactNode;
  children: ReactNode;
  /** Monospace value (crypto amounts, addresses, ids). */
  mono?: boolean;
  /** Copy button for this value; its toast texts. */
  copy?: { value: string; label: string; success?: string; error?: string };
  /** Long values (addresses) wrap instead of staying on one line. */
  wrap?: boolean;
}

export function DetailRow({ label, children, mono, copy, wrap }: DetailRowProps) {
  return (
    <div className="flex items-start justify-between gap-4 py-2.5 text-sm">
      <dt className="shrink-0 pt-0.5 text-slate-500 dark:text-slate-400">{label}</dt>
      <dd
        className={cn(
          'flex min-w-0 items-center justify-end gap-1 text-right font-medium text-slate-900 tabular-nums dark:text-slate-100',
          mono && 'font-mono text-[13px]',
        )}
      >
        <span className={cn(wrap ? 'break-all' : 'truncate')}>{children}</span>
        {copy ? (
          <CopyButton
            value={copy.value}
            label={copy.label}
            successMessage={copy.success ?? 'Copied to clipboard'}
            errorMessage={copy.error ?? 'Failed to copy'}
            className="-my-1 size-7"
          />
        ) : null}
      </dd>
    </div>
  );
}

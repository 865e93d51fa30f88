import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** The page column: centred, max 7xl, with the layout's side padding. */
export function PageContainer({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cn('mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 sm:py-10 lg:px-8', className)}>{children}</div>;
}

/** A page heading with an optional description and actions on the right. */
export function PageHeader({ title, description, actions, className }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; className?: string }) {
  return (
    <div className={cn('mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between', className)}>
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere text-slate-900 sm:text-3xl dark:text-white">{title}</h1>
        {description ? <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{description}</p> : null}
      </div>
      {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
    </div>
  );
}

/** A placeholder for a screen that is not built yet: its heading and 'Coming soon'. */
export function ComingSoon({ title, description }: { title: string; description?: string }) {
  return (
    <PageContainer>
      <PageHeader title={title} description={description} />
      <div className="rounded-2xl border border-dashed border-slate-300 px-6 py-16 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
        Coming soon
      </div>
    </PageContainer>
  );
}

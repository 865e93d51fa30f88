import type { ReactNode } from 'react';

/** The frame of the auth pages: a centred card with a title, a subtitle and a footer line. */
export function AuthShell({ title, subtitle, footer, children }: { title: string; subtitle?: ReactNode; footer?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex items-start justify-center bg-gradient-to-b from-brand-50/60 to-transparent px-4 py-10 sm:min-h-[calc(100dvh-4rem)] sm:items-center sm:py-12 dark:from-brand-500/5">
      <div className="w-full max-w-md">
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
          {subtitle ? <p className="mt-1.5 text-sm text-slate-600 dark:text-slate-400">{subtitle}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
        {footer ? <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">{footer}</p> : null}
      </div>
    </div>
  );
}

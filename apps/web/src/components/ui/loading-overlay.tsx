import { Spinner } from './spinner';

/** The full-screen loading overlay of product §2: 'Loading...'. */
export function LoadingOverlay() {
  return (
    <div className="fixed inset-0 z-[60] flex items-center justify-center bg-white/80 backdrop-blur-sm dark:bg-slate-950/80" role="status" aria-live="polite">
      <div className="flex items-center gap-3 text-sm font-medium text-slate-700 dark:text-slate-200">
        <Spinner className="size-5 text-brand-600" label="Loading" />
        <span>Loading...</span>
      </div>
    </div>
  );
}

/** The in-page loading view (lazy pages, the guard while auth loads). */
export function PageLoader() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" role="status" aria-live="polite">
      <div className="flex items-center gap-3 text-sm text-slate-500 dark:text-slate-400">
        <Spinner className="size-5 text-brand-600" label="Loading" />
        <span>Loading...</span>
      </div>
    </div>
  );
}

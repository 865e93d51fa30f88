import { TriangleAlert } from 'lucide-react';
import { pageReload } from '@/lib/page-reload';
import { Button } from './button';

/** The error screen of product §2: 'Something went wrong' with 'Try again' and 'Refresh page'. */
export function ErrorFallback({ onRetry, detail }: { onRetry: () => void; detail?: string }) {
  return (
    <div role="alert" className="mx-auto flex min-h-[50vh] max-w-md flex-col items-center justify-center px-6 py-16 text-center">
      <div className="mb-4 rounded-full bg-red-50 p-3 text-red-600 dark:bg-red-500/15 dark:text-red-400">
        <TriangleAlert className="size-7" />
      </div>
      <h1 className="text-xl font-semibold text-slate-900 dark:text-white">Something went wrong</h1>
      <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">{detail ?? 'This page ran into a problem. You can try again or reload the page.'}</p>
      <div className="mt-6 flex gap-3">
        <Button onClick={onRetry}>Try again</Button>
        <Button variant="outline" onClick={() => pageReload.reload()}>
          Refresh page
        </Button>
      </div>
    </div>
  );
}

import { Compass } from 'lucide-react';
import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { PageContainer } from '@/components/ui/page';

/** `*` — the not-found page. */
export default function NotFoundRoute() {
  return (
    <PageContainer className="flex min-h-[60vh] flex-col items-center justify-center text-center">
      <Compass className="size-12 text-brand-600 dark:text-brand-400" aria-hidden="true" />
      <p className="mt-4 text-sm font-semibold text-brand-600 dark:text-brand-400">404</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight">Page not found</h1>
      <p className="mt-3 max-w-md text-slate-600 dark:text-slate-400">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className={buttonVariants({ className: 'mt-8' })}>
        Back to home
      </Link>
    </PageContainer>
  );
}

/**
 * The shared layout (product §2): top bar, the page inside an error boundary and a Suspense loading
 * fallback (pages are lazy), and the footer. When signed in, the user record is refetched on load.
 */
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PageLoader } from '@/components/ui/loading-overlay';
import { useMe } from '@/features/auth/api/get-me';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { AppErrorBoundary } from './error-boundary';
import { Footer } from './footer';
import { useScrollRestoration } from './scroll-restoration';
import { TopBar } from './top-bar';

export function AppLayout() {
  useMe({ refetchOnMount: true });
  useScrollRestoration();
  const location = useLocation();
  const sessionExpired = useAuthStore((s) => s.sessionExpired);
  // product §4: after expiry the user lands on /, then the flag is cleared.
  useEffect(() => {
    if (sessionExpired && location.pathname === '/') useAuthStore.getState().clearSessionExpired();
  }, [sessionExpired, location.pathname]);
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-brand-600 px-3 py-2 text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <TopBar />
      {/* At least a viewport tall: the footer starts below the fold, so pages growing in after a lazy load shift nothing visible. */}
      <main id="main" className="min-h-[calc(100dvh-4rem)] flex-1">
        {/* Keyed by path so that a failed page does not keep its error after navigating away. */}
        <AppErrorBoundary key={location.pathname}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </AppErrorBoundary>
      </main>
      <Footer />
    </div>
  );
}

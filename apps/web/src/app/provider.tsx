/**
 * The app's providers: TanStack Query (product §9 default cache), the toasts (top right, 4000 ms,
 * product §9) and the router. Installs the session-expiry handler of product §4.
 */
import { TOAST_DURATION_MS } from '@coffer/contract/constants';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Toaster } from 'react-hot-toast';
import { BrowserRouter, useNavigate } from 'react-router';
import { setSessionExpiredHandler } from '@/lib/api-client';
import { clearSessionQueries, createQueryClient } from '@/lib/query-client';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { AppRoutes } from './router';

/**
 * product §4 session expiry: set sessionExpired and clear user and token, remove cached auth,
 * collections, resources and transactions data, go to / with history replaced. The layout clears
 * the flag once / is shown (until then the guard, still on screen during the lazy page's
 * transition, redirects to / rather than to /login).
 */
export function installSessionExpiry(
  queryClient: QueryClient,
  navigate: (to: string, opts: { replace: boolean }) => unknown,
): void {
  setSessionExpiredHandler(() => {
    useAuthStore.getState().expire();
    clearSessionQueries(queryClient);
    void navigate('/', { replace: true });
  });
}

/**
 * Toasts sit top right (product §9) but start below the sticky top bar (h-16, 64 px, plus 8 px), so that
 * on a phone a toast never covers the balance and menu buttons a user reaches for next (issue 16).
 */
export const TOAST_TOP_OFFSET_PX = 72;

export function AppToaster() {
  return (
    <Toaster
      position="top-right"
      containerStyle={{ top: TOAST_TOP_OFFSET_PX }}
      toastOptions={{
        duration: TOAST_DURATION_MS,
        className: '!rounded-xl !text-sm dark:!bg-slate-800 dark:!text-slate-100',
      }}
    />
  );
}

/** Installs {@link installSessionExpiry} with the router's navigate (inside a router). */
export function SessionExpiryNavigation({ queryClient }: { queryClient: QueryClient }) {
  const navigate = useNavigate();
  useEffect(() => installSessionExpiry(queryClient, navigate), [queryClient, navigate]);
  return null;
}

export function AppProvider({ queryClient: givenClient }: { queryClient?: QueryClient }) {
  const [queryClient] = useState(() => givenClient ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <SessionExpiryNavigation queryClient={queryClient} />
        <AppRoutes />
      </BrowserRouter>
      <AppToaster />
    </QueryClientProvider>
  );
}

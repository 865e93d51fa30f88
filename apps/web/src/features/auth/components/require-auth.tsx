/**
 * The login guard of product §2: while authentication loads, the loading view; when not
 * authenticated, a redirect to /login remembering the original location (in router state
 * `from`); when authenticated, the current user is refetched and the screen shown.
 * After session expiry (`sessionExpired`) the redirect goes to / instead (product §2).
 */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LoadingOverlay } from '@/components/ui/loading-overlay';
import { useMe } from '../api/get-me';
import { useAuthStore } from '../stores/auth-store';

/** Where the guard remembered the user was going: `location.state.from`. */
export interface GuardState {
  from?: { pathname: string; search?: string; hash?: string };
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const isLoading = useAuthStore((s) => s.isLoading);
  const sessionExpired = useAuthStore((s) => s.sessionExpired);
  const hasUser = useAuthStore((s) => s.user !== null);
  const me = useMe({ refetchOnMount: true });

  if (isLoading || (isAuthenticated && !hasUser && me.isPending)) return <LoadingOverlay />;
  if (!isAuthenticated) {
    if (sessionExpired) return <Navigate to="/" replace />;
    const state: GuardState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
    return <Navigate to="/login" replace state={state} />;
  }
  return <>{children}</>;
}

/** The path to return to after login: the remembered location, else `fallback`. */
export function rememberedPath(state: unknown, fallback = '/'): string {
  const from = (state as GuardState | null)?.from;
  if (!from?.pathname || from.pathname === '/login') return fallback;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

/**
 * Renders the real route table in a memory router with a fresh QueryClient and the session-expiry
 * handler installed, as the app's provider does (`AppRoutes` under a `MemoryRouter` where the app
 * has a `BrowserRouter`). `router.state` reads the current location and how it was reached.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigationType, type Location, type NavigationType, type RouteObject } from 'react-router';
import type { User } from '@coffer/contract';
import { AppToaster, SessionExpiryNavigation } from '@/app/provider';
import { AppRoutes, routes as appRoutes } from '@/app/router';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { createQueryClient } from '@/lib/query-client';
import { setAccessToken } from '@/lib/storage';

export function renderApp(path: string, { routes = appRoutes }: { routes?: RouteObject[] } = {}) {
  const queryClient = createQueryClient();
  const router = { state: {} as { location: Location; historyAction: NavigationType } };
  function LocationProbe() {
    router.state = { location: useLocation(), historyAction: useNavigationType() };
    return null;
  }
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <LocationProbe />
        <SessionExpiryNavigation queryClient={queryClient} />
        <AppRoutes table={routes} />
      </MemoryRouter>
      <AppToaster />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

export const testUser: User = {
  id: '0190f3a2-0000-7000-8000-000000000001',
  username: 'ada',
  nickname: 'Ada',
  email: 'ada@example.com',
  avatar: '',
  asset: { available: '12.5', freeze: '0' },
  created_at: 1_767_225_600_000,
};

/** Puts a signed-in session in the store and storage, as after a login. */
export function signIn(user: User = testUser, token = 'test-token') {
  setAccessToken(token);
  useAuthStore.setState({ user, token, isAuthenticated: true, isLoading: false, error: null, sessionExpired: false });
}

/** Resets the store to signed out. */
export function signOutStore() {
  setAccessToken(null);
  useAuthStore.setState({ user: null, assets: null, token: null, isAuthenticated: false, isLoading: false, error: null, sessionExpired: false });
}

/** A success envelope. */
export const ok = (data: unknown) => ({ code: 10000, msg: 'success', data });
/** A failure envelope. */
export const fail = (code: number, msg: string, reason: string) => ({ code, msg, reason });

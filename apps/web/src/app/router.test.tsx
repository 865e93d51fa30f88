import { createHash } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Outlet, type RouteObject } from 'react-router';
import { RequireAuth } from '@/features/auth/components/require-auth';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { AppLayout } from './layout/app-layout';
import LoginRoute from './routes/auth/login';
import { fail, ok, renderApp, signIn, signOutStore, testUser } from '@/test/render';
import { mockApi } from '@/test/mock-api';
import { server } from '@/test/server';

const me = (body: unknown, status = 200) =>
  http.post('*/api/uc/v1/account/get/me', () => HttpResponse.json(body as Record<string, unknown>, { status }));
const assets = http.post('*/api/uc/v1/account/assets', () =>
  HttpResponse.json(ok({ asset: { available: '12.5', freeze: '0' } })),
);

/** The layout, /login and a guarded page: the guard's behaviour without other screens' data. */
const guardRoutes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { index: true, element: <h1>Home page</h1> },
      { path: 'login', element: <LoginRoute /> },
      {
        element: (
          <RequireAuth>
            <Outlet />
          </RequireAuth>
        ),
        children: [{ path: 'vault', element: <h1>Vault page</h1> }],
      },
    ],
  },
];

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

beforeEach(() => {
  signOutStore();
  // Screens of other features load their data; answer them with NOT_FOUND so that only the
  // routing and the session are under test here.
  server.use(http.post('*/sl/v1/*', () => HttpResponse.json(fail(10005, 'Record does not exist', 'NOT_FOUND'), { status: 404 })));
});

describe('route table', () => {
  it.each([
    ['/', 'Discover digital resources'],
    ['/terms', 'Terms of Service'],
    ['/privacy', 'Privacy Policy'],
    ['/login', 'Welcome back'],
    ['/register', 'Create your account'],
    ['/forgot-password', 'Reset your password'],
    ['/collection/abc', 'Collection'],
    ['/resource/abc', 'Resource'],
    ['/no/such/page', 'Page not found'],
  ])('renders %s for a visitor', async (path, heading) => {
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });
});

describe('login guard (product §2)', () => {
  it.each([
    '/upload',
    '/collection/0190f3a2-0000-7000-8000-000000000001/edit',
    '/mycollections',
    '/profile',
    '/profile/selling',
    '/profile/buy',
    '/profile/events',
    '/profile/developer',
    '/transactions',
  ])('sends a visitor from %s to /login', async (path) => {
    const { router } = renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toEqual({ from: { pathname: path, search: '', hash: '' } });
  });

  it('returns to the remembered location after login', async () => {
    let loginBody: unknown = null;
    server.use(
      http.post('*/api/uc/v1/account/login', async ({ request }) => {
        loginBody = await request.json();
        return HttpResponse.json(ok({ access_token: 'fresh-token' }));
      }),
      me(ok(testUser)),
      assets,
    );
    const { router } = renderApp('/vault?tab=all#top', { routes: guardRoutes });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username or email'), 'ada');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Coffer#2026');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Vault page' })).toBeInTheDocument();
    const { pathname, search, hash } = router.state.location;
    expect(pathname + search + hash).toBe('/vault?tab=all#top');
    expect(loginBody).toEqual({ account: 'ada', password: md5('Coffer#2026') });
    expect(localStorage.getItem('accessToken')).toBe('fresh-token');
    expect(useAuthStore.getState().user?.id).toBe(testUser.id);
  });

  it('shows the loading view while authentication loads, then the screen, refetching the user', async () => {
    let calls = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    server.use(
      http.post('*/api/uc/v1/account/get/me', async () => {
        calls += 1;
        await gate;
        return HttpResponse.json(ok(testUser));
      }),
      assets,
    );
    signIn(testUser);
    useAuthStore.setState({ user: null });
    renderApp('/vault', { routes: guardRoutes });
    expect(await screen.findByText('Loading...')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Vault page' })).not.toBeInTheDocument();
    release();
    expect(await screen.findByRole('heading', { level: 1, name: 'Vault page' })).toBeInTheDocument();
    expect(calls).toBeGreaterThanOrEqual(1);
  });

  it('refetches the current user when a signed-in user enters a guarded screen', async () => {
    let calls = 0;
    server.use(
      http.post('*/api/uc/v1/account/get/me', () => {
        calls += 1;
        return HttpResponse.json(ok({ ...testUser, nickname: 'Ada (fresh)' }));
      }),
      assets,
      // The signed-in layout reads the notification settings.
      mockApi('accountNotifications', { update_mails: true }),
    );
    signIn(testUser);
    renderApp('/profile');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada (fresh)' })).toBeInTheDocument();
    expect(calls).toBeGreaterThanOrEqual(1);
  });
});

describe('Your Profile > Events & webhooks (product §23)', () => {
  it('is a tab of the own profile and shows its three cards', async () => {
    server.use(
      me(ok(testUser)),
      assets,
      http.post('*/api/uc/v1/account/events/list', () =>
        HttpResponse.json(ok({ events: [], next_cursor: 'c0', has_more: false })),
      ),
      http.post('*/api/uc/v1/account/webhook/get', () =>
        HttpResponse.json(ok({ endpoint: { url: null, has_secret: false, updated_at: null } })),
      ),
      http.post('*/api/uc/v1/account/webhook/deliveries', () => HttpResponse.json(ok({ deliveries: [], has_more: false }))),
    );
    // jsdom lays nothing out and has no scrollIntoView: record which element asked to be shown.
    const shown: Element[] = [];
    const proto = HTMLElement.prototype as { scrollIntoView?: (arg?: ScrollIntoViewOptions) => void };
    const had = proto.scrollIntoView;
    proto.scrollIntoView = function scrollIntoView(this: Element) {
      shown.push(this);
    };
    signIn(testUser);
    renderApp('/profile/events');
    const tab = await screen.findByRole('link', { name: 'Events & webhooks' });
    expect(tab).toHaveAttribute('aria-current', 'page');
    // The open tab is scrolled into the strip's view (at 390 px the strip scrolls sideways).
    await waitFor(() => expect(shown.at(-1)).toBe(tab));
    proto.scrollIntoView = had;
    for (const title of ['Event feed', 'Webhook', 'Deliveries'])
      expect(await screen.findByRole('heading', { level: 2, name: title })).toBeInTheDocument();
    expect(await screen.findByText('No events yet')).toBeInTheDocument();
  });
});

describe('Your Profile > Developer (personal access tokens)', () => {
  it('is the last tab of the own profile and lists the tokens', async () => {
    server.use(
      me(ok(testUser)),
      assets,
      http.post('*/api/uc/v1/account/token/list', () => HttpResponse.json(ok({ tokens: [] }))),
    );
    signIn(testUser);
    renderApp('/profile/developer');
    const strip = await screen.findByRole('navigation', { name: 'Profile sections' });
    const tabs = within(strip).getAllByRole('link');
    expect(tabs.map((t) => t.textContent)).toEqual(['Account', 'Selling', 'My Purchases', 'Events & webhooks', 'Security', 'Developer']);
    expect(tabs.at(-1)).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByRole('heading', { level: 2, name: 'Personal access tokens' })).toBeInTheDocument();
    expect(await screen.findByText('No tokens yet')).toBeInTheDocument();
  });
});

describe('session expiry (product §4)', () => {
  it('clears the session and cached data, goes to / with history replaced, and shows the message once', async () => {
    const toastError = vi.spyOn(toast, 'error');
    server.use(me(fail(10002, 'Your session has expired. Please log in again.', 'UNAUTHORIZED'), 401), assets, mockApi('accountNotifications', { update_mails: true }));
    signIn(testUser, 'stale-token');
    const { router, queryClient } = renderApp('/profile');
    queryClient.setQueryData(['collections', 'mine'], { collections: [], count: 0 });
    queryClient.setQueryData(['transactions', testUser.id], { records: [], count: 0 });
    queryClient.setQueryData(['currencies', 'deposit'], [{ code: 'usdttrc20' }]);

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(await screen.findByRole('heading', { level: 1, name: 'Discover digital resources' })).toBeInTheDocument();
    // The layout clears the flag once / is on screen (a passive effect, hence waitFor).
    await waitFor(() =>
      expect(useAuthStore.getState()).toMatchObject({ user: null, token: null, isAuthenticated: false, sessionExpired: false }),
    );
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(queryClient.getQueryData(['collections', 'mine'])).toBeUndefined();
    expect(queryClient.getQueryData(['transactions', testUser.id])).toBeUndefined();
    expect(queryClient.getQueryData(['currencies', 'deposit'])).toBeDefined();
    const expiryToasts = toastError.mock.calls.filter(([m]) => m === 'Your session has expired. Please log in again.');
    expect(expiryToasts).toHaveLength(1);
    expect(screen.getAllByRole('link', { name: 'Log in' }).length).toBeGreaterThan(0);
  });

  it("ends the session with 'User record does not exist. Please log in again.' when the record is gone", async () => {
    const toastError = vi.spyOn(toast, 'error');
    server.use(me(fail(10005, 'Record does not exist', 'NOT_FOUND'), 404), assets, mockApi('accountNotifications', { update_mails: true }));
    signIn(testUser);
    const { router } = renderApp('/profile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(toastError).toHaveBeenCalledWith('User record does not exist. Please log in again.', expect.anything());
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
  });
});

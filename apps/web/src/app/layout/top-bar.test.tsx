import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { ok, renderApp, signIn, signOutStore, testUser } from '@/test/render';
import { server } from '@/test/server';

beforeEach(() => signOutStore());

function topBar() {
  return within(screen.getByRole('banner'));
}

describe('top bar (product §2)', () => {
  it('shows Log in and Sign up to visitors, and none of the signed-in links', async () => {
    renderApp('/terms');
    await screen.findByRole('heading', { level: 1, name: 'Terms of Service' });
    const bar = topBar();
    expect(bar.getByRole('link', { name: 'Coffer' })).toHaveAttribute('href', '/');
    expect(bar.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(bar.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    expect(bar.queryByRole('link', { name: 'My Collections' })).not.toBeInTheDocument();
    expect(bar.queryByRole('button', { name: 'User menu' })).not.toBeInTheDocument();
    expect(bar.queryByRole('button', { name: /^Balance/ })).not.toBeInTheDocument();
    // Footer: Start Now for visitors only.
    expect(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Start Now' })).toHaveAttribute('href', '/login');
  });

  it('shows My Collections, My Purchases, the balance and the user menu to a signed-in user', async () => {
    server.use(
      http.post('*/api/uc/v1/account/get/me', () => HttpResponse.json(ok(testUser))),
      http.post('*/api/uc/v1/account/assets', () => HttpResponse.json(ok({ asset: { available: '1234.5', freeze: '0' } }))),
    );
    signIn(testUser);
    renderApp('/terms');
    await screen.findByRole('heading', { level: 1, name: 'Terms of Service' });
    const bar = topBar();
    expect(bar.getByRole('link', { name: 'My Collections' })).toHaveAttribute('href', '/mycollections');
    expect(bar.getByRole('link', { name: 'My Purchases' })).toHaveAttribute('href', '/profile/buy');
    expect(bar.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
    expect(bar.queryByRole('link', { name: 'Sign up' })).not.toBeInTheDocument();
    expect(await bar.findByRole('button', { name: 'Balance: 1,234.50 points' })).toBeInTheDocument();
    expect(within(screen.getByRole('contentinfo')).queryByRole('link', { name: 'Start Now' })).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(bar.getByRole('button', { name: 'User menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Your Profile' })).toHaveAttribute('href', '/profile');
    expect(within(menu).getByRole('menuitem', { name: 'Transactions' })).toHaveAttribute('href', '/transactions');
    expect(within(menu).getByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('signs out: clears local state even when the server fails, and goes to /login', async () => {
    server.use(
      http.post('*/api/uc/v1/account/get/me', () => HttpResponse.json(ok(testUser))),
      http.post('*/api/uc/v1/account/assets', () => HttpResponse.json(ok({ asset: { available: '0', freeze: '0' } }))),
      http.post('*/api/uc/v1/account/logout', () => HttpResponse.json({ code: 10010, msg: 'Internal', reason: 'INTERNAL' }, { status: 500 })),
    );
    signIn(testUser);
    const { router } = renderApp('/terms');
    const user = userEvent.setup();
    await user.click(await topBar().findByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(useAuthStore.getState()).toMatchObject({ user: null, token: null, isAuthenticated: false });
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
  });

  it('repeats the links in the mobile menu', async () => {
    server.use(
      http.post('*/api/uc/v1/account/get/me', () => HttpResponse.json(ok(testUser))),
      http.post('*/api/uc/v1/account/assets', () => HttpResponse.json(ok({ asset: { available: '0', freeze: '0' } }))),
    );
    signIn(testUser);
    renderApp('/terms');
    const user = userEvent.setup();
    await user.click(await topBar().findByRole('button', { name: 'Open menu' }));
    const mobile = within(screen.getByRole('navigation', { name: 'Mobile' }));
    for (const [name, href] of [
      ['My Collections', '/mycollections'],
      ['My Purchases', '/profile/buy'],
      ['Your Profile', '/profile'],
      ['Transactions', '/transactions'],
    ]) {
      expect(mobile.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    expect(mobile.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('turns translucent after the page scrolls more than 10 px', async () => {
    renderApp('/terms');
    await screen.findByRole('heading', { level: 1, name: 'Terms of Service' });
    const header = screen.getByRole('banner');
    Object.defineProperty(window, 'scrollY', { value: 10, configurable: true });
    window.dispatchEvent(new Event('scroll'));
    await waitFor(() => expect(header).not.toHaveAttribute('data-scrolled'));
    Object.defineProperty(window, 'scrollY', { value: 11, configurable: true });
    window.dispatchEvent(new Event('scroll'));
    await waitFor(() => expect(header).toHaveAttribute('data-scrolled', 'true'));
    expect(header.className).toMatch(/backdrop-blur/);
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
  });
});

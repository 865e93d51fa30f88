import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pageReload } from '@/lib/page-reload';
import { renderApp, signOutStore } from '@/test/render';
import { AppLayout } from './app-layout';

beforeEach(() => signOutStore());

let broken = false;
function Flaky() {
  if (broken) throw new Error('render failed');
  return <h1>Recovered page</h1>;
}

const routes = [{ element: <AppLayout />, children: [{ path: '/flaky', element: <Flaky /> }] }];

describe('layout error boundary (product §2, §8)', () => {
  it("shows 'Something went wrong' with 'Try again' and 'Refresh page', toasts once, and recovers on Try again", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const toastError = vi.spyOn(toast, 'error');
    broken = true;
    renderApp('/flaky', { routes });
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh page' })).toBeInTheDocument();
    expect(toastError.mock.calls.filter(([m]) => m === 'An unexpected error occurred. Please try again.')).toHaveLength(1);
    // The top bar and footer stay: the boundary wraps only the page.
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();

    broken = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Recovered page' })).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();
  });

  it('an error outside the page boundary (in the layout itself) shows the same fallback and toast, whose Try again reloads', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const toastError = vi.spyOn(toast, 'error');
    const reload = vi.spyOn(pageReload, 'reload').mockImplementation(() => {});
    function BrokenLayout(): never {
      throw new Error('layout failed');
    }
    renderApp('/x', { routes: [{ element: <BrokenLayout />, children: [{ path: '/x', element: <Flaky /> }] }] });
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(toastError.mock.calls.filter(([m]) => m === 'An unexpected error occurred. Please try again.')).toHaveLength(1);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { Component, Suspense, type ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { lazyPage, preloadPagesFor } from './lazy-page';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const pageModule = (text: string) => ({ default: () => <h1>{text}</h1> });

describe('lazyPage', () => {
  it('shows the Suspense fallback until the module loads, like React.lazy', async () => {
    const load = deferred<{ default: () => React.JSX.Element }>();
    const Page = lazyPage(() => load.promise);
    render(
      <Suspense fallback={<p>Loading page</p>}>
        <Page />
      </Suspense>,
    );
    expect(screen.getByText('Loading page')).toBeInTheDocument();
    load.resolve(pageModule('Storefront'));
    expect(await screen.findByRole('heading', { name: 'Storefront' })).toBeInTheDocument();
  });

  it('renders at once, without the fallback, once preloaded; the module is imported once', async () => {
    const load = vi.fn(() => Promise.resolve(pageModule('Collection')));
    const Page = lazyPage(load);
    await Page.preload();
    await Page.preload();
    render(
      <Suspense fallback={<p>Loading page</p>}>
        <Page />
      </Suspense>,
    );
    // Synchronously after render: no fallback step.
    expect(screen.getByRole('heading', { name: 'Collection' })).toBeInTheDocument();
    expect(screen.queryByText('Loading page')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries the import again after a failed preload', async () => {
    const load = vi
      .fn<() => Promise<{ default: () => React.JSX.Element }>>()
      .mockRejectedValueOnce(new Error('chunk failed'))
      .mockResolvedValueOnce(pageModule('Again'));
    const Page = lazyPage(load);
    await expect(Page.preload()).rejects.toThrow('chunk failed');
    await Page.preload();
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('lazyPage after a failed chunk', () => {
  it('imports again when rendered again (Try again, or back to the route), instead of keeping the error', async () => {
    const load = vi
      .fn<() => Promise<{ default: () => React.JSX.Element }>>()
      .mockRejectedValueOnce(new Error('chunk failed'))
      .mockResolvedValueOnce(pageModule('Loaded at last'));
    const Page = lazyPage(load);
    class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
      override state = { failed: false };
      static getDerivedStateFromError() {
        return { failed: true };
      }
      override render() {
        return this.state.failed ? (
          <button type="button" onClick={() => this.setState({ failed: false })}>
            Try again
          </button>
        ) : (
          this.props.children
        );
      }
    }
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <Boundary>
        <Suspense fallback={<p>Loading page</p>}>
          <Page />
        </Suspense>
      </Boundary>,
    );
    // React renders once more after an error before the boundary takes it; either that render or
    // the boundary's Try again must import again and show the page.
    let clicks = 0;
    await waitFor(() => {
      const retry = screen.queryByRole('button', { name: 'Try again' });
      if (retry && clicks++ < 2) retry.click();
      expect(screen.getByRole('heading', { name: 'Loaded at last' })).toBeInTheDocument();
    });
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('preloadPagesFor', () => {
  it('loads only the pages of the URL and starts their first calls', async () => {
    const home = vi.fn(() => Promise.resolve(pageModule('Home')));
    const other = vi.fn(() => Promise.resolve(pageModule('Other')));
    const prefetch = vi.fn();
    const Home = lazyPage(home, prefetch);
    const Other = lazyPage(other);
    const routes: RouteObject[] = [
      {
        element: <div />,
        children: [
          { index: true, element: <Home /> },
          { path: 'other', element: <Other /> },
        ],
      },
    ];
    const client = new QueryClient();
    await preloadPagesFor(routes, '/', client);
    expect(home).toHaveBeenCalledTimes(1);
    expect(other).not.toHaveBeenCalled();
    expect(prefetch).toHaveBeenCalledWith(client);
  });

  it('gives up waiting after maxWaitMs and never rejects', async () => {
    const hanging = lazyPage(() => new Promise(() => {}));
    const failing = lazyPage(() => Promise.reject(new Error('offline')));
    const client = new QueryClient();
    const Hanging = hanging;
    const Failing = failing;
    const started = Date.now();
    await preloadPagesFor([{ path: '/', element: <Hanging /> }], '/', client, 30);
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(preloadPagesFor([{ path: '/', element: <Failing /> }], '/', client, 30)).resolves.toBeUndefined();
    await expect(preloadPagesFor([], '/nowhere', client)).resolves.toBeUndefined();
  });
});

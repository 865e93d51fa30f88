import { pageFields, type Collection, type PageFields } from '@coffer/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { server } from '@/test/server';
import { fail, ok, signIn, signOutStore } from '@/test/render';
import { addToMyCollections, removeFromMyCollections, replaceInMyCollections } from '../api/my-collections-cache';
import { collectionKeys } from '@/lib/market-keys';
import { makeCollection, renderWithProviders } from '@/test/helpers';
import { MyCollections } from './my-collections';

const USER = '0190f3a2-0000-7000-8000-000000000001';

/**
 * Serves my/collections from `all` (newest first) as the server pages it (product §3 Pagination) and
 * records every paginator asked for. `withoutCount` drops the legacy `count` field.
 */
function serveMine(all: Collection[], { withoutCount = false } = {}) {
  const asked: { page: number; size: number }[] = [];
  server.use(
    http.post('*/sl/v1/my/collections', async ({ request }) => {
      const { paginator } = (await request.json()) as { paginator: { page: number; size: number } };
      asked.push(paginator);
      const start = paginator.page * paginator.size;
      const { count, ...paging } = pageFields(paginator, all.length);
      return HttpResponse.json(
        ok({ collections: all.slice(start, start + paginator.size), ...paging, ...(withoutCount ? {} : { count }) }),
      );
    }),
  );
  return asked;
}

beforeEach(() => signIn());
afterEach(() => signOutStore());

describe('My Collections', () => {
  test('shows the heading, subtitle, total, Create link and every card text of product §2', async () => {
    serveMine([
      makeCollection({
        title: 'Icons',
        desc: 'Line icons',
        amount: 12,
        earned: 12.5,
        sold_count: 3,
        status: 'Published',
        banner: '/files/banner.png',
      }),
      makeCollection({ title: 'Fonts', desc: 'Display fonts', amount: 0, earned: 0, status: 'Draft' }),
    ]);
    renderWithProviders(<MyCollections userId={USER} />);

    expect(screen.getByRole('heading', { level: 1, name: 'My Collections' })).toBeInTheDocument();
    expect(screen.getByText('Manage and track your digital collections, sales, and earnings.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create' })).toHaveAttribute('href', '/upload');

    expect(await screen.findByText('2 collection(s) total')).toBeInTheDocument();
    const cards = screen.getAllByTestId('collection-card');
    expect(cards).toHaveLength(2);

    const icons = within(cards[0]!);
    expect(icons.getByText('Icons')).toBeInTheDocument();
    expect(icons.getByText('Line icons')).toBeInTheDocument();
    expect(icons.getByRole('img', { name: 'Icons' })).toHaveAttribute('src', '/files/banner.png');
    expect(icons.getByText('Published')).toBeInTheDocument();
    expect(icons.getByText('Price')).toBeInTheDocument();
    expect(icons.getByText('12 Points')).toBeInTheDocument();
    expect(icons.getByText('Earned Points')).toBeInTheDocument();
    expect(icons.getByText('12.50 Points')).toBeInTheDocument();
    expect(icons.getByText('Sold')).toBeInTheDocument();
    expect(icons.getByText('3')).toBeInTheDocument();
    expect(icons.getByText('3 minutes ago')).toBeInTheDocument();
    expect(icons.getByRole('link', { name: 'View Details' })).toBeInTheDocument();

    const fonts = within(cards[1]!);
    expect(fonts.getByText('No Banner')).toBeInTheDocument();
    expect(fonts.getByText('Draft')).toBeInTheDocument();
    expect(fonts.getAllByText('0 Points')).toHaveLength(2);
    expect(fonts.getByText('0')).toBeInTheDocument();

    // One page only: no pagination.
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  test('View Details links to /collection/{id}', async () => {
    const c = makeCollection();
    serveMine([c]);
    renderWithProviders(<MyCollections userId={USER} />);
    expect(await screen.findByRole('link', { name: 'View Details' })).toHaveAttribute('href', `/collection/${c.id}`);
  });

  test('bad price values show 0 Points; non-integers show 2 decimals; sold defaults to 0', async () => {
    serveMine([
      makeCollection({ title: 'A', amount: 'abc' as unknown as number, earned: Number.NaN }),
      makeCollection({ title: 'B', amount: null as unknown as number, earned: -4 }),
      makeCollection({ title: 'C', amount: 7, earned: 3.456, sold_count: undefined as unknown as number }),
    ]);
    renderWithProviders(<MyCollections userId={USER} />);
    const cards = await screen.findAllByTestId('collection-card');
    expect(within(cards[0]!).getAllByText('0 Points')).toHaveLength(2);
    expect(within(cards[1]!).getAllByText('0 Points')).toHaveLength(2);
    expect(within(cards[2]!).getByText('7 Points')).toBeInTheDocument();
    expect(within(cards[2]!).getByText('3.46 Points')).toBeInTheDocument();
    expect(within(cards[2]!).getByText('0')).toBeInTheDocument();
  });

  test('an odd status value such as toString or constructor shows the Created badge (product §4)', async () => {
    serveMine([
      makeCollection({ title: 'A', status: 'toString' as Collection['status'] }),
      makeCollection({ title: 'B', status: 'constructor' as Collection['status'] }),
    ]);
    renderWithProviders(<MyCollections userId={USER} />);
    const cards = await screen.findAllByTestId('collection-card');
    for (const card of cards) expect(within(card).getByText('Created')).toBeInTheDocument();
  });

  test('shows 8 skeleton cards while loading', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    server.use(
      http.post('*/sl/v1/my/collections', async () => {
        await gate;
        return HttpResponse.json(ok({ collections: [makeCollection()], ...pageFields({ page: 0, size: 10 }, 1) }));
      }),
    );
    renderWithProviders(<MyCollections userId={USER} />);
    expect(screen.getByRole('status', { name: 'Loading collections' })).toBeInTheDocument();
    expect(screen.getAllByTestId('collection-card-skeleton')).toHaveLength(8);
    release();
    await screen.findByTestId('collection-card');
    expect(screen.queryAllByTestId('collection-card-skeleton')).toHaveLength(0);
  });

  test('empty state: title, text and Create Collection link; no total', async () => {
    serveMine([]);
    renderWithProviders(<MyCollections userId={USER} />);
    expect(await screen.findByText('No collections found')).toBeInTheDocument();
    expect(
      screen.getByText("You haven't created any collections yet. Start by creating your first collection!"),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Collection' })).toHaveAttribute('href', '/upload');
    expect(screen.queryByText(/collection\(s\) total/)).not.toBeInTheDocument();
  });

  test('a failed load shows the server msg in the banner and toasts Failed to load collections', async () => {
    server.use(
      http.post('*/sl/v1/my/collections', () =>
        HttpResponse.json(fail(10001, 'Database is unavailable', 'VALIDATION_FAILED'), { status: 400 }),
      ),
    );
    renderWithProviders(<MyCollections userId={USER} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Database is unavailable');
    expect(await screen.findByText('Failed to load collections')).toBeInTheDocument();
  });

  test('a failed load without a msg shows Failed to load collections in the banner', async () => {
    server.use(
      http.post('*/sl/v1/my/collections', () => HttpResponse.json(fail(10001, '', 'VALIDATION_FAILED'), { status: 400 })),
    );
    renderWithProviders(<MyCollections userId={USER} />);
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Failed to load collections');
  });

  test('does not fetch without a user id', async () => {
    const asked = serveMine([makeCollection()]);
    renderWithProviders(<MyCollections userId={null} />);
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toHaveLength(0);
  });

  test('pagination: only with more than one page; Showing X to Y of N; Previous/Next disabled at the ends; Page P of T', async () => {
    const all = Array.from({ length: 23 }, (_, i) => makeCollection({ title: `Item ${i + 1}` }));
    const asked = serveMine(all);
    const user = userEvent.setup();
    renderWithProviders(<MyCollections userId={USER} />);

    expect(await screen.findByText('Showing 1 to 10 of 23 collections')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(asked[0]).toEqual({ page: 0, size: 10 });
    const prev = screen.getByRole('button', { name: 'Previous' });
    const next = screen.getByRole('button', { name: 'Next' });
    expect(prev).toBeDisabled();
    expect(next).toBeEnabled();

    await user.click(next);
    expect(await screen.findByText('Showing 11 to 20 of 23 collections')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Showing 21 to 23 of 23 collections')).toBeInTheDocument();
    expect(screen.getByText('Page 3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
    expect(screen.getAllByTestId('collection-card')).toHaveLength(3);
    expect(asked.map((p) => p.page)).toEqual([0, 1, 2]);
  });

  test('reads totalCount, totalPages and hasNextPage from the answer (product §3 Pagination), not from count', async () => {
    serveMine(
      Array.from({ length: 12 }, (_, i) => makeCollection({ title: `Item ${i + 1}` })),
      { withoutCount: true },
    );
    const user = userEvent.setup();
    renderWithProviders(<MyCollections userId={USER} />);
    expect(await screen.findByText('Showing 1 to 10 of 12 collections')).toBeInTheDocument();
    expect(screen.getByText('12 collection(s) total')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  test('the page-size selector offers 5, 10, 20, 50 (default 10) and a change resets to page 0', async () => {
    const all = Array.from({ length: 23 }, () => makeCollection());
    const asked = serveMine(all);
    const user = userEvent.setup();
    renderWithProviders(<MyCollections userId={USER} />);
    await screen.findByText('Page 1 of 3');
    const select = screen.getByLabelText('Per page');
    expect(select).toHaveValue('10');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['5', '10', '20', '50']);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    await user.selectOptions(select, '5');
    expect(await screen.findByText('Showing 1 to 5 of 23 collections')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 5')).toBeInTheDocument();
    expect(asked.at(-1)).toEqual({ page: 0, size: 5 });

    // 50 per page leaves one page: the bar disappears.
    await user.selectOptions(screen.getByLabelText('Per page'), '50');
    await waitFor(() => expect(screen.getAllByTestId('collection-card')).toHaveLength(23));
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(asked.at(-1)).toEqual({ page: 0, size: 50 });
  });
});

describe('My Collections list updates (product §4)', () => {
  test('a create that fills a page moves totalCount, totalPages and hasNextPage of the cached page', async () => {
    serveMine(Array.from({ length: 10 }, (_, i) => makeCollection({ title: `Item ${i + 1}` })));
    const { queryClient } = renderWithProviders(<MyCollections userId={USER} />);
    await screen.findByText('10 collection(s) total');
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    addToMyCollections(queryClient, makeCollection({ title: 'brand new' }));
    expect(await screen.findByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByText('Showing 1 to 10 of 11 collections')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
    expect(queryClient.getQueryData(collectionKeys.minePage({ page: 0, size: 10 }))).toMatchObject({
      count: 11,
      totalCount: 11,
      totalPages: 2,
      hasNextPage: true,
    });
  });

  test('create prepends to the first page and adds 1; update replaces; delete removes and subtracts 1, never below 0', async () => {
    const first = makeCollection({ title: 'first' });
    serveMine([first]);
    const { queryClient } = renderWithProviders(<MyCollections userId={USER} />);
    await screen.findByText('1 collection(s) total');

    const created = makeCollection({ title: 'brand new', status: 'Created' });
    addToMyCollections(queryClient, created);
    expect(await screen.findByText('2 collection(s) total')).toBeInTheDocument();
    const titles = screen.getAllByTestId('collection-card').map((c) => within(c).getByRole('heading').textContent);
    expect(titles).toEqual(['brand new', 'first']);

    replaceInMyCollections(queryClient, { ...created, status: 'Published' });
    await waitFor(() => expect(within(screen.getAllByTestId('collection-card')[0]!).getByText('Published')).toBeInTheDocument());

    removeFromMyCollections(queryClient, created.id);
    expect(await screen.findByText('1 collection(s) total')).toBeInTheDocument();
    removeFromMyCollections(queryClient, first.id);
    removeFromMyCollections(queryClient, 'missing');
    const page = queryClient.getQueryData<PageFields>(collectionKeys.minePage({ page: 0, size: 10 }));
    expect(page).toMatchObject({ count: 0, totalCount: 0, totalPages: 0, hasNextPage: false });
  });

  test('a card of a collection Coffer took down says so (product §27)', async () => {
    serveMine([
      makeCollection({ title: 'Kept' }),
      makeCollection({
        title: 'Taken down',
        moderation: { hidden: true, reason: 'Spam', files_removed: false, hidden_at: 1 },
      }),
    ]);
    renderWithProviders(<MyCollections userId={USER} />);
    const cards = await screen.findAllByTestId('collection-card');
    expect(within(cards[0]!).queryByTestId('takedown-notice')).not.toBeInTheDocument();
    const notice = within(cards[1]!).getByTestId('takedown-notice');
    expect(notice).toHaveTextContent('Hidden by Coffer: Spam');
    expect(notice).toHaveTextContent('Not for sale; buyers keep access.');
  });
});

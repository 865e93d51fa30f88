/**
 * The public creator page (/creator/:id) through the real route table, signed out: the creator's
 * name, @username, avatar and rating over their reviews, the grid of their collections with its
 * paging, skeletons while loading, the empty state, 'Creator not found' for a 404 and Try again for
 * other failures; and the storefront card's 'by …' link that leads there.
 */
import { pageFields, type Collection, type CreatorDetail, type PublicUser } from '@coffer/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, test } from 'vitest';
import { fail, ok, renderApp, signOutStore } from '@/test/render';
import { server } from '@/test/server';
import { makeCollection, renderWithProviders } from '@/test/helpers';
import { MarketCard } from './market-card';

const CREATOR_ID = '0190f3a2-0000-7000-8000-0000000000c1';
const creator: PublicUser = {
  id: CREATOR_ID,
  username: 'mira',
  nickname: 'Studio Mira',
  avatar: 'https://cdn.example/avatar.webp',
  created_at: Date.UTC(2026, 0, 15),
};

type Body = { user_id: string; paginator: { page: number; size: number } };

/** Serves `creator/detail` for CREATOR_ID with `total` collections; records each body asked. */
function serveCreator(total: number, extra: Partial<CreatorDetail> = {}) {
  const asked: Body[] = [];
  const all: Collection[] = Array.from({ length: total }, (_, i) =>
    makeCollection({ title: `Pack ${i + 1}`, owner_id: CREATOR_ID, seller: creator }),
  );
  server.use(
    http.post('*/sl/v1/creator/detail', async ({ request }) => {
      const body = (await request.json()) as Body;
      asked.push(body);
      const start = body.paginator.page * body.paginator.size;
      return HttpResponse.json(
        ok({
          creator,
          rating_sum: 13,
          rating_count: 3,
          collections: all.slice(start, start + body.paginator.size),
          ...pageFields(body.paginator, total),
          ...extra,
        }),
      );
    }),
  );
  return asked;
}

beforeEach(() => signOutStore());

describe('Creator page', () => {
  test('a visitor sees the name, @username, avatar, rating and the grid of the collections', async () => {
    const asked = serveCreator(2);
    renderApp(`/creator/${CREATOR_ID}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Studio Mira' })).toBeInTheDocument();
    expect(screen.getByText('@mira')).toBeInTheDocument();
    expect(document.querySelector(`img[src="${creator.avatar}"]`)).not.toBeNull();
    expect(screen.getByRole('img', { name: 'Rated 4.3 out of 5, 3 reviews' })).toBeInTheDocument();
    expect(screen.getByText('Joined Jan 15, 2026')).toBeInTheDocument();
    expect(screen.getByText('2 published collections')).toBeInTheDocument();
    const grid = screen.getByRole('list', { name: 'Collections by Studio Mira' });
    const cards = within(grid).getAllByTestId('market-card');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['Pack 1', 'Pack 2']);
    expect(asked[0]).toEqual({ user_id: CREATOR_ID, paginator: { page: 0, size: 12 } });
    // Signed out and still here: the page needs no sign-in.
    expect(screen.queryByRole('heading', { name: /log in/i })).not.toBeInTheDocument();
  });

  test('shows skeletons for the header and the cards until the answer arrives', async () => {
    serveCreator(1);
    server.use(
      http.post('*/sl/v1/creator/detail', async () => {
        await delay('infinite');
        return HttpResponse.json(ok({}));
      }),
    );
    renderApp(`/creator/${CREATOR_ID}`);
    expect(await screen.findByRole('status', { name: 'Loading creator' })).toBeInTheDocument();
    const cards = screen.getByRole('status', { name: 'Loading collections' });
    expect(within(cards).getAllByTestId('market-card-skeleton').length).toBeGreaterThan(0);
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
  });

  test('without reviews or collections: No reviews yet and the empty state', async () => {
    serveCreator(0, { rating_sum: 0, rating_count: 0 });
    renderApp(`/creator/${CREATOR_ID}`);
    expect(await screen.findByText('Nothing on sale yet')).toBeInTheDocument();
    expect(screen.getByText('This creator has not published any collection yet.')).toBeInTheDocument();
    expect(screen.getByText('No reviews yet')).toBeInTheDocument();
    expect(screen.getByText('0 published collections')).toBeInTheDocument();
  });

  test('pages through the collections with the storefront page sizes', async () => {
    const asked = serveCreator(14);
    renderApp(`/creator/${CREATOR_ID}`);
    await screen.findByText('Pack 12');
    expect(screen.queryByText('Pack 13')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /next/i }));
    expect(await screen.findByText('Pack 13')).toBeInTheDocument();
    expect(asked.at(-1)).toEqual({ user_id: CREATOR_ID, paginator: { page: 1, size: 12 } });
    // The header stays while the next page loads and after.
    expect(screen.getByRole('heading', { level: 1, name: 'Studio Mira' })).toBeInTheDocument();
  });

  test("a 404 (no such user, deleted or suspended) reads 'Creator not found', without Try again", async () => {
    server.use(
      http.post('*/sl/v1/creator/detail', () =>
        HttpResponse.json(fail(10005, 'This creator does not exist', 'NOT_FOUND'), { status: 404 }),
      ),
    );
    renderApp(`/creator/${CREATOR_ID}`);
    expect(await screen.findByRole('heading', { name: 'Creator not found' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse collections' })).toHaveAttribute('href', '/');
  });

  test('any other failure says so and Try again asks again', async () => {
    server.use(
      http.post('*/sl/v1/creator/detail', () =>
        HttpResponse.json(fail(10001, 'Server error', 'INTERNAL'), { status: 500 }),
      ),
    );
    renderApp(`/creator/${CREATOR_ID}`);
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent('Could not load this creator');
    const asked = serveCreator(1);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Studio Mira' })).toBeInTheDocument();
    expect(asked).toHaveLength(1);
  });
});

describe("A storefront card's 'by' link", () => {
  test("opens the seller's creator page; the rest of the card still opens the collection", async () => {
    serveCreator(1);
    const c = makeCollection({ title: 'Brushes', seller: creator });
    const { router } = renderWithProviders(<MarketCard collection={c} />);
    expect(screen.getByRole('link', { name: 'Brushes' })).toHaveAttribute('href', `/collection/${c.id}`);
    await userEvent.click(screen.getByRole('link', { name: 'Studio Mira' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/creator/${CREATOR_ID}`));
  });
});

import { pageFields } from '@coffer/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { server } from '@/test/server';
import { ok } from '@/test/render';
import { makeCollection, renderWithProviders } from '@/test/helpers';
import { Storefront } from './storefront';

type Body = { paginator: { page: number; size: number }; q?: string; sort: string };

function serveMarket(total: number) {
  const asked: Body[] = [];
  const all = Array.from({ length: total }, (_, i) =>
    makeCollection({
      title: `Pack ${i + 1}`,
      amount: i * 10,
      seller: { id: 's', username: 'mira', nickname: 'Studio Mira', avatar: '', created_at: 1 },
    }),
  );
  server.use(
    http.post('*/sl/v1/market/collections', async ({ request }) => {
      const body = (await request.json()) as Body;
      asked.push(body);
      const hits = body.q ? all.filter((c) => c.title.includes(body.q!)) : all;
      const start = body.paginator.page * body.paginator.size;
      return HttpResponse.json(
        ok({ collections: hits.slice(start, start + body.paginator.size), ...pageFields(body.paginator, hits.length) }),
      );
    }),
  );
  return asked;
}

describe('Storefront', () => {
  test('visitors get the hero with Start Now; cards show title, seller, price and sold count', async () => {
    serveMarket(2);
    renderWithProviders(<Storefront signedIn={false} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Discover digital resources' })).toBeInTheDocument();
    expect(screen.getByText('Trade digital resources with ease. Upload, buy, and sell your digital assets.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Start Now/ })).toHaveAttribute('href', '/login');
    const cards = await screen.findAllByTestId('market-card');
    expect(cards).toHaveLength(2);
    expect(cards[1]).toHaveTextContent('Pack 2');
    expect(cards[1]).toHaveTextContent('by Studio Mira');
    expect(cards[1]).toHaveTextContent('10 Points');
    expect(cards[1]).toHaveTextContent('0 sold');
    expect(cards[0]).toHaveTextContent('Free');
  });

  test('sorts by rating (product §29); cards show the average and the count of rated collections', async () => {
    const rated = makeCollection({ title: 'Rated', rating_sum: 13, rating_count: 3 });
    const asked: Body[] = [];
    server.use(
      http.post('*/sl/v1/market/collections', async ({ request }) => {
        asked.push((await request.json()) as Body);
        return HttpResponse.json(
          ok({ collections: [rated, makeCollection({ title: 'Unrated' })], ...pageFields({ page: 0, size: 12 }, 2) }),
        );
      }),
    );
    renderWithProviders(<Storefront signedIn />);
    const cards = await screen.findAllByTestId('market-card');
    expect(cards[0]).toHaveTextContent('4.3(3)');
    expect(screen.getByLabelText('Rated 4.3 out of 5, 3 reviews')).toBeInTheDocument();
    expect(cards[1]).not.toHaveTextContent('(');
    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'Rating');
    await waitFor(() => expect(asked.at(-1)?.sort).toBe('rating'));
  });

  test('signed-in users get no hero', async () => {
    serveMarket(1);
    renderWithProviders(<Storefront signedIn />);
    await screen.findByTestId('market-card');
    expect(screen.queryByRole('link', { name: /Start Now/ })).not.toBeInTheDocument();
  });

  test('shows card-sized skeletons while loading', async () => {
    serveMarket(1);
    renderWithProviders(<Storefront signedIn />);
    expect(screen.getAllByTestId('market-card-skeleton')).toHaveLength(8);
    await screen.findByTestId('market-card');
  });

  test('search and sort go to the server and into the URL; pages move with Next', async () => {
    const asked = serveMarket(30);
    const user = userEvent.setup();
    const { router } = renderWithProviders(<Storefront signedIn />);
    await screen.findByText('Page 1 of 3');
    expect(asked[0]).toEqual({ paginator: { page: 0, size: 12 }, sort: 'newest' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    expect(asked.at(-1)?.paginator).toEqual({ page: 1, size: 12 });

    await user.selectOptions(screen.getByLabelText('Sort by'), 'price_desc');
    await waitFor(() => expect(asked.at(-1)).toEqual({ paginator: { page: 0, size: 12 }, sort: 'price_desc' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search collections' }), 'Pack 3');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(asked.at(-1)).toEqual({ paginator: { page: 0, size: 12 }, sort: 'price_desc', q: 'Pack 3' }));
    expect(router.state.location.search).toBe('?sort=price_desc&q=Pack+3');
  });

  test('an empty search offers to clear it', async () => {
    serveMarket(3);
    const user = userEvent.setup();
    renderWithProviders(<Storefront signedIn />, { path: '/?q=nothing' });
    expect(await screen.findByText('No collections match your search')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await screen.findAllByTestId('market-card')).toHaveLength(3);
  });
});

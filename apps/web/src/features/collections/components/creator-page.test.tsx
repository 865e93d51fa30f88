import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { fail, ok, renderApp } from '@/test/render';
import { server } from '@/test/server';
import { makeCollection } from '../test/helpers';

const SELLER = '0190f3a2-0000-7000-8000-0000000000c1';
const nickname = 'Ż'.repeat(64);
const creator = { id: SELLER, username: 'studio_nord', nickname, avatar: '', created_at: Date.UTC(2026, 0, 5) };

function serve(creatorAnswer: () => Response) {
  server.use(
    http.post('*/sl/v1/creator', creatorAnswer),
    http.post('*/sl/v1/user/collections', () =>
      HttpResponse.json(
        ok({
          collections: [makeCollection({ title: 'Brushes', status: 'Published', owner_id: SELLER })],
          count: 1,
          page: 0,
          size: 12,
          totalCount: 1,
          totalPages: 1,
          hasNextPage: false,
        }),
      ),
    ),
  );
}

describe('the creator page (/creator/:id)', () => {
  it("shows a visitor the seller's name, reviews summed, published and sold counts and their collections", async () => {
    serve(() => HttpResponse.json(ok({ creator, published: 1, sold: 1234, rating_sum: 13, rating_count: 3 })));
    renderApp(`/creator/${SELLER}`);
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading).toHaveTextContent(nickname);
    expect(heading).toHaveAttribute('title', nickname);
    const stats = screen.getByTestId('creator-stats');
    expect(within(stats).getByRole('img', { name: 'Rated 4.3 out of 5, 3 reviews' })).toBeInTheDocument();
    expect(stats).toHaveTextContent('1published collection');
    expect(stats).toHaveTextContent('1,234sold');
    expect(await screen.findByText('Brushes')).toBeInTheDocument();
    // A visitor is not sent to /login (the page is public).
    expect(screen.queryByRole('heading', { name: 'Welcome back' })).not.toBeInTheDocument();
  });

  it("says 'Creator not found' for a 404, and offers Try again on other failures", async () => {
    serve(() => HttpResponse.json(fail(10005, 'Record does not exist', 'NOT_FOUND'), { status: 404 }));
    const { unmount } = renderApp(`/creator/${SELLER}`);
    expect(await screen.findByText('Creator not found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    unmount();
    let failing = true;
    serve(() =>
      failing
        ? HttpResponse.json(fail(10010, 'Server error. Please try again later.', 'INTERNAL'), { status: 500 })
        : HttpResponse.json(ok({ creator, published: 1, sold: 0, rating_sum: 0, rating_count: 0 })),
    );
    renderApp(`/creator/${SELLER}`);
    expect(await screen.findByText('Could not load this page')).toBeInTheDocument();
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No reviews yet')).toBeInTheDocument();
  });
});

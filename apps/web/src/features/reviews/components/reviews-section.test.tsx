import type { Review } from '@coffer/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { server } from '@/test/server';
import { fail, ok } from '@/test/render';
import { makeCollection, renderWithProviders } from '@/test/helpers';
import { ReviewsSection } from './reviews-section';
import { RatingSummary } from '@/components/ui/star-rating';

const OWNER = '0190f3a2-0000-7000-8000-000000000001';
const BUYER = '0190f3a2-0000-7000-8000-0000000000b0';
const collection = makeCollection({ owner_id: OWNER, rating_sum: 13, rating_count: 3 });

function review(n: number, overrides: Partial<Review> = {}): Review {
  return {
    id: `0190f3a2-0000-7000-8000-0000000001${String(n).padStart(2, '0')}`,
    collection_id: collection.id,
    rating: 4,
    text: `Review ${n}`,
    created_at: Date.UTC(2026, 2, 10 - n),
    updated_at: Date.UTC(2026, 2, 10 - n),
    author: { id: `0190f3a2-0000-7000-8000-0000000002${String(n).padStart(2, '0')}`, nickname: `Buyer ${n}`, avatar: '' },
    reply: null,
    refunded: false,
    ...overrides,
  };
}

const page = (reviews: Review[], extra: Record<string, unknown> = {}) =>
  ok({
    reviews,
    page: 0,
    size: 10,
    totalCount: reviews.length,
    totalPages: reviews.length ? 1 : 0,
    hasNextPage: false,
    count: reviews.length,
    mine: null,
    can_review: false,
    ...extra,
  });

describe('RatingSummary', () => {
  test('shows the one-decimal average and the count, and reads as one label', () => {
    renderWithProviders(<RatingSummary sum={13} count={3} />);
    expect(screen.getByLabelText('Rated 4.3 out of 5, 3 reviews')).toHaveTextContent('4.3(3 reviews)');
  });
  test('says there are no reviews yet; the compact form shows nothing', () => {
    renderWithProviders(
      <>
        <RatingSummary sum={0} count={0} />
        <div data-testid="compact">
          <RatingSummary sum={0} count={0} compact />
        </div>
      </>,
    );
    expect(screen.getByText('No reviews yet')).toBeInTheDocument();
    expect(screen.getByTestId('compact')).toBeEmptyDOMElement();
  });
});

describe('Reviews section', () => {
  test('lists reviews newest first with the seller reply, and pages', async () => {
    const many = [
      review(1, { reply: { text: 'Thank you!', created_at: Date.UTC(2026, 2, 9) } }),
      review(2, { rating: 5, updated_at: Date.UTC(2026, 2, 9) }),
    ];
    const asked: unknown[] = [];
    server.use(
      http.post('*/sl/v1/review/list', async ({ request }) => {
        const body = (await request.json()) as { paginator: { page: number } };
        asked.push(body.paginator.page);
        return HttpResponse.json(
          page(many, { totalCount: 12, count: 12, totalPages: 2, hasNextPage: true, page: body.paginator.page }),
        );
      }),
    );
    renderWithProviders(<ReviewsSection collection={collection} viewerId={null} isOwner={false} />);
    const list = await screen.findByRole('list', { name: 'Reviews, newest first' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Buyer 1');
    expect(items[0]).toHaveTextContent('Reply from the seller');
    expect(items[0]).toHaveTextContent('Thank you!');
    expect(items[1]).toHaveTextContent('(edited)');
    expect(within(items[1]!).getByText('5 out of 5 stars')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: /review/i })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(asked).toEqual([0, 1]));
  });

  test('shows the empty state', async () => {
    server.use(http.post('*/sl/v1/review/list', () => HttpResponse.json(page([]))));
    renderWithProviders(<ReviewsSection collection={makeCollection()} viewerId={null} isOwner={false} />);
    expect(await screen.findByText('Buyers of this collection can rate it from 1 to 5 stars.')).toBeInTheDocument();
  });

  test('a buyer must pick stars, then posts a review', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('*/sl/v1/review/list', () => HttpResponse.json(page([], { can_review: true }))),
      http.post('*/sl/v1/review/upsert', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(ok({ review: review(1) }));
      }),
    );
    renderWithProviders(<ReviewsSection collection={collection} viewerId={BUYER} isOwner={false} />);
    const form = await screen.findByRole('form', { name: 'Write a review' });
    await userEvent.click(within(form).getByRole('button', { name: 'Post review' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Please pick a rating');
    await userEvent.click(within(form).getByRole('radio', { name: '4 stars' }));
    await userEvent.type(within(form).getByLabelText('Your review (optional)'), ' Great pack ');
    await userEvent.click(within(form).getByRole('button', { name: 'Post review' }));
    await waitFor(() => expect(sent).toEqual([{ collection_id: collection.id, rating: 4, text: 'Great pack' }]));
    expect(await screen.findByText('Thanks for your review!')).toBeInTheDocument();
  });

  test('a buyer who reviewed edits their review (prefilled) and sees the server message on failure', async () => {
    const mine = review(3, { rating: 2, text: 'Meh', author: { id: BUYER, nickname: 'Me', avatar: '' } });
    server.use(
      http.post('*/sl/v1/review/list', () => HttpResponse.json(page([mine], { mine, can_review: true }))),
      http.post('*/sl/v1/review/upsert', () =>
        HttpResponse.json(fail(10005, 'Only buyers of this collection can review it.', 'FORBIDDEN'), { status: 403 }),
      ),
    );
    renderWithProviders(<ReviewsSection collection={collection} viewerId={BUYER} isOwner={false} />);
    const form = await screen.findByRole('form', { name: 'Edit your review' });
    expect(within(form).getByRole('radio', { name: '2 stars' })).toBeChecked();
    expect(within(form).getByLabelText('Your review (optional)')).toHaveValue('Meh');
    await userEvent.click(within(form).getByRole('button', { name: 'Update review' }));
    expect(await screen.findByText(/permission|Only buyers/)).toBeInTheDocument();
  });

  test('a buyer deletes their review after confirming', async () => {
    const mine = review(5, { author: { id: BUYER, nickname: 'Me', avatar: '' } });
    const sent: unknown[] = [];
    server.use(
      http.post('*/sl/v1/review/list', () => HttpResponse.json(page([mine], { mine, can_review: true }))),
      http.post('*/sl/v1/review/delete', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(ok({}));
      }),
    );
    renderWithProviders(<ReviewsSection collection={collection} viewerId={BUYER} isOwner={false} />);
    const form = await screen.findByRole('form', { name: 'Edit your review' });
    await userEvent.click(within(form).getByRole('button', { name: 'Delete' }));
    expect(sent).toEqual([]);
    await userEvent.click(within(form).getByRole('button', { name: 'Delete my review' }));
    await waitFor(() => expect(sent).toEqual([{ review_id: mine.id }]));
    expect(await screen.findByText('Review deleted')).toBeInTheDocument();
  });

  test('the owner replies once to a review without a reply', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('*/sl/v1/review/list', () =>
        HttpResponse.json(page([review(1), review(2, { reply: { text: 'Done', created_at: 1 } })])),
      ),
      http.post('*/sl/v1/review/reply', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(ok({ review: review(1, { reply: { text: 'Thanks', created_at: 2 } }) }));
      }),
    );
    renderWithProviders(<ReviewsSection collection={collection} viewerId={OWNER} isOwner />);
    const list = await screen.findByRole('list', { name: 'Reviews, newest first' });
    const replyButtons = within(list).getAllByRole('button', { name: 'Reply' });
    expect(replyButtons).toHaveLength(1);
    await userEvent.click(replyButtons[0]!);
    await userEvent.type(screen.getByLabelText(/Your reply/), 'Thanks');
    await userEvent.click(screen.getByRole('button', { name: 'Post reply' }));
    await waitFor(() => expect(sent).toEqual([{ review_id: review(1).id, text: 'Thanks' }]));
  });

  test('a refunded buyer sees their review marked, and no form', async () => {
    const mine = review(4, { refunded: true, author: { id: BUYER, nickname: 'Me', avatar: '' } });
    server.use(http.post('*/sl/v1/review/list', () => HttpResponse.json(page([], { mine, can_review: false }))));
    renderWithProviders(<ReviewsSection collection={collection} viewerId={BUYER} isOwner={false} />);
    expect(await screen.findByText('Refunded: this review no longer counts')).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { server } from '@/test/server';
import { ok } from '@/test/render';
import { makeCollection, renderWithProviders } from '../test/helpers';
import { ProfilePurchases } from './profile-purchases';
import { ProfileSales } from './profile-sales';

const collection = makeCollection({ title: 'Icons', amount: 25 });
const page = (orders: unknown[]) => ({
  orders,
  count: orders.length,
  page: 0,
  size: 10,
  totalCount: orders.length,
  totalPages: 1,
  hasNextPage: false,
});
const base = { collection_id: collection.id, amount: 25, created_at: 1, paid_at: 2, collection };

describe("the seller's sales", () => {
  test('lists sales with buyer and status, shows refund requests, and refunds a paid order', async () => {
    const paid = {
      ...base,
      id: 'o-1',
      status: 'OrderStatusPaid',
      buyer: { id: 'b1', nickname: 'Ada' },
      refund_request: { reason: 'Broken zip', requested_at: 3 },
    };
    const refunded = {
      ...base,
      id: 'o-2',
      status: 'OrderStatusRefunded',
      buyer: { id: 'b2', nickname: 'Bo' },
      refund_request: null,
    };
    const asked: unknown[] = [];
    const refunds: unknown[] = [];
    server.use(
      http.post('*/sl/v1/my/sales', async ({ request }) => {
        const body = (await request.json()) as { pending_requests: boolean };
        asked.push(body.pending_requests);
        return HttpResponse.json(ok(page(body.pending_requests ? [paid] : [paid, refunded])));
      }),
      http.post('*/api/uc/v1/account/order/refund', async ({ request }) => {
        refunds.push(await request.json());
        return HttpResponse.json(ok({ ...paid, status: 'OrderStatusRefunded' }));
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ProfileSales />);
    const rows = await screen.findAllByTestId('sale-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Ada')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Refund requested: Broken zip')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Refunded')).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('button', { name: /Refund/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Refund requests' }));
    await waitFor(() => expect(screen.getAllByTestId('sale-row')).toHaveLength(1));
    expect(asked).toContain(true);

    await user.click(screen.getByRole('button', { name: "Refund Ada's order" }));
    const dialog = screen.getByRole('dialog', { name: 'Refund order' });
    await user.click(within(dialog).getByRole('button', { name: 'Refund 25 Points' }));
    expect(await screen.findByText('Order refunded')).toBeInTheDocument();
    expect(refunds).toEqual([{ order_id: 'o-1' }]);
  });
});

describe('My orders', () => {
  test('shows Refunded in blue, Request refund on a paid order and Refund requested once asked', async () => {
    server.use(
      http.post('*/sl/v1/my/purchased/collections', () =>
        HttpResponse.json(ok({ collections: [], count: 0, page: 0, size: 10, totalCount: 0, totalPages: 0, hasNextPage: false })),
      ),
      http.post('*/sl/v1/my/orders', () =>
        HttpResponse.json(
          ok(
            page([
              { ...base, id: 'o-1', status: 'OrderStatusPaid', refund_request: null },
              { ...base, id: 'o-2', status: 'OrderStatusPaid', refund_request: { reason: 'x', requested_at: 3 } },
              { ...base, id: 'o-3', status: 'OrderStatusRefunded', refund_request: null },
            ]),
          ),
        ),
      ),
    );
    renderWithProviders(<ProfilePurchases userId="u-1" />);
    const rows = await screen.findAllByTestId('order-row');
    expect(within(rows[0]!).getByRole('button', { name: 'Request refund' })).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Refund requested')).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[2]!).getByText('Refunded')).toBeInTheDocument();
    expect(within(rows[2]!).queryByRole('button')).not.toBeInTheDocument();
  });
});

describe("the seller's proceeds per sale (clearance)", () => {
  test('a paid sale reads Pending with the date it clears, or Cleared; a refunded one neither', async () => {
    const clearsAt = new Date(2026, 11, 5, 12, 0).getTime();
    const buyer = { id: 'b1', nickname: 'Ada' };
    server.use(
      http.post('*/sl/v1/my/sales', () =>
        HttpResponse.json(
          ok(
            page([
              { ...base, id: 'o-1', status: 'OrderStatusPaid', buyer, clears_at: clearsAt, cleared_at: null },
              { ...base, id: 'o-2', status: 'OrderStatusPaid', buyer, clears_at: 5, cleared_at: 6 },
              { ...base, id: 'o-3', status: 'OrderStatusRefunded', buyer, clears_at: clearsAt, cleared_at: null },
            ]),
          ),
        ),
      ),
    );
    renderWithProviders(<ProfileSales />);
    const rows = await screen.findAllByTestId('sale-row');
    expect(screen.getByRole('columnheader', { name: 'Proceeds' })).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('Pending· clears Dec 05, 2026');
    expect(within(rows[1]!).getByText('Cleared')).toBeInTheDocument();
    expect(within(rows[2]!).queryByText('Cleared')).not.toBeInTheDocument();
    expect(within(rows[2]!).getByLabelText('No holding period')).toBeInTheDocument();
  });
});

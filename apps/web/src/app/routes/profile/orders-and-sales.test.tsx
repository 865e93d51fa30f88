import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { server } from '@/test/server';
import { fail, ok } from '@/test/render';
import { makeCollection, renderWithProviders } from '@/test/helpers';
import { ProfilePurchases } from '@/features/orders/components/profile-purchases';
import { ProfileSales } from '@/features/sales/components/profile-sales';
import { ReportOrderTexts } from '@/features/orders/components/report-order-dialog';
import { purchasedFiles } from './buy';
import { saleAction } from './selling';

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
    renderWithProviders(<ProfileSales action={saleAction} />);
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
    renderWithProviders(<ProfilePurchases userId="u-1" files={purchasedFiles} />);
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
    renderWithProviders(<ProfileSales action={saleAction} />);
    const rows = await screen.findAllByTestId('sale-row');
    expect(screen.getByRole('columnheader', { name: 'Proceeds' })).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('Pending· clears Dec 05, 2026');
    expect(within(rows[1]!).getByText('Cleared')).toBeInTheDocument();
    expect(within(rows[2]!).queryByText('Cleared')).not.toBeInTheDocument();
    expect(within(rows[2]!).getByLabelText('No holding period')).toBeInTheDocument();
  });
});

describe("This wasn't me", () => {
  const day = 86_400_000;
  function serveOrders(orders: unknown[]) {
    server.use(
      http.post('*/sl/v1/my/purchased/collections', () =>
        HttpResponse.json(ok({ collections: [], count: 0, page: 0, size: 10, totalCount: 0, totalPages: 0, hasNextPage: false })),
      ),
      http.post('*/sl/v1/my/orders', () => HttpResponse.json(ok(page(orders)))),
      http.post('*/sl/v1/my/library/changes', () => HttpResponse.json(ok({ changes: [], cursor: null, has_more: false }))),
    );
  }

  test('only a paid order whose payment is pending and not reported offers it; a reported one reads Reported', async () => {
    const now = Date.now();
    serveOrders([
      { ...base, id: 'o-1', status: 'OrderStatusPaid', clears_at: now + 3 * day, cleared_at: null, reported_at: null },
      { ...base, id: 'o-2', status: 'OrderStatusPaid', clears_at: now - day, cleared_at: now - day, reported_at: null },
      { ...base, id: 'o-3', status: 'OrderStatusPaid', clears_at: now + day, cleared_at: null, reported_at: now - 1000 },
      { ...base, id: 'o-4', status: 'OrderStatusRefunded', clears_at: now + day, cleared_at: null, reported_at: null },
      { ...base, id: 'o-5', status: 'OrderStatusPaid', clears_at: null, cleared_at: null, reported_at: null },
    ]);
    renderWithProviders(<ProfilePurchases userId="u-1" files={purchasedFiles} />);
    const rows = await screen.findAllByTestId('order-row');
    const action = (row: HTMLElement) => within(row).queryByRole('button', { name: /This wasn't me/ });
    expect(action(rows[0]!)).toBeInTheDocument();
    expect(action(rows[1]!)).not.toBeInTheDocument();
    expect(action(rows[2]!)).not.toBeInTheDocument();
    expect(within(rows[2]!).getByText('Reported')).toBeInTheDocument();
    expect(action(rows[3]!)).not.toBeInTheDocument();
    expect(action(rows[4]!)).not.toBeInTheDocument();
  });

  test('the dialog works from the keyboard, sends the details and says what happens next', async () => {
    const now = Date.now();
    const order = { ...base, id: 'o-1', status: 'OrderStatusPaid', clears_at: now + 3 * day, cleared_at: null, reported_at: null };
    serveOrders([order]);
    const reports: unknown[] = [];
    server.use(
      http.post('*/api/uc/v1/account/order/report', async ({ request }) => {
        reports.push(await request.json());
        return HttpResponse.json(ok({ ...order, reported_at: now }));
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ProfilePurchases userId="u-1" files={purchasedFiles} />);
    const button = await screen.findByRole('button', { name: "This wasn't me: Icons" });
    button.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: ReportOrderTexts.title });
    const details = within(dialog).getByLabelText('Details (optional)');
    await waitFor(() => expect(details).toHaveFocus());
    expect(details).toHaveAttribute('maxLength', '1000');
    await user.keyboard('I was asleep.');
    await user.tab();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Report purchase' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText(ReportOrderTexts.done)).toBeInTheDocument();
    expect(ReportOrderTexts.done).toBe(
      'Reported — our team will review it. If you did not make this purchase, change your password and sign out other sessions.',
    );
    expect(reports).toEqual([{ order_id: 'o-1', details: 'I was asleep.' }]);
    expect(within(dialog).getByRole('link', { name: 'Go to Security' })).toHaveAttribute('href', '/profile/security');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test("a refusal shows the server's msg in the dialog, which stays open", async () => {
    const now = Date.now();
    serveOrders([{ ...base, id: 'o-1', status: 'OrderStatusPaid', clears_at: now + day, cleared_at: null, reported_at: null }]);
    const msg =
      'This purchase can no longer be reported here: its payment has cleared. Ask the seller for a refund, or contact support.';
    server.use(http.post('*/api/uc/v1/account/order/report', () => HttpResponse.json(fail(10009, msg, 'CONFLICT'), { status: 409 })));
    const user = userEvent.setup();
    renderWithProviders(<ProfilePurchases userId="u-1" files={purchasedFiles} />);
    await user.click(await screen.findByRole('button', { name: "This wasn't me: Icons" }));
    const dialog = await screen.findByRole('dialog', { name: ReportOrderTexts.title });
    await user.click(within(dialog).getByRole('button', { name: 'Report purchase' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(msg);
    expect(screen.getByRole('dialog', { name: ReportOrderTexts.title })).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order, SaleOrder } from '@coffer/contract';
import { describe, expect, test } from 'vitest';
import { apiFailure, mockApi } from '@/test/mock-api';
import { server } from '@/test/server';
import { makeCollection, renderWithProviders } from '@/test/helpers';
import { ProfilePurchases } from '@/features/orders/components/profile-purchases';
import { ProfileSales } from '@/features/sales/components/profile-sales';
import { ReportOrderTexts } from '@/features/orders/components/report-order-dialog';
import { purchasedFiles } from './buy';
import { saleAction } from './selling';

const collection = makeCollection({ title: 'Icons', amount: 25 });
const page = <T,>(orders: T[]) => ({
  orders,
  count: orders.length,
  page: 0,
  size: 10,
  totalCount: orders.length,
  totalPages: 1,
  hasNextPage: false,
});
const base = { collection_id: collection.id, amount: 25, created_at: 1, paid_at: 2, collection };
/** A buyer's order of `collection` (25 Points, paid at 2) with `fields` over it. */
const order = (fields: Pick<Order, 'id' | 'status'> & Partial<Order>): Order => ({ ...base, ...fields });
const noPurchases = { collections: [], count: 0, page: 0, size: 10, totalCount: 0, totalPages: 0, hasNextPage: false };
const noChanges = { changes: [], cursor: 'c0', has_more: false };

describe("the seller's sales", () => {
  test('lists sales with buyer and status, shows refund requests, and refunds a paid order', async () => {
    const paid: SaleOrder = {
      ...base,
      id: 'o-1',
      status: 'OrderStatusPaid',
      buyer: { id: 'b1', nickname: 'Ada' },
      refund_request: { reason: 'Broken zip', requested_at: 3 },
    };
    const refunded: SaleOrder = {
      ...base,
      id: 'o-2',
      status: 'OrderStatusRefunded',
      buyer: { id: 'b2', nickname: 'Bo' },
      refund_request: null,
    };
    const asked: unknown[] = [];
    const refunds: unknown[] = [];
    server.use(
      mockApi('mySales', ({ body }) => {
        asked.push(body.pending_requests);
        return page(body.pending_requests ? [paid] : [paid, refunded]);
      }),
      mockApi('orderRefund', ({ body }) => {
        refunds.push(body);
        return { ...paid, status: 'OrderStatusRefunded' };
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
      mockApi('myPurchasedCollections', noPurchases),
      mockApi(
        'myOrders',
        page([
          order({ id: 'o-1', status: 'OrderStatusPaid', refund_request: null }),
          order({ id: 'o-2', status: 'OrderStatusPaid', refund_request: { reason: 'x', requested_at: 3 } }),
          order({ id: 'o-3', status: 'OrderStatusRefunded', refund_request: null }),
        ]),
      ),
      mockApi('myLibraryChanges', noChanges),
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
      mockApi(
        'mySales',
        page([
          { ...order({ id: 'o-1', status: 'OrderStatusPaid', clears_at: clearsAt, cleared_at: null }), buyer },
          { ...order({ id: 'o-2', status: 'OrderStatusPaid', clears_at: 5, cleared_at: 6 }), buyer },
          { ...order({ id: 'o-3', status: 'OrderStatusRefunded', clears_at: clearsAt, cleared_at: null }), buyer },
        ]),
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
  function serveOrders(orders: Order[]) {
    server.use(
      mockApi('myPurchasedCollections', noPurchases),
      mockApi('myOrders', page(orders)),
      mockApi('myLibraryChanges', noChanges),
    );
  }

  test('only a paid order whose payment is pending and not reported offers it; a reported one reads Reported', async () => {
    const now = Date.now();
    serveOrders([
      order({ id: 'o-1', status: 'OrderStatusPaid', clears_at: now + 3 * day, cleared_at: null, reported_at: null }),
      order({ id: 'o-2', status: 'OrderStatusPaid', clears_at: now - day, cleared_at: now - day, reported_at: null }),
      order({ id: 'o-3', status: 'OrderStatusPaid', clears_at: now + day, cleared_at: null, reported_at: now - 1000 }),
      order({ id: 'o-4', status: 'OrderStatusRefunded', clears_at: now + day, cleared_at: null, reported_at: null }),
      order({ id: 'o-5', status: 'OrderStatusPaid', clears_at: null, cleared_at: null, reported_at: null }),
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
    const reported = order({ id: 'o-1', status: 'OrderStatusPaid', clears_at: now + 3 * day, cleared_at: null, reported_at: null });
    serveOrders([reported]);
    const reports: unknown[] = [];
    server.use(
      mockApi('orderReport', ({ body }) => {
        reports.push(body);
        return { ...reported, reported_at: now };
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
    serveOrders([order({ id: 'o-1', status: 'OrderStatusPaid', clears_at: now + day, cleared_at: null, reported_at: null })]);
    const msg =
      'This purchase can no longer be reported here: its payment has cleared. Ask the seller for a refund, or contact support.';
    server.use(mockApi('orderReport', () => apiFailure(10009, msg, 'CONFLICT', 409)));
    const user = userEvent.setup();
    renderWithProviders(<ProfilePurchases userId="u-1" files={purchasedFiles} />);
    await user.click(await screen.findByRole('button', { name: "This wasn't me: Icons" }));
    const dialog = await screen.findByRole('dialog', { name: ReportOrderTexts.title });
    await user.click(within(dialog).getByRole('button', { name: 'Report purchase' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(msg);
    expect(screen.getByRole('dialog', { name: ReportOrderTexts.title })).toBeInTheDocument();
  });
});

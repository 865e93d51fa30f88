import type { SalesDashboard as Dashboard } from '@coffer/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { server } from '@/test/server';
import { fail, ok } from '@/test/render';
import { renderWithProviders } from '@/test/helpers';
import { SalesDashboard } from './sales-dashboard';

// jsdom has no canvas: the chart module (uPlot) is replaced; the table alternative is what is checked.
vi.mock('./sales-chart', () => ({
  default: ({ series }: { series: unknown[] }) => <div data-testid="sales-chart">{series.length} days</div>,
}));

function dashboard(days: number, overrides: Partial<Dashboard> = {}): Dashboard {
  const series = Array.from({ length: days }, (_, i) => ({
    day: new Date(Date.UTC(2026, 2, 10) - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
    sales: i === days - 1 ? 2 : 0,
    earned: i === days - 1 ? '36.00' : '0.00',
    refunds: i === days - 2 ? 1 : 0,
    refunded: i === days - 2 ? '18.00' : '0.00',
  }));
  return {
    days,
    from: 0,
    to: 0,
    series,
    totals: { sales: 2, earned: '36.00', refunds: 1, refunded: '18.00', net: '18.00' },
    top_collections: [{ collection_id: '0190f3a2-0000-7000-8000-000000000009', title: 'Brushes', sales: 2, earned: '36.00' }],
    downloads: [{ collection_id: '0190f3a2-0000-7000-8000-000000000009', title: 'Brushes', downloads: 7, buyers: 2 }],
    ...overrides,
  };
}

describe('Sales dashboard', () => {
  test('writes amounts with thousands separators, and a net below zero with its sign', async () => {
    const totals = { sales: 1, earned: '1500.00', refunds: 2, refunded: '2750.50', net: '-1250.50' };
    server.use(http.post('*/sl/v1/my/sales/dashboard', () => HttpResponse.json(ok(dashboard(7, { totals })))));
    renderWithProviders(<SalesDashboard userId="u1" />);
    expect(await screen.findByText('1,500 Points')).toBeInTheDocument();
    expect(screen.getByText('(2,750.50 Points)')).toBeInTheDocument();
    expect(screen.getByText('Net', { selector: 'dt' }).nextSibling).toHaveTextContent('-1,250.50 Points');
  });

  test('shows totals, the chart with a table alternative, top collections and downloads; switches the period', async () => {
    const asked: number[] = [];
    server.use(
      http.post('*/sl/v1/my/sales/dashboard', async ({ request }) => {
        const { days } = (await request.json()) as { days: number };
        asked.push(days);
        return HttpResponse.json(ok(dashboard(days)));
      }),
    );
    renderWithProviders(<SalesDashboard userId="u1" />);
    expect(screen.getByRole('status', { name: 'Loading the sales dashboard' })).toBeInTheDocument();
    expect(await screen.findByTestId('sales-chart')).toHaveTextContent('30 days');
    expect(screen.getByText('Earned', { selector: 'dt' }).nextSibling).toHaveTextContent('36 Points');
    expect(screen.getByText('Net', { selector: 'dt' }).nextSibling).toHaveTextContent('18 Points');
    const table = screen.getByRole('table', { name: /per UTC day, last 30 days/ });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(rows[1]).toHaveTextContent('2026-03-10');
    expect(rows[1]).toHaveTextContent('36 Points');
    expect(rows[2]).toHaveTextContent('18 Points');
    // On a phone each row stacks as a card whose cells name their column.
    expect(table).toHaveClass('stack-table');
    expect(Array.from(rows[1]!.querySelectorAll('td')).map((td) => td.dataset.label)).toEqual(['Sales', 'Earned', 'Refunds', 'Refunded']);
    expect(
      within(screen.getByRole('table', { name: /Top collections/ })).getByRole('link', { name: 'Brushes' }),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: /downloaded/ })).getByText('7')).toBeInTheDocument();

    expect(screen.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: '7 days' }));
    expect(await screen.findByText('7 days', { selector: '[data-testid="sales-chart"]' })).toBeInTheDocument();
    expect(asked).toEqual([30, 7]);
  });

  test('shows the empty state without sales', async () => {
    server.use(
      http.post('*/sl/v1/my/sales/dashboard', () =>
        HttpResponse.json(
          ok(
            dashboard(30, {
              series: [],
              totals: { sales: 0, earned: '0.00', refunds: 0, refunded: '0.00', net: '0.00' },
              top_collections: [],
              downloads: [],
            }),
          ),
        ),
      ),
    );
    renderWithProviders(<SalesDashboard userId="u1" />);
    expect(await screen.findByText('No sales in this period')).toBeInTheDocument();
    expect(screen.queryByTestId('sales-chart')).not.toBeInTheDocument();
    expect(screen.getByText('No downloads yet.')).toBeInTheDocument();
  });

  test('shows the server message when the load fails', async () => {
    server.use(
      http.post('*/sl/v1/my/sales/dashboard', () =>
        HttpResponse.json(fail(10001, 'days must be 7, 30 or 90', 'VALIDATION_FAILED'), { status: 400 }),
      ),
    );
    renderWithProviders(<SalesDashboard userId="u1" />);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('days must be 7, 30 or 90'));
  });

  test("shows the server's pending and cleared proceeds with the next clearance, and nothing without them", async () => {
    const next = new Date(2026, 11, 5, 12, 0).getTime();
    server.use(
      http.post('*/sl/v1/my/sales/dashboard', () =>
        HttpResponse.json(ok(dashboard(30, { clearance: { pending: '12.50', cleared: '23.50', next_clears_at: next } }))),
      ),
    );
    const { unmount } = renderWithProviders(<SalesDashboard userId="u1" />);
    const pending = await screen.findByText('Pending proceeds', { selector: 'dt' });
    expect(pending.nextSibling).toHaveTextContent('12.50 Points');
    expect(pending.parentElement).toHaveTextContent('next clears Dec 05, 2026');
    expect(screen.getByText('Cleared in this period', { selector: 'dt' }).nextSibling).toHaveTextContent('23.50 Points');
    unmount();

    server.use(http.post('*/sl/v1/my/sales/dashboard', () => HttpResponse.json(ok(dashboard(30)))));
    renderWithProviders(<SalesDashboard userId="u1" />);
    await screen.findByTestId('sales-chart');
    expect(screen.queryByText('Pending proceeds')).not.toBeInTheDocument();
  });
});

import { DepositStatus, Direction, pageFields, RecordCate, RecordStatus, RecordType, WithdrawStatus } from '@coffer/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/test/server';
import {
  BILL_ID,
  depositBill,
  fail,
  mockWalletApi,
  ok,
  on,
  record,
  renderWallet,
  USER_ID,
  withdrawBill,
} from '../testing/wallet-test-utils';
import { BalanceDialog } from './balance-dialog';
import { filteredEmptyText, TransactionList } from './transaction-list';
import { TransactionsPage } from './transactions-page';

/** The scroll container is 400 px tall over 2000 px of rows (jsdom lays nothing out). */
function fakeLayout() {
  const isContainer = (el: HTMLElement) => el.hasAttribute('data-scroll-container');
  vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return isContainer(this) ? 2000 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return isContainer(this) ? 400 : 0;
  });
}

/**
 * `total` records served 20 a page with the paging fields (product §3 Pagination); returns the requests
 * seen. `withoutCount` drops the legacy `count` field.
 */
function serveRecords(total: number, { slow = false, withoutCount = false } = {}) {
  const requests: any[] = [];
  server.use(
    on('/record/list', async (body) => {
      requests.push(body);
      if (slow && body.paginator.page > 0) await delay(50);
      const start = body.paginator.page * body.paginator.size;
      const records = Array.from({ length: Math.max(0, Math.min(body.paginator.size, total - start)) }, (_, i) =>
        record(start + i + 1),
      );
      const { count, ...paging } = pageFields(body.paginator, total);
      return ok({ records, ...paging, ...(withoutCount ? {} : { count }) });
    }),
  );
  return requests;
}

beforeEach(() => fakeLayout());

describe('record list', () => {
  it('loads 20 a page from page 0 and the next page within 50 px of the bottom, until count', async () => {
    const requests = serveRecords(45, { slow: true });
    renderWallet(<TransactionList userId={USER_ID} cate={RecordCate.All} />);
    expect(screen.getByText('Loading transactions...')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Transactions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    expect(requests).toEqual([
      { user_id: USER_ID, filter: { cate: 'RecordCateAll', status_list: [] }, paginator: { page: 0, size: 20 } },
    ]);

    const region = screen.getByRole('region', { name: 'Transaction list' });
    region.scrollTop = 1549; // 51 px from the bottom
    fireEvent.scroll(region);
    expect(requests).toHaveLength(1);

    region.scrollTop = 1550; // 50 px from the bottom
    fireEvent.scroll(region);
    expect(await screen.findByText('Loading more...')).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(40));
    expect(requests[1].paginator).toEqual({ page: 1, size: 20 });
    expect(screen.queryByText('No more data')).not.toBeInTheDocument();

    fireEvent.scroll(region);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(45));
    expect(requests[2].paginator).toEqual({ page: 2, size: 20 });
    expect(await screen.findByText('No more data')).toBeInTheDocument();

    fireEvent.scroll(region);
    expect(requests).toHaveLength(3);
  });

  it('loads the next page while the answer says hasNextPage (product §3 Pagination), not from count', async () => {
    const requests = serveRecords(25, { withoutCount: true });
    renderWallet(<TransactionList userId={USER_ID} cate={RecordCate.All} />);
    const list = await screen.findByRole('list', { name: 'Transactions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    const region = screen.getByRole('region', { name: 'Transaction list' });
    region.scrollTop = 1600;
    fireEvent.scroll(region);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(25));
    expect(requests.map((r) => r.paginator.page)).toEqual([0, 1]);
    expect(await screen.findByText('No more data')).toBeInTheDocument();
  });

  it('shows signed amounts, MM/dd/yyyy dates and status badges', async () => {
    server.use(
      on('/record/list', () =>
        ok({
          records: [
            record(1, { amount: '2500.00', status: RecordStatus.Success }),
            record(2, {
              type: RecordType.CashOut,
              direction: Direction.Outgoing,
              amount: '1000.00',
              status: RecordStatus.Pending,
            }),
            record(3, {
              type: RecordType.CashOut,
              direction: Direction.Outgoing,
              amount: '500.00',
              status: RecordStatus.Refunded,
            }),
            record(4, {
              type: RecordType.Purchase,
              direction: Direction.Outgoing,
              amount: '12.50',
              status: RecordStatus.Failure,
            }),
          ],
          count: 4,
        }),
      ),
    );
    renderWallet(<TransactionList userId={USER_ID} cate={RecordCate.All} />);
    const items = within(await screen.findByRole('list', { name: 'Transactions' })).getAllByRole('listitem');
    expect(items.map((li) => within(li).getByTestId('record-amount').textContent)).toEqual([
      '+2,500.00',
      '-1,000.00',
      '-500.00',
      '-12.50',
    ]);
    expect(within(items[0]!).getByText('Top-up')).toBeInTheDocument();
    expect(within(items[0]!).getByText('03/05/2026')).toBeInTheDocument();
    expect(within(items[0]!).getByText('Success')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Pending')).toBeInTheDocument();
    expect(within(items[2]!).getByText('Refunded')).toBeInTheDocument();
    expect(within(items[3]!).getByText('Failed')).toBeInTheDocument();
    expect(screen.getByText('No more data')).toBeInTheDocument();
  });

  it('shows the empty text of each category', async () => {
    serveRecords(0);
    mockWalletApi();
    const user = userEvent.setup();
    renderWallet(<BalanceDialog open onOpenChange={() => {}} userId={USER_ID} onTopUp={() => {}} onCashOut={() => {}} />);
    expect(await screen.findByText('Your transaction history will appear here.')).toBeInTheDocument();
    expect(screen.getByText('No transactions yet')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Incoming' }));
    expect(await screen.findByText('You have no incoming transactions. Try adding funds with Top-up.')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Outgoing' }));
    expect(await screen.findByText('You have no outgoing transactions yet.')).toBeInTheDocument();
  });

  it('names the collection of purchase, sale and refund rows, whole in the title when cut', async () => {
    const long = 'Brushes '.repeat(12).trim();
    server.use(
      on('/record/list', (body) =>
        ok({
          records: [
            record(1, { type: RecordType.Purchase, direction: Direction.Outgoing, collection: { id: 'c1', title: long } }),
            record(2, { type: RecordType.TopUp }),
          ],
          ...pageFields(body.paginator, 2),
        }),
      ),
    );
    mockWalletApi();
    renderWallet(<TransactionList userId={USER_ID} cate={RecordCate.All} />);
    const names = await screen.findAllByTestId('record-collection');
    expect(names).toHaveLength(1);
    expect(names[0]).toHaveTextContent(long);
    expect(names[0]).toHaveAttribute('title', long);
    expect(names[0]).toHaveClass('truncate');
  });

  it('names the filters in the empty text when statuses are picked too (Outgoing + Failed)', async () => {
    serveRecords(0);
    mockWalletApi();
    renderWallet(<TransactionList userId={USER_ID} cate={RecordCate.Outgoing} statusList={[RecordStatus.Failure]} />);
    expect(await screen.findByText('No failed outgoing transactions.')).toBeInTheDocument();
    expect(screen.getByText('No matching transactions')).toBeInTheDocument();
    expect(screen.queryByText('You have no outgoing transactions yet.')).not.toBeInTheDocument();
    expect(filteredEmptyText(RecordCate.All, [RecordStatus.Pending, RecordStatus.Success, RecordStatus.Refunded])).toBe(
      'No pending, successful or refunded transactions.',
    );
    expect(filteredEmptyText(RecordCate.Income, [RecordStatus.Success])).toBe('No successful incoming transactions.');
  });

  it('shows a load failure with a retry', async () => {
    server.use(on('/record/list', () => fail('Record list unavailable')));
    renderWallet(<TransactionList userId={USER_ID} cate={RecordCate.All} />);
    expect(await screen.findByText('Record list unavailable')).toBeInTheDocument();
    serveRecords(1);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Transactions' })).toBeInTheDocument();
  });
});

describe('balance modal', () => {
  it('shows the available balance and opens top-up and cash-out', async () => {
    serveRecords(0);
    mockWalletApi({ available: '1234.5' });
    const onTopUp = vi.fn();
    const onCashOut = vi.fn();
    renderWallet(<BalanceDialog open onOpenChange={() => {}} userId={USER_ID} onTopUp={onTopUp} onCashOut={onCashOut} />);
    await waitFor(() => expect(screen.getByTestId('available-balance')).toHaveTextContent('1,234.50'));
    await userEvent.click(screen.getByRole('button', { name: 'Top-up' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cash out' }));
    expect(onTopUp).toHaveBeenCalledOnce();
    expect(onCashOut).toHaveBeenCalledOnce();
  });

  it('opens the withdrawal detail from a cash-out row', async () => {
    mockWalletApi();
    server.use(
      on('/record/list', () =>
        ok({ records: [record(1, { type: RecordType.CashOut, direction: Direction.Outgoing, amount: '1000.00' })], count: 1 }),
      ),
      on('/withdraw/bill/detail', (b) => ok({ bill: withdrawBill({ id: b.bill_id, status: WithdrawStatus.Success }) })),
    );
    renderWallet(<BalanceDialog open onOpenChange={() => {}} userId={USER_ID} onTopUp={() => {}} onCashOut={() => {}} />);
    await userEvent.click(await screen.findByRole('button', { name: /^Cash out -1,000\.00 points/ }));
    const detail = await screen.findByRole('dialog', { name: 'Withdrawal details' });
    expect(await within(detail).findByText('Status: Completed')).toBeInTheDocument();
    expect(within(detail).getByText('10.00 USD')).toBeInTheDocument();
    expect(within(detail).getByText('9.00 USD')).toBeInTheDocument();
    expect(within(detail).getByText('USDT(TRX)')).toBeInTheDocument();
    expect(within(detail).getByText('-')).toBeInTheDocument(); // no memo
    expect(within(detail).getByText(BILL_ID)).toBeInTheDocument();
  });

  it('says Failed for a refunded withdrawal and shows its memo', async () => {
    mockWalletApi();
    server.use(
      on('/record/list', () =>
        ok({ records: [record(1, { type: RecordType.CashOut, direction: Direction.Outgoing })], count: 1 }),
      ),
      on('/withdraw/bill/detail', () => ok({ bill: withdrawBill({ status: WithdrawStatus.Refunded, memo: '42' }) })),
    );
    renderWallet(<BalanceDialog open onOpenChange={() => {}} userId={USER_ID} onTopUp={() => {}} onCashOut={() => {}} />);
    await userEvent.click(await screen.findByRole('button', { name: /^Cash out -/ }));
    const detail = await screen.findByRole('dialog', { name: 'Withdrawal details' });
    expect(await within(detail).findByText('Status: Failed')).toBeInTheDocument();
    expect(within(detail).getByText('42')).toBeInTheDocument();
  });

  it("shows 'Failed to fetch transaction details' and 'Unable to load order detail' when a bill cannot load", async () => {
    mockWalletApi();
    server.use(
      on('/record/list', () =>
        ok({ records: [record(1, { type: RecordType.CashOut, direction: Direction.Outgoing }), record(2)], count: 2 }),
      ),
      on('/withdraw/bill/detail', () => fail('Not found', 40400, 'NOT_FOUND'), 404),
      on('/deposit/bill/detail', () => fail('Not found', 40400, 'NOT_FOUND'), 404),
    );
    const user = userEvent.setup();
    renderWallet(<BalanceDialog open onOpenChange={() => {}} userId={USER_ID} onTopUp={() => {}} onCashOut={() => {}} />);
    await user.click(await screen.findByRole('button', { name: /^Cash out -/ }));
    expect(await screen.findByText('Failed to fetch transaction details')).toBeInTheDocument();
    // product §8: a 404 reads 'The requested resource was not found.' under the screen's own text.
    expect(screen.getByText('The requested resource was not found.')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Withdrawal details' })).not.toBeInTheDocument());
    await user.click(await screen.findByRole('button', { name: /^Top-up \+/ }));
    expect(await screen.findByText('Unable to load order detail')).toBeInTheDocument();
    expect(screen.getByText('The requested resource was not found.')).toBeInTheDocument();
    expect(screen.queryByText('Not found')).not.toBeInTheDocument();
  });

  it('opens the deposit bill from a top-up row', async () => {
    mockWalletApi();
    server.use(
      on('/record/list', () => ok({ records: [record(1, { status: RecordStatus.Pending })], count: 1 })),
      on('/deposit/bill/detail', () => ok({ bill: depositBill() })),
    );
    renderWallet(<BalanceDialog open onOpenChange={() => {}} userId={USER_ID} onTopUp={() => {}} onCashOut={() => {}} />);
    await userEvent.click(await screen.findByRole('button', { name: /^Top-up \+100\.00 points, Pending/ }));
    const detail = await screen.findByRole('dialog', { name: 'Top-up order' });
    expect(await within(detail).findByText('25.00000000 USDT')).toBeInTheDocument();
    expect(within(detail).getByRole('button', { name: 'Proceed to Pay' })).toBeInTheDocument();
    // Nothing arrived yet: no Received or Credited lines.
    expect(within(detail).queryByText('Received')).not.toBeInTheDocument();
  });

  it('shows what arrived and what was credited on a bill paid in part', async () => {
    mockWalletApi();
    server.use(
      on('/record/list', () => ok({ records: [record(1, { status: RecordStatus.Success })], count: 1 })),
      on('/deposit/bill/detail', () =>
        ok({ bill: depositBill({ status: DepositStatus.Success, paid_currency_amount: '4.00000000', credited_amount: '400.00' }) }),
      ),
    );
    renderWallet(<BalanceDialog open onOpenChange={() => {}} userId={USER_ID} onTopUp={() => {}} onCashOut={() => {}} />);
    await userEvent.click(await screen.findByRole('button', { name: /^Top-up \+100\.00 points/ }));
    const detail = await screen.findByRole('dialog', { name: 'Top-up order' });
    expect(await within(detail).findByText('4.00000000 USDT')).toBeInTheDocument();
    expect(within(detail).getByText('400.00 P-coin')).toBeInTheDocument();
  });
});

describe('transactions page', () => {
  it('loads the next page when the window is scrolled within 50 px of the bottom', async () => {
    mockWalletApi();
    const requests = serveRecords(25);
    vi.spyOn(document.documentElement, 'scrollHeight', 'get').mockReturnValue(3000);
    Object.defineProperty(window, 'innerHeight', { value: 800, configurable: true });
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true, writable: true });
    renderWallet(<TransactionsPage userId={USER_ID} />);
    const list = await screen.findByRole('list', { name: 'Transactions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    expect(requests).toHaveLength(1);
    Object.defineProperty(window, 'scrollY', { value: 2150, configurable: true, writable: true }); // 50 px left
    fireEvent.scroll(window);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(25));
    expect(requests[1].paginator).toEqual({ page: 1, size: 20 });
    expect(await screen.findByText('No more data')).toBeInTheDocument();
  });

  it('filters by direction and by the status chips', async () => {
    mockWalletApi();
    const requests = serveRecords(3);
    const user = userEvent.setup();
    renderWallet(<TransactionsPage userId={USER_ID} />);
    await screen.findByRole('list', { name: 'Transactions' });
    await user.click(screen.getByRole('tab', { name: 'Outgoing' }));
    await user.click(screen.getByRole('button', { name: 'Refunded' }));
    await user.click(screen.getByRole('button', { name: 'Pending' }));
    await waitFor(() =>
      expect(requests.at(-1).filter).toEqual({
        cate: 'RecordCateOutgoing',
        status_list: ['RecordStatusPending', 'RecordStatusRefunded'],
      }),
    );
    expect(screen.getByRole('button', { name: 'Pending' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'All statuses' }));
    await waitFor(() => expect(requests.at(-1).filter).toEqual({ cate: 'RecordCateOutgoing', status_list: [] }));
    expect(screen.getByRole('button', { name: 'Pending' })).toHaveAttribute('aria-pressed', 'false');
  });
});

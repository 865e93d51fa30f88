import { DepositStatus, pageFields, RecordStatus } from '@coffer/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/test/server';
import { BILL_ID, depositBill, fail, mockWalletApi, ok, on, record, renderWallet, USER_ID } from '../testing/wallet-test-utils';
import { TopUpDialog } from './top-up-dialog';
import { TransactionsPage } from './transactions-page';

function renderTopUp() {
  const onOpenChange = vi.fn();
  const view = renderWallet(<TopUpDialog open onOpenChange={onOpenChange} userId={USER_ID} />);
  return { ...view, onOpenChange, user: userEvent.setup() };
}

async function amountField() {
  return screen.findByLabelText('Amount (USDT)');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('top-up step 1', () => {
  it('picks USDT on the first network by default and shows what the amount buys', async () => {
    mockWalletApi();
    const { user } = renderTopUp();
    const dialog = await screen.findByRole('dialog', { name: 'Top-up' });
    expect(await within(dialog).findByRole('tab', { name: 'TRX' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByRole('radio', { name: 'USDT(TRX)' })).toHaveAttribute('aria-checked', 'true');
    expect(within(dialog).getByText('You will get: 0.00 points')).toBeInTheDocument();
    await screen.findByText('Minimum: 1 USDT');
    await user.type(await amountField(), '25');
    expect(screen.getByText('You will get: 2,500.00 points')).toBeInTheDocument();
  });

  it('defaults to the first token when a network has no USDT, and names the minimum in it', async () => {
    mockWalletApi();
    const { user } = renderTopUp();
    await user.click(await screen.findByRole('tab', { name: 'BTC' }));
    expect(screen.getByRole('radio', { name: 'BTC' })).toHaveAttribute('aria-checked', 'true');
    await screen.findByText('Minimum: 0.0001 BTC');
    await user.type(screen.getByLabelText('Amount (BTC)'), '0.00005');
    expect(screen.getByText('Minimum amount is 0.0001 BTC.')).toBeInTheDocument();
  });

  it('shows the three amount messages and keeps Continue disabled while the amount is invalid', async () => {
    mockWalletApi();
    const { user } = renderTopUp();
    const input = await amountField();
    await screen.findByText('Minimum: 1 USDT');
    const cont = screen.getByRole('button', { name: 'Continue' });

    await user.type(input, 'x');
    expect(screen.getByText('Please enter a valid amount.')).toBeInTheDocument();
    expect(cont).toBeDisabled();

    await user.clear(input);
    expect(screen.getByText('Please enter an amount.')).toBeInTheDocument();
    expect(cont).toBeDisabled();

    await user.type(input, '0');
    expect(screen.getByText('Please enter a valid amount.')).toBeInTheDocument();

    await user.clear(input);
    await user.type(input, '0.5');
    expect(screen.getByText('Minimum amount is 1 USDT.')).toBeInTheDocument();
    expect(cont).toBeDisabled();

    await user.clear(input);
    await user.type(input, '1');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(cont).toBeEnabled();
  });

  it('keeps Continue disabled while the minimum loads', async () => {
    mockWalletApi();
    server.use(
      on('/deposit/min-amount', async () => {
        await delay('infinite');
        return ok({});
      }),
    );
    const { user } = renderTopUp();
    await user.type(await amountField(), '25');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
  });

  it('sends the points with 2 decimals and the currency code, then shows Order Details', async () => {
    mockWalletApi();
    const sent: unknown[] = [];
    server.use(
      on('/deposit', (body) => {
        sent.push(body);
        return ok({ bill: depositBill() });
      }),
    );
    const { user } = renderTopUp();
    await screen.findByText('Minimum: 1 USDT');
    await user.type(await amountField(), '25');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const details = await screen.findByRole('dialog', { name: 'Order Details' });
    expect(sent).toEqual([{ amount: '2500.00', pay_currency: 'usdttrc20' }]);
    expect(await screen.findByText('Order created successfully')).toBeInTheDocument();
    expect(within(details).getByText('25.00 USD')).toBeInTheDocument();
    expect(within(details).getByText('≈ 2,500.00 P-coin')).toBeInTheDocument();
    expect(within(details).getByText('25.00000000 USDT')).toBeInTheDocument();
    expect(within(details).getByText('Processing')).toBeInTheDocument();
    expect(within(details).getByTestId('countdown')).toHaveTextContent(/^(30:00|29:5\d)$/);
    expect(within(details).getByText(BILL_ID)).toBeInTheDocument();
  });

  it('a double click on Continue creates one order, sent with an Idempotency-Key; a new amount gets a new key', async () => {
    mockWalletApi();
    const keys: (string | null)[] = [];
    server.use(
      http.post('*/api/uc/v1/account/deposit', async ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        await delay(50);
        return keys.length === 1
          ? HttpResponse.json(fail('Network hiccup', 10010, 'INTERNAL'), { status: 500 })
          : HttpResponse.json(ok({ bill: depositBill() }));
      }),
    );
    const { user } = renderTopUp();
    await screen.findByText('Minimum: 1 USDT');
    await user.type(await amountField(), '25');
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    // Two clicks in one task (a fast double click lands both before react-query re-renders).
    act(() => {
      fireEvent.click(continueButton);
      fireEvent.click(continueButton);
    });
    await waitFor(() => expect(continueButton).toBeEnabled());
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^"[0-9a-f-]{32,36}"$/);
    // The same amount again (the first answer was lost): the same key, so the server answers one bill.
    await user.click(continueButton);
    await screen.findByRole('dialog', { name: 'Order Details' });
    expect(keys).toEqual([keys[0], keys[0]]);
  });

  it('refreshes the incoming and all record lists when the order is created: the page shows its Pending row', async () => {
    mockWalletApi();
    let created = false;
    const asked: string[] = [];
    server.use(
      on('/deposit', () => {
        created = true;
        return ok({ bill: depositBill() });
      }),
      on('/record/list', (body) => {
        asked.push(body.filter.cate);
        const records = created ? [record(1, { status: RecordStatus.Pending })] : [];
        return ok({ records, ...pageFields(body.paginator, records.length) });
      }),
    );
    const user = userEvent.setup();
    const view = renderWallet(<TransactionsPage userId={USER_ID} />);
    expect(await screen.findByText('No transactions yet')).toBeInTheDocument();
    const invalidate = vi.spyOn(view.queryClient, 'invalidateQueries');
    await user.click(screen.getByRole('button', { name: 'Top-up' }));
    await screen.findByText('Minimum: 1 USDT');
    await user.type(await amountField(), '10');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('dialog', { name: 'Order Details' });
    const keys = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(keys).toContainEqual(['transactions', USER_ID, 'RecordCateIncome']);
    expect(keys).toContainEqual(['transactions', USER_ID, 'RecordCateAll']);
    // The page's list (behind the dialog) refetched and shows the new order's Pending row.
    await waitFor(() => expect(asked.length).toBeGreaterThan(1));
    const row = await screen.findByRole('button', { name: /^Top-up \+100\.00 points, Pending/, hidden: true });
    expect(row).toBeInTheDocument();
  });

  it("shows the server's message when the order cannot be created, else 'Failed to create order'", async () => {
    mockWalletApi();
    server.use(on('/deposit', () => fail('Amount is below the minimum'), 400));
    const { user } = renderTopUp();
    await screen.findByText('Minimum: 1 USDT');
    await user.type(await amountField(), '25');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Amount is below the minimum')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Top-up' })).toBeInTheDocument();

    server.use(on('/deposit', () => ok({ bill: {} })));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Failed to create order')).toBeInTheDocument();
  });
});

describe('top-up step 2', () => {
  async function toScanToPay(bill = depositBill()) {
    mockWalletApi();
    server.use(on('/deposit', () => ok({ bill })));
    const view = renderTopUp();
    await screen.findByText('Minimum: 1 USDT');
    await view.user.type(await amountField(), '25');
    await view.user.click(screen.getByRole('button', { name: 'Continue' }));
    await view.user.click(await screen.findByRole('button', { name: 'Proceed to Pay' }));
    await screen.findByRole('dialog', { name: 'Scan to Pay' });
    return view;
  }

  it('shows the pay amount, a 160 px QR code, the address with a copy button and the send-only warning', async () => {
    await toScanToPay();
    const pay = screen.getByRole('dialog', { name: 'Scan to Pay' });
    expect(within(pay).getByTestId('pay-amount')).toHaveTextContent('25.00000000 USDT');
    const qr = within(pay).getByTestId('deposit-qr');
    expect(qr).toHaveAttribute('width', '160');
    expect(qr).toHaveAttribute('height', '160');
    expect(within(pay).getByTestId('deposit-address')).toHaveTextContent(depositBill().address);
    expect(within(pay).getByText(/Send only USDT on the TRX network to this address/)).toBeInTheDocument();
    expect(within(pay).getByText('USDT(TRX)')).toBeInTheDocument();
    expect(within(pay).getByRole('button', { name: 'Copy address' })).toBeInTheDocument();
  });

  it('shows no memo for a rail without one', async () => {
    await toScanToPay();
    const pay = screen.getByRole('dialog', { name: 'Scan to Pay' });
    expect(within(pay).queryByTestId('deposit-memo')).toBeNull();
    expect(within(pay).queryByText(/cannot be matched/)).toBeNull();
  });

  it('shows the memo with a copy button and warns that a transfer without it cannot be matched (TON)', async () => {
    const bill = depositBill({ pay_currency: 'usdtton', network: 'TON', address: 'UQATsyHghvwwHUcuMQmy6xyMpRxFrUcPyibB4t9_VObGXBR5', extra_id: 'K7QX3MPA' });
    const { user } = await toScanToPay(bill);
    const pay = screen.getByRole('dialog', { name: 'Scan to Pay' });
    expect(within(pay).getByTestId('deposit-memo')).toHaveTextContent('K7QX3MPA');
    expect(within(pay).getByTestId('deposit-memo-warning')).toHaveTextContent(
      'Enter this memo as the comment of your transfer. A transfer without it cannot be matched to your order and will not be credited.',
    );
    expect(within(pay).getByText(/Send only USDT on the TON network to this address/)).toBeInTheDocument();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(pay).getByRole('button', { name: 'Copy memo' }));
    expect(await screen.findByText('Memo copied to clipboard')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('K7QX3MPA');
  });

  it("toasts 'Address copied to clipboard', or 'Failed to copy address'", async () => {
    const { user } = await toScanToPay();
    const writeText = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Copy address' }));
    expect(await screen.findByText('Address copied to clipboard')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(depositBill().address);
    await user.click(screen.getByRole('button', { name: 'Copy address' }));
    expect(await screen.findByText('Failed to copy address')).toBeInTheDocument();
  });

  it('goes back from Scan to Pay to Order Details, then to step 1', async () => {
    const { user } = await toScanToPay();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByRole('dialog', { name: 'Order Details' });
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByRole('dialog', { name: 'Top-up' });
    expect(screen.getByLabelText('Amount (USDT)')).toBeInTheDocument();
  });

  it("says 'Payment not completed yet' while the bill is processing", async () => {
    const { user } = await toScanToPay();
    server.use(on('/deposit/bill/detail', (b) => ok({ bill: depositBill({ id: b.bill_id }) })));
    await user.click(screen.getByRole('button', { name: 'Check Payment Status' }));
    expect(await screen.findByText('Payment not completed yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Check Payment Status' })).toBeEnabled();
  });

  it("says 'Failed to check status' when the check fails without a message", async () => {
    const { user } = await toScanToPay();
    server.use(on('/deposit/bill/detail', () => ({ code: 40000, msg: '' }), 400));
    await user.click(screen.getByRole('button', { name: 'Check Payment Status' }));
    expect(await screen.findByText('Failed to check status')).toBeInTheDocument();
  });

  it("turns green on success, toasts 'Payment confirmed', refreshes incoming and all lists and closes after 3 s", async () => {
    const view = await toScanToPay();
    const invalidate = vi.spyOn(view.queryClient, 'invalidateQueries');
    server.use(on('/deposit/bill/detail', (b) => ok({ bill: depositBill({ id: b.bill_id, status: DepositStatus.Success }) })));
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await view.user.click(screen.getByRole('button', { name: 'Check Payment Status' }));
    const confirmed = await screen.findByRole('button', { name: 'Payment Confirmed' });
    expect(confirmed.className).toMatch(/bg-emerald-600/);
    expect(await screen.findByText('Payment confirmed')).toBeInTheDocument();
    const keys = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(keys).toContainEqual(['transactions', USER_ID, 'RecordCateIncome']);
    expect(keys).toContainEqual(['transactions', USER_ID, 'RecordCateAll']);
    expect(view.onOpenChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(3000));
    expect(view.onOpenChange).toHaveBeenCalledWith(false);
  });

  it('in sandbox mode pays the bill with Simulate payment, then confirms it', async () => {
    const { user } = await toScanToPay();
    let paid = false;
    server.use(
      on('/api/dev/sandbox/pay', (b) => {
        paid = b.bill_id === BILL_ID;
        return ok({ bill: depositBill({ status: DepositStatus.Success }) });
      }),
      on('/deposit/bill/detail', () =>
        ok({ bill: depositBill({ status: paid ? DepositStatus.Success : DepositStatus.Processing }) }),
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Simulate payment' }));
    await screen.findByRole('button', { name: 'Payment Confirmed' });
    expect(paid).toBe(true);
  });

  it('hides Proceed to Pay for an expired order', async () => {
    mockWalletApi();
    server.use(on('/deposit', () => ok({ bill: depositBill({ status: DepositStatus.Expired }) })));
    const { user } = renderTopUp();
    await screen.findByText('Minimum: 1 USDT');
    await user.type(await amountField(), '25');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const details = await screen.findByRole('dialog', { name: 'Order Details' });
    expect(within(details).getByText('Order Expired')).toBeInTheDocument();
    expect(within(details).queryByRole('button', { name: 'Proceed to Pay' })).not.toBeInTheDocument();
    await waitFor(() => expect(within(details).getByTestId('countdown')).toHaveTextContent('-'));
  });
});

import { WithdrawStatus } from '@coffer/contract/constants';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '@/test/server';
import { fail, mockWalletApi, ok, on, renderWallet, TRON_ADDRESS, USER_ID, withdrawBill } from '../testing/wallet-test-utils';
import { CashOutDialog } from './cash-out-dialog';

const BSC_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

function renderCashOut() {
  const onOpenChange = vi.fn();
  const onSuccess = vi.fn();
  const view = renderWallet(<CashOutDialog open onOpenChange={onOpenChange} userId={USER_ID} onSuccess={onSuccess} />);
  return { ...view, onOpenChange, onSuccess, user: userEvent.setup() };
}

async function ready() {
  const dialog = await screen.findByRole('dialog', { name: 'Cash out' });
  await within(dialog).findByText(/1 USD = 100 P-coin/);
  return dialog;
}

describe('cash-out step 1', { timeout: 15_000 }, () => {
  it('offers only USDT networks and selects the first automatically', async () => {
    mockWalletApi();
    renderCashOut();
    const dialog = await ready();
    const tabs = within(dialog)
      .getAllByRole('tab')
      .map((t) => t.textContent);
    expect(tabs).toEqual(['TRX', 'BSC', 'TON', 'BROKEN']);
    expect(within(dialog).getByRole('tab', { name: 'TRX' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByLabelText('USDT(TRX) address')).toBeInTheDocument();
    expect(within(dialog).getByText('5,000.00 P-coin')).toBeInTheDocument();
  });

  it("says 'Insufficient balance' when amount x rate is above the available points", async () => {
    mockWalletApi({ available: '1500.00' });
    const { user } = renderCashOut();
    await ready();
    await user.type(screen.getByLabelText('Amount (USD)'), '15.01');
    expect(screen.getByText('Insufficient balance')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Amount (USD)'));
    await user.type(screen.getByLabelText('Amount (USD)'), '15');
    expect(screen.queryByText('Insufficient balance')).not.toBeInTheDocument();
  });

  it("says 'Minimum amount is 10 USD' above 0 and below the minimum", async () => {
    mockWalletApi();
    const { user } = renderCashOut();
    await ready();
    await user.type(screen.getByLabelText('Amount (USD)'), '9.99');
    expect(screen.getByText('Minimum amount is 10 USD')).toBeInTheDocument();
  });

  it('checks the address on blur: required, then the format with a toast', async () => {
    mockWalletApi();
    const { user } = renderCashOut();
    await ready();
    const address = screen.getByLabelText('USDT(TRX) address');
    await user.click(address);
    expect(screen.queryByText('Address required')).not.toBeInTheDocument();
    await user.tab();
    expect(screen.getByText('Address required')).toBeInTheDocument();
    await user.type(address, '0x1234');
    await user.tab();
    expect(within(screen.getByRole('dialog')).getByText('Invalid address format')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('Invalid address format')).toHaveLength(2)); // field + toast
    await user.clear(address);
    await user.type(address, TRON_ADDRESS);
    await user.tab();
    expect(screen.queryByText('Address required')).not.toBeInTheDocument();
    expect(within(screen.getByRole('dialog')).queryByText('Invalid address format')).not.toBeInTheDocument();
  });

  it('treats a broken wallet_regex as valid', async () => {
    mockWalletApi();
    const { user } = renderCashOut();
    await ready();
    await user.click(screen.getByRole('tab', { name: 'BROKEN' }));
    const address = await screen.findByLabelText('USDT(BROKEN) address');
    await user.type(address, 'whatever-address');
    await user.tab();
    expect(screen.queryByText('Invalid address format')).not.toBeInTheDocument();
  });

  it('asks for a memo only when the currency needs one, checked on blur', async () => {
    mockWalletApi();
    const { user } = renderCashOut();
    await ready();
    expect(screen.queryByLabelText('Memo')).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'TON' }));
    const memo = await screen.findByLabelText('Memo');
    await user.click(memo);
    await user.tab();
    expect(screen.getByText('Memo required')).toBeInTheDocument();
    await user.type(memo, 'abc');
    await user.tab();
    await waitFor(() => expect(screen.getAllByText('Invalid memo format')).toHaveLength(2)); // field + toast
    await user.clear(memo);
    await user.type(memo, '12345');
    await user.tab();
    expect(within(screen.getByRole('dialog')).queryByText('Invalid memo format')).not.toBeInTheDocument();
  });

  it('enables Continue only with a network, an amount at least the minimum within the balance and a valid address (and memo)', async () => {
    mockWalletApi();
    const { user } = renderCashOut();
    await ready();
    const cont = screen.getByRole('button', { name: 'Continue' });
    expect(cont).toBeDisabled();
    await user.type(screen.getByLabelText('Amount (USD)'), '10');
    expect(cont).toBeDisabled();
    await user.type(screen.getByLabelText('USDT(TRX) address'), 'T123');
    expect(cont).toBeDisabled();
    await user.clear(screen.getByLabelText('USDT(TRX) address'));
    await user.type(screen.getByLabelText('USDT(TRX) address'), TRON_ADDRESS);
    expect(cont).toBeEnabled();
    await user.clear(screen.getByLabelText('Amount (USD)'));
    await user.type(screen.getByLabelText('Amount (USD)'), '9');
    expect(cont).toBeDisabled();
    await user.clear(screen.getByLabelText('Amount (USD)'));
    await user.type(screen.getByLabelText('Amount (USD)'), '51');
    expect(cont).toBeDisabled(); // 5100 points > 5000 available

    await user.clear(screen.getByLabelText('Amount (USD)'));
    await user.type(screen.getByLabelText('Amount (USD)'), '10');
    await user.click(screen.getByRole('tab', { name: 'TON' }));
    await user.clear(screen.getByLabelText('USDT(TON) address'));
    await user.type(screen.getByLabelText('USDT(TON) address'), `UQ${'A'.repeat(46)}`);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await user.type(screen.getByLabelText('Memo'), '42');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  }, 20_000);

  it('estimates the fee by itself once the amount reaches the minimum (once per amount); Estimate fee asks again', async () => {
    mockWalletApi();
    const bodies: unknown[] = [];
    server.use(
      on('/withdraw/estimate/fee', (b) => {
        bodies.push(b);
        return ok({ result: { amount: '1000.00', fee: '1.00000000', fiat_equivalent: '1.00' } });
      }),
    );
    const { user } = renderCashOut();
    await ready();
    const estimate = screen.getByRole('button', { name: 'Estimate fee' });
    expect(estimate).toBeDisabled();
    await user.type(screen.getByLabelText('Amount (USD)'), '9');
    expect(estimate).toBeDisabled();
    expect(screen.getByText('Enter at least the minimum amount to estimate the fee.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Amount (USD)'));
    await user.type(screen.getByLabelText('Amount (USD)'), '10');
    // No click: the estimate comes by itself, once.
    const fee = await screen.findByTestId('fee-estimate');
    expect(bodies).toEqual([{ currency: 'usdttrc20', amount: '1000.00000000' }]);
    expect(within(fee).getByText('1.00 USD')).toBeInTheDocument();
    expect(within(fee).getByText('100.00')).toBeInTheDocument();
    expect(within(fee).getByText('900.00')).toBeInTheDocument();
    expect(screen.queryByText('Enter at least the minimum amount to estimate the fee.')).not.toBeInTheDocument();
    await user.click(estimate);
    await waitFor(() => expect(bodies).toHaveLength(2));
  });

  it("shows the server's message when the estimate fails, else 'Failed to estimate fee', in the fee box and a toast", async () => {
    mockWalletApi();
    let calls = 0;
    server.use(
      on(
        '/withdraw/estimate/fee',
        () => {
          calls += 1;
          return { code: 40000, msg: '' };
        },
        400,
      ),
    );
    const { user } = renderCashOut();
    await ready();
    await user.type(screen.getByLabelText('Amount (USD)'), '10');
    await waitFor(() => expect(screen.getAllByText('Failed to estimate fee')).toHaveLength(2));
    // A failed estimate is not retried by itself (no loop): Estimate fee asks again.
    expect(calls).toBe(1);
    server.use(on('/withdraw/estimate/fee', () => ({ code: 40000, msg: 'The network is busy' }), 400));
    await user.click(screen.getByRole('button', { name: 'Estimate fee' }));
    await waitFor(() => expect(screen.getAllByText('The network is busy')).toHaveLength(2));
  });

  it("a fixed address takes the stale 'Invalid address format' toast away", async () => {
    mockWalletApi();
    const { user } = renderCashOut();
    await ready();
    const address = screen.getByLabelText(/address$/);
    await user.type(address, 'not-an-address');
    await user.tab();
    await waitFor(() => expect(screen.getAllByText('Invalid address format')).toHaveLength(2));
    await user.clear(address);
    await user.paste('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8');
    // Well inside the toast's own 4 s: it leaves because the address changed.
    await waitFor(() => expect(screen.queryAllByText('Invalid address format')).toHaveLength(0), { timeout: 1500 });
  });

  it("another network takes the stale 'Invalid address format' toast away (it was about the old network's format)", async () => {
    mockWalletApi();
    const { user } = renderCashOut();
    await ready();
    const bscAddress = `0x${'ab'.repeat(20)}`;
    await user.click(screen.getByLabelText('USDT(TRX) address'));
    await user.paste(bscAddress);
    await user.tab();
    expect(await screen.findAllByText('Invalid address format')).toHaveLength(2); // field + toast
    await user.click(screen.getByRole('tab', { name: 'BSC' }));
    expect(await screen.findByLabelText('USDT(BSC) address')).toHaveValue(bscAddress);
    // Well inside the toast's own 4 s: it leaves because the network changed.
    await waitFor(() => expect(screen.queryAllByText('Invalid address format')).toHaveLength(0), { timeout: 1500 });
  });

  it("toasts 'Exchange rate not available. Please try again.' and reloads the rate when it is missing", async () => {
    mockWalletApi();
    let calls = 0;
    server.use(
      on(
        '/deposit/min-amount',
        () => {
          calls += 1;
          return fail('Provider unavailable', 50000, 'INTERNAL');
        },
        500,
      ),
    );
    const { user } = renderCashOut();
    await screen.findByRole('dialog', { name: 'Cash out' });
    await waitFor(() => expect(calls).toBe(1));
    await user.type(await screen.findByLabelText('Amount (USD)'), '12');
    await user.tab();
    expect(await screen.findByText('Exchange rate not available. Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(calls).toBe(2));
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
  });
});

describe('cash-out step 2', { timeout: 15_000 }, () => {
  async function toConfirm(
    createAnswer: () => unknown | Promise<unknown> = () => ok({ bill: withdrawBill() }),
    { waitForStep2 = true, twoFactor = false } = {},
  ) {
    mockWalletApi({ twoFactor });
    const created: unknown[] = [];
    server.use(
      on('/withdraw/create', async (b) => {
        created.push(b);
        return (await createAnswer()) as never;
      }),
    );
    const view = renderCashOut();
    await ready();
    await view.user.type(screen.getByLabelText('Amount (USD)'), '10');
    await view.user.type(screen.getByLabelText('USDT(TRX) address'), TRON_ADDRESS);
    await view.user.click(screen.getByRole('button', { name: 'Continue' }));
    if (waitForStep2) await screen.findByRole('dialog', { name: 'Confirm withdraw' });
    return { ...view, created };
  }

  it("creates the order with the amount in points (8 decimals) and shows 'Creating order...' until it exists", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const { created } = await toConfirm(async () => {
      await gate;
      return ok({ bill: withdrawBill() });
    });
    expect(screen.getByText('Creating order...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Login password'), 'Coffer#2026');
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    release();
    await screen.findByText('Receive amount');
    expect(screen.queryByText('Creating order...')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeEnabled();
    expect(created).toEqual([
      { currency: 'usdttrc20', amount: '1000.00000000', address: TRON_ADDRESS, network: 'TRX', memo: '', user_id: USER_ID },
    ]);
  });

  it("states the fixed display rate '1 USD = 1 USDT' by the USD amount and the USDT received (product §9), with '1 USD = 100 P-coin'", async () => {
    const { user } = await toConfirm();
    await screen.findByText('Receive amount');
    const step2 = screen.getByRole('dialog', { name: 'Confirm withdraw' });
    expect(within(step2).getByText('Rate')).toBeInTheDocument();
    expect(within(step2).getByText('1 USD = 1 USDT')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    const step1 = await screen.findByRole('dialog', { name: 'Cash out' });
    const hint = await within(step1).findByText(/1 USD = 100 P-coin/);
    expect(hint.textContent).toContain('1 USD = 1 USDT');
  });

  it("keeps Confirm disabled without a password and says 'Password required'", async () => {
    const { user } = await toConfirm();
    await screen.findByText('Receive amount');
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    await user.click(screen.getByLabelText('Login password'));
    await user.tab();
    expect(screen.getByText('Password required')).toBeInTheDocument();
  });

  it('goes Back to step 1 with what was typed', async () => {
    const { user } = await toConfirm();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByRole('dialog', { name: 'Cash out' });
    expect(screen.getByLabelText('Amount (USD)')).toHaveValue('10');
    expect(screen.getByLabelText('USDT(TRX) address')).toHaveValue(TRON_ADDRESS);
  });

  it("returns to step 1 with the server's message when the order cannot be created, else 'Failed to create withdraw order'", async () => {
    await toConfirm(() => fail('Invalid address format'), { waitForStep2: false });
    await screen.findByRole('dialog', { name: 'Cash out' });
    expect(await screen.findByText('Invalid address format')).toBeInTheDocument();

    server.use(on('/withdraw/create', () => ({ code: 40000, msg: '' }), 400));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Failed to create withdraw order')).toBeInTheDocument();
  }, 20_000);

  it('confirms with the MD5 of the password, invalidates the all and outgoing lists, closes and goes to /transactions', async () => {
    const view = await toConfirm();
    const confirmed: unknown[] = [];
    server.use(
      on('/withdraw/confirm', (b) => {
        confirmed.push(b);
        return ok({ bill: withdrawBill({ status: WithdrawStatus.Processing }) });
      }),
    );
    const invalidate = vi.spyOn(view.queryClient, 'invalidateQueries');
    await screen.findByText('Receive amount');
    await view.user.type(screen.getByLabelText('Login password'), 'Coffer#2026');
    await view.user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(view.onOpenChange).toHaveBeenCalledWith(false));
    // 054ccf... is the MD5 hex digest of 'Coffer#2026'
    expect(confirmed).toEqual([{ bill_id: withdrawBill().id, password: '054ccf585c9e088925abb2db78899549' }]);
    expect(view.onSuccess).toHaveBeenCalledWith(expect.objectContaining({ id: withdrawBill().id }));
    const keys = invalidate.mock.calls.map(([f]) => f?.queryKey);
    expect(keys).toContainEqual(['transactions', USER_ID, 'RecordCateAll']);
    expect(keys).toContainEqual(['transactions', USER_ID, 'RecordCateOutgoing']);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/transactions'));
  });

  it('asks for the two-factor code when two-factor sign-in is on, and sends it (product §26)', async () => {
    const view = await toConfirm(undefined, { twoFactor: true });
    const confirmed: unknown[] = [];
    server.use(
      on('/withdraw/confirm', (b) => {
        confirmed.push(b);
        return ok({ bill: withdrawBill({ status: WithdrawStatus.Processing }) });
      }),
    );
    await screen.findByText('Receive amount');
    await view.user.type(screen.getByLabelText('Login password'), 'Coffer#2026');
    const code = await screen.findByLabelText('Two-factor code');
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    await view.user.type(code, '123456');
    await view.user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(view.onOpenChange).toHaveBeenCalledWith(false));
    expect(confirmed).toEqual([{ bill_id: withdrawBill().id, password: '054ccf585c9e088925abb2db78899549', code: '123456' }]);
  });

  it('shows the code field when the server answers TWO_FACTOR_REQUIRED', async () => {
    const view = await toConfirm();
    server.use(
      on('/withdraw/confirm', () => ({ code: 10011, msg: 'Enter the 6-digit code from your authenticator app', reason: 'TWO_FACTOR_REQUIRED' }), 403),
    );
    await screen.findByText('Receive amount');
    await view.user.type(screen.getByLabelText('Login password'), 'Coffer#2026');
    await view.user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByLabelText('Two-factor code')).toBeInTheDocument();
    expect(screen.getByText('Enter the 6-digit code or a recovery code')).toBeInTheDocument();
    expect(view.onOpenChange).not.toHaveBeenCalled();
  });

  it('a wrong password shows under the password field, focused, as well as in a toast', async () => {
    const view = await toConfirm();
    server.use(on('/withdraw/confirm', () => fail('Incorrect password', 10003, 'INVALID_CREDENTIALS')));
    await screen.findByText('Receive amount');
    const field = screen.getByLabelText('Login password');
    await view.user.type(field, 'Wrong#2026');
    await view.user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription('Incorrect password');
    expect(field).toHaveFocus();
    await waitFor(() => expect(screen.getAllByText('Incorrect password')).toHaveLength(2));
    expect(view.onOpenChange).not.toHaveBeenCalled();
  });

  it("a wrong two-factor code shows under the code field, focused, not under the (right) password", async () => {
    const view = await toConfirm(undefined, { twoFactor: true });
    server.use(on('/withdraw/confirm', () => fail('Incorrect code', 10003, 'INVALID_CREDENTIALS')));
    await screen.findByText('Receive amount');
    const password = screen.getByLabelText('Login password');
    await view.user.type(password, 'Coffer#2026');
    const code = await screen.findByLabelText('Two-factor code');
    await view.user.type(code, '000000');
    await view.user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(code).toHaveAttribute('aria-invalid', 'true'));
    expect(code).toHaveAccessibleDescription('Incorrect code');
    expect(code).toHaveFocus();
    expect(password).not.toHaveAttribute('aria-invalid');
    expect(await screen.findAllByText('Incorrect code')).toHaveLength(2);
    expect(view.onOpenChange).not.toHaveBeenCalled();
  });

  it("shows the server's message when the confirm fails, else 'Confirm failed', and stays open", async () => {
    const view = await toConfirm();
    server.use(on('/withdraw/confirm', () => fail('Wrong password')));
    await screen.findByText('Receive amount');
    await view.user.type(screen.getByLabelText('Login password'), 'Wrong#2026');
    await view.user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Wrong password')).toBeInTheDocument();
    server.use(
      on('/withdraw/confirm', async () => {
        await delay(10);
        return { code: 40000, msg: '' };
      }),
    );
    await view.user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Confirm failed')).toBeInTheDocument();
    expect(view.onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByTestId('location')).toHaveTextContent('/');
  });
});

it('uses a BSC address on the BSC network', async () => {
  mockWalletApi();
  const { user } = renderCashOut();
  await ready();
  await user.click(screen.getByRole('tab', { name: 'BSC' }));
  await user.type(screen.getByLabelText('USDT(BSC) address'), BSC_ADDRESS);
  await user.tab();
  expect(screen.queryByText('Invalid address format')).not.toBeInTheDocument();
});

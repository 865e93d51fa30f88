import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { server } from '@/test/server';
import { mockWalletApi, ok, on, renderWallet, USER_ID } from '../testing/wallet-test-utils';
import { BalanceButton } from './balance-button';

describe('balance button', () => {
  it('opens the balance modal from the keyboard, then the top-up and cash-out modals one at a time', async () => {
    mockWalletApi({ available: '42.5' });
    server.use(on('/record/list', () => ok({ records: [], count: 0 })));
    const user = userEvent.setup();
    renderWallet(<BalanceButton userId={USER_ID} fallbackAvailable="0" />);
    const button = await screen.findByRole('button', { name: 'Balance: 42.50 points' });
    button.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Balance' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Top-up' }));
    expect(await screen.findByRole('dialog', { name: 'Top-up' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Balance' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(button);
    await user.click(await screen.findByRole('button', { name: 'Cash out' }));
    expect(await screen.findByRole('dialog', { name: 'Cash out' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(button).toHaveFocus());
  });

  it('shows frozen points and the pending sale proceeds with the date the next amount clears', async () => {
    mockWalletApi({ available: '42.5' });
    const clearsAt = new Date(2026, 11, 5, 12, 0).getTime();
    server.use(
      on('/assets', () => ok({ asset: { available: '42.50', freeze: '3.00', pending: '12.50', pending_clears_at: clearsAt } })),
      on('/record/list', () => ok({ records: [], count: 0 })),
    );
    const user = userEvent.setup();
    renderWallet(<BalanceButton userId={USER_ID} fallbackAvailable="0" />);
    await user.click(await screen.findByRole('button', { name: 'Balance: 42.50 points' }));
    const dialog = await screen.findByRole('dialog', { name: 'Balance' });
    expect(await within(dialog).findByTestId('pending-balance')).toHaveTextContent('12.50 P-coin · clears Dec 05, 2026');
    expect(within(dialog).getByText('Pending')).toBeInTheDocument();
    expect(within(dialog).getByText('Sale proceeds become available after a holding period.')).toBeInTheDocument();
    expect(within(dialog).getByTestId('frozen-balance')).toHaveTextContent('3.00 P-coin');
    expect(within(dialog).getByTestId('available-balance')).toHaveTextContent('42.50');
  });

  it('shows no frozen or pending line when both are zero (or the server does not send pending)', async () => {
    mockWalletApi({ available: '42.5' });
    server.use(
      on('/assets', () => ok({ asset: { available: '42.50', freeze: '0.00', pending: '0.00', pending_clears_at: null } })),
      on('/record/list', () => ok({ records: [], count: 0 })),
    );
    const user = userEvent.setup();
    renderWallet(<BalanceButton userId={USER_ID} fallbackAvailable="0" />);
    await user.click(await screen.findByRole('button', { name: 'Balance: 42.50 points' }));
    const dialog = await screen.findByRole('dialog', { name: 'Balance' });
    await waitFor(() => expect(within(dialog).getByTestId('available-balance')).toHaveTextContent('42.50'));
    expect(within(dialog).queryByText('Pending')).not.toBeInTheDocument();
    expect(within(dialog).queryByText('Frozen')).not.toBeInTheDocument();
    expect(within(dialog).queryByText('Sale proceeds become available after a holding period.')).not.toBeInTheDocument();
  });
});

import { screen, waitFor } from '@testing-library/react';
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
});

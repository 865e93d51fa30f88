import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { server } from '@/test/server';
import { fail, ok } from '@/test/render';
import { makeCollection, renderWithProviders } from '../test/helpers';
import { BuyButton, canAfford } from './buy-button';

const BUYER = '0190f3a2-0000-7000-8000-0000000000b0';
const collection = makeCollection({ title: 'Icons', amount: 250, status: 'Published' });
const order = (status: string) => ({ id: 'order-1', collection_id: collection.id, amount: 250, status, created_at: 1, paid_at: status === 'OrderStatusPaid' ? 2 : null });

/** Serves buy and pay; records the bodies. */
function serveBuy({ buyStatus = 'OrderStatusPending', pay = () => HttpResponse.json(ok(order('OrderStatusPaid'))) }: { buyStatus?: string; pay?: () => Response | Promise<Response> } = {}) {
  const calls: { path: string; body: unknown }[] = [];
  server.use(
    http.post('*/sl/v1/collection/buy', async ({ request }) => {
      calls.push({ path: 'buy', body: await request.json() });
      return HttpResponse.json(ok(order(buyStatus)));
    }),
    http.post('*/api/uc/v1/account/order/pay', async ({ request }) => {
      calls.push({ path: 'pay', body: await request.json() });
      return pay();
    }),
  );
  return calls;
}

describe('BuyButton states', () => {
  test('a visitor gets Log in to buy, linking to /login', () => {
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: null }} purchased={false} />, { path: `/collection/${collection.id}` });
    expect(screen.getByRole('link', { name: 'Log in to buy' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  test('the owner and a buyer who owns it get no button', () => {
    const { unmount } = renderWithProviders(<BuyButton collection={collection} viewer={{ id: collection.owner_id, available: '1000' }} purchased={false} />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    unmount();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  test('an unpublished collection is not for sale', () => {
    renderWithProviders(<BuyButton collection={{ ...collection, status: 'Created' }} viewer={{ id: BUYER, available: '1000' }} purchased={false} />);
    expect(screen.getByRole('button', { name: 'Not for sale' })).toBeDisabled();
  });

  test('confirmation shows price, balance and balance after; Confirm runs collection/buy then order/pay', async () => {
    const calls = serveBuy();
    const user = userEvent.setup();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} />);
    await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm purchase' });
    expect(within(dialog).getByText('Price').nextSibling).toHaveTextContent('250 Points');
    expect(within(dialog).getByText('Your balance').nextSibling).toHaveTextContent('1,000.00 Points');
    expect(within(dialog).getByText('Balance after').nextSibling).toHaveTextContent('750.00 Points');
    expect(within(dialog).queryByText('Insufficient balance')).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Confirm purchase' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([
      { path: 'buy', body: { collection_id: collection.id } },
      { path: 'pay', body: { order_id: 'order-1' } },
    ]);
    expect(await screen.findByText('Purchase successful! Your files are ready to download.')).toBeInTheDocument();
  });

  test('the Confirm button shows progress and the dialog stays while paying', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    serveBuy({ pay: async () => (await gate, HttpResponse.json(ok(order('OrderStatusPaid')))) });
    const user = userEvent.setup();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} />);
    await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
    const confirm = within(screen.getByRole('dialog')).getByRole('button', { name: /Confirm purchase/ });
    await user.click(confirm);
    await waitFor(() => expect(confirm).toHaveAttribute('aria-busy', 'true'));
    expect(confirm).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    release();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test('an order the server answers as paid already is not paid again', async () => {
    const calls = serveBuy({ buyStatus: 'OrderStatusPaid' });
    const user = userEvent.setup();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} />);
    await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm purchase' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.map((c) => c.path)).toEqual(['buy']);
  });

  test('too few points: Insufficient balance, no Confirm, and Top up hands over to the wallet', async () => {
    const calls = serveBuy();
    const onTopUp = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '100.5' }} purchased={false} onTopUp={onTopUp} />);
    await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Insufficient balance')).toBeInTheDocument();
    expect(within(dialog).getByText('Balance after').nextSibling).toHaveTextContent('-149.50 Points');
    expect(within(dialog).queryByRole('button', { name: 'Confirm purchase' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Top up' }));
    expect(onTopUp).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  test('a server INSUFFICIENT_BALANCE answer turns the dialog into the Top up offer', async () => {
    serveBuy({ pay: () => HttpResponse.json(fail(10007, 'Insufficient balance', 'INSUFFICIENT_BALANCE'), { status: 409 }) });
    const user = userEvent.setup();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} onTopUp={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm purchase' }));
    expect(await within(screen.getByRole('dialog')).findByText('Insufficient balance')).toBeInTheDocument();
    expect(within(screen.getByRole('dialog')).getByRole('button', { name: 'Top up' })).toBeEnabled();
  });

  test('a free collection reads Get for free', () => {
    renderWithProviders(<BuyButton collection={{ ...collection, amount: 0 }} viewer={{ id: BUYER, available: '0' }} purchased={false} />);
    expect(screen.getByRole('button', { name: 'Get for free' })).toBeEnabled();
  });

  test('canAfford compares decimal strings and lets the server decide when the balance is unknown', () => {
    expect(canAfford('250.00', 250)).toBe(true);
    expect(canAfford('249.99', 250)).toBe(false);
    expect(canAfford(null, 250)).toBe(true);
    expect(canAfford(undefined, 250)).toBe(true);
  });
});

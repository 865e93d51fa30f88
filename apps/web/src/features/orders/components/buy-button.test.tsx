import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order } from '@coffer/contract';
import { HttpResponse } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { apiFailure, mockApi, type MockAnswer } from '@/test/mock-api';
import { server } from '@/test/server';
import { hashPassword } from '@/lib/md5';
import { makeCollection, renderWithProviders } from '@/test/helpers';
import { BuyButton, BuyTexts, canAfford } from './buy-button';

const BUYER = '0190f3a2-0000-7000-8000-0000000000b0';
const collection = makeCollection({ title: 'Icons', amount: 250, status: 'Published' });
const order = (status: Order['status'], amount = 250): Order => ({
  id: 'order-1',
  collection_id: collection.id,
  amount,
  status,
  created_at: 1,
  paid_at: status === 'OrderStatusPaid' ? 2 : null,
});

type Answer = () => MockAnswer<'orderPay'> | Promise<MockAnswer<'orderPay'>>;

/**
 * Serves buy and pay; records the bodies. `quotes`: the amounts collection/buy answers in turn (the
 * last one repeats); `pays`: pay's answers in turn (the last one repeats).
 */
function serveBuy({
  buyStatus = 'OrderStatusPending',
  quotes = [250],
  pays = [() => order('OrderStatusPaid')],
  pay,
}: { buyStatus?: Order['status']; quotes?: number[]; pays?: Answer[]; pay?: Answer } = {}) {
  const calls: { path: string; body: unknown }[] = [];
  let q = 0;
  let p = 0;
  server.use(
    mockApi('collectionBuy', ({ body }) => {
      calls.push({ path: 'buy', body });
      return order(buyStatus, quotes[Math.min(q++, quotes.length - 1)]);
    }),
    mockApi('orderPay', ({ body }) => {
      calls.push({ path: 'pay', body });
      return (pay ?? pays[Math.min(p++, pays.length - 1)]!)();
    }),
  );
  return calls;
}

/** The dialog's Confirm button once the quote is in. */
async function enabledConfirm() {
  const button = within(screen.getByRole('dialog', { name: 'Confirm purchase' })).getByRole('button', {
    name: 'Confirm purchase',
  });
  await waitFor(() => expect(button).toBeEnabled());
  return button;
}

describe('BuyButton states', () => {
  test('a visitor gets Log in to buy, linking to /login', () => {
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: null }} purchased={false} />, {
      path: `/collection/${collection.id}`,
    });
    expect(screen.getByRole('link', { name: 'Log in to buy' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  test('the owner and a buyer who owns it get no button', () => {
    const { unmount } = renderWithProviders(
      <BuyButton collection={collection} viewer={{ id: collection.owner_id, available: '1000' }} purchased={false} />,
    );
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    unmount();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  test('a refunded buyer sees that the purchase was refunded, not a Buy that cannot succeed', () => {
    renderWithProviders(
      <BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} refunded />,
    );
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(BuyTexts.refunded);
    expect(screen.getByRole('status')).toHaveTextContent(BuyTexts.refundedHelp);
  });

  test('a double click on Confirm pays once, with an Idempotency-Key that a retry of the same order reuses', async () => {
    const keys: (string | null)[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    serveBuy();
    server.use(
      mockApi('orderPay', async ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        await gate;
        return keys.length === 1
          ? apiFailure(10010, 'Server error', 'INTERNAL', 500)
          : order('OrderStatusPaid');
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} />);
    await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
    const confirm = await enabledConfirm();
    // Two clicks in one task (a fast double click lands both before react-query re-renders).
    act(() => {
      fireEvent.click(confirm);
      fireEvent.click(confirm);
    });
    release();
    await waitFor(() => expect(confirm).toBeEnabled());
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^"[0-9a-f-]{32,36}"$/);
    // The first answer was lost (500): Confirm again sends the same key, so the server answers the first result.
    await user.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(keys).toEqual([keys[0], keys[0]]);
  });

  test('an unpublished collection is not for sale', () => {
    renderWithProviders(
      <BuyButton collection={{ ...collection, status: 'Created' }} viewer={{ id: BUYER, available: '1000' }} purchased={false} />,
    );
    expect(screen.getByRole('button', { name: 'Not for sale' })).toBeDisabled();
  });

  test('the dialog quotes the order and shows its own amount; Confirm pays it with that amount', async () => {
    // The page still lists 250, the order is quoted at 240 (the price of now): the dialog shows 240.
    const calls = serveBuy({ quotes: [240] });
    const user = userEvent.setup();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} />);
    await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm purchase' });
    await waitFor(() => expect(within(dialog).getByText('Price').nextSibling).toHaveTextContent('240 Points'));
    expect(within(dialog).getByText('Your balance').nextSibling).toHaveTextContent('1,000.00 Points');
    expect(within(dialog).getByText('Balance after').nextSibling).toHaveTextContent('760.00 Points');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(BuyTexts.priceChanged);
    expect(within(dialog).queryByText('Insufficient balance')).not.toBeInTheDocument();
    expect(calls).toEqual([{ path: 'buy', body: { collection_id: collection.id } }]);

    await user.click(within(dialog).getByRole('button', { name: 'Confirm purchase' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([
      { path: 'buy', body: { collection_id: collection.id } },
      { path: 'pay', body: { order_id: 'order-1', amount: 240 } },
    ]);
    expect(await screen.findByText('Purchase successful! Your files are ready to download.')).toBeInTheDocument();
  });

  test('Confirm waits for the quote: disabled with a placeholder until the order is there', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    server.use(mockApi('collectionBuy', async () => (await gate, order('OrderStatusPending'))));
    const user = userEvent.setup();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} />);
    await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Confirm purchase' })).toBeDisabled();
    expect(within(dialog).getAllByRole('status', { name: 'Getting the price' }).length).toBeGreaterThan(0);
    release();
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Confirm purchase' })).toBeEnabled());
    expect(within(dialog).getByText('Price').nextSibling).toHaveTextContent('250 Points');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  test('the dialog closes with Escape while the quote is still out (a quote moves nothing)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    server.use(mockApi('collectionBuy', async () => (await gate, order('OrderStatusPending'))));
    const user = userEvent.setup();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} />);
    await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
    expect(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm purchase' })).toBeDisabled();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    release();
    // Opened again, it quotes afresh and can be confirmed.
    await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
    await waitFor(() => expect(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm purchase' })).toBeEnabled());
  });

  test('the Confirm button shows progress and the dialog stays while paying', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    serveBuy({ pay: async () => (await gate, order('OrderStatusPaid')) });
    const user = userEvent.setup();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} />);
    await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
    const confirm = within(screen.getByRole('dialog')).getByRole('button', { name: /Confirm purchase/ });
    await waitFor(() => expect(confirm).toBeEnabled());
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
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('You own this collection')).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toEqual(['buy']);
  });

  test('too few points: Insufficient balance, no Confirm, and Top up hands over to the wallet', async () => {
    const calls = serveBuy();
    const onTopUp = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(
      <BuyButton collection={collection} viewer={{ id: BUYER, available: '100.5' }} purchased={false} onTopUp={onTopUp} />,
    );
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
    serveBuy({ pay: () => apiFailure(10007, 'Insufficient balance', 'INSUFFICIENT_BALANCE', 409) });
    const user = userEvent.setup();
    renderWithProviders(
      <BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} onTopUp={() => {}} />,
    );
    await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
    await user.click(await enabledConfirm());
    expect(await within(screen.getByRole('dialog')).findByText('Insufficient balance')).toBeInTheDocument();
    expect(within(screen.getByRole('dialog')).getByRole('button', { name: 'Top up' })).toBeEnabled();
  });

  test('a free collection reads Get for free', () => {
    renderWithProviders(
      <BuyButton collection={{ ...collection, amount: 0 }} viewer={{ id: BUYER, available: '0' }} purchased={false} />,
    );
    expect(screen.getByRole('button', { name: 'Get for free' })).toBeEnabled();
  });

  test('canAfford compares decimal strings and lets the server decide when the balance is unknown', () => {
    expect(canAfford('250.00', 250)).toBe(true);
    expect(canAfford('249.99', 250)).toBe(false);
    expect(canAfford(null, 250)).toBe(true);
    expect(canAfford(undefined, 250)).toBe(true);
  });
});

const stepUp = (method: 'password' | 'code') => () =>
  HttpResponse.json(
    {
      code: 10013,
      msg: method === 'password' ? BuyTexts.stepUpPassword : BuyTexts.stepUpCode,
      reason: 'STEP_UP_REQUIRED',
      data: { method },
    },
    { status: 403 },
  );
const paid =
  (amount = 250) =>
  () =>
    order('OrderStatusPaid', amount);
const FORBIDDEN_TEXT = 'You do not have permission to perform this action.';

async function openDialog() {
  const user = userEvent.setup();
  renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} />);
  await user.click(screen.getByRole('button', { name: 'Buy for 250 Points' }));
  return { user, dialog: screen.getByRole('dialog', { name: 'Confirm purchase' }) };
}

describe('step-up for spending (STEP_UP_REQUIRED)', () => {
  test('a fresh session pays with nothing more: no field is shown or sent', async () => {
    const calls = serveBuy();
    const { user, dialog } = await openDialog();
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();
    await user.click(await enabledConfirm());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === 'pay')).toEqual([{ path: 'pay', body: { order_id: 'order-1', amount: 250 } }]);
  });

  test("'password': the field appears with why, no 403 toast, and Confirm sends the MD5 digest", async () => {
    const calls = serveBuy({ pays: [stepUp('password'), paid()] });
    const { user, dialog } = await openDialog();
    await user.click(await enabledConfirm());
    const field = await within(dialog).findByLabelText('Password');
    expect(within(dialog).getByText(BuyTexts.stepUpPassword)).toBeInTheDocument();
    expect(field).toHaveFocus();
    expect(field).toHaveAccessibleDescription(BuyTexts.stepUpPassword);
    expect(screen.queryByText(FORBIDDEN_TEXT)).not.toBeInTheDocument();

    // An empty field is not sent.
    await user.click(within(dialog).getByRole('button', { name: 'Confirm purchase' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(BuyTexts.passwordRequired);
    expect(calls.filter((c) => c.path === 'pay')).toHaveLength(1);

    await user.type(field, 'correct horse{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === 'pay').map((c) => c.body)).toEqual([
      { order_id: 'order-1', amount: 250 },
      { order_id: 'order-1', amount: 250, password: await hashPassword('correct horse') },
    ]);
    expect(screen.queryByText(FORBIDDEN_TEXT)).not.toBeInTheDocument();
  });

  test('a wrong password shows the server msg under the field and keeps the dialog open', async () => {
    const calls = serveBuy({
      pays: [
        stepUp('password'),
        () => apiFailure(10003, 'Incorrect password', 'INVALID_CREDENTIALS', 400),
        paid(),
      ],
    });
    const { user, dialog } = await openDialog();
    await user.click(await enabledConfirm());
    await user.type(await within(dialog).findByLabelText('Password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm purchase' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Incorrect password');
    expect(within(dialog).getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'Confirm purchase' })).toBeInTheDocument();
    expect(screen.queryByText('Failed to buy the collection')).not.toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), 'right');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm purchase' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === 'pay')).toHaveLength(3);
  });

  test("'code': the two-factor field appears and Confirm sends the code; a wrong code shows its own msg", async () => {
    const calls = serveBuy({
      pays: [
        stepUp('code'),
        () => apiFailure(10003, 'Invalid two-factor code', 'INVALID_CREDENTIALS', 400),
        paid(),
      ],
    });
    const { user, dialog } = await openDialog();
    await user.click(await enabledConfirm());
    const field = await within(dialog).findByLabelText('Two-factor code');
    expect(within(dialog).getByText(BuyTexts.stepUpCode)).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.queryByText(FORBIDDEN_TEXT)).not.toBeInTheDocument();

    await user.type(field, '000000{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Invalid two-factor code');
    await user.clear(field);
    await user.type(field, ' 123456 ');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm purchase' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === 'pay').map((c) => c.body)).toEqual([
      { order_id: 'order-1', amount: 250 },
      { order_id: 'order-1', amount: 250, code: '000000' },
      { order_id: 'order-1', amount: 250, code: '123456' },
    ]);
  });

  test('Confirm cannot be sent twice while a pay is in flight', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const calls = serveBuy({ pay: async () => (await gate, paid()()) });
    const { user } = await openDialog();
    const confirm = await enabledConfirm();
    await user.click(confirm);
    await user.click(confirm);
    await user.keyboard('{Enter}');
    release();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === 'pay')).toHaveLength(1);
  });
});

describe('the price the buyer saw (PRICE_CHANGED, ORDER_EXPIRED)', () => {
  test('PRICE_CHANGED: quotes again, shows the new amount with a notice, and pays only on a new Confirm', async () => {
    const calls = serveBuy({
      quotes: [250, 300],
      pays: [() => apiFailure(10014, BuyTexts.priceChanged, 'PRICE_CHANGED', 409), paid(300)],
    });
    const { user, dialog } = await openDialog();
    await user.click(await enabledConfirm());
    await waitFor(() => expect(within(dialog).getByText('Price').nextSibling).toHaveTextContent('300 Points'));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(BuyTexts.priceChanged);
    expect(within(dialog).getByText('Balance after').nextSibling).toHaveTextContent('700.00 Points');
    expect(screen.queryByText('Failed to buy the collection')).not.toBeInTheDocument();
    // Nothing is paid without the buyer's new click.
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.map((c) => c.path)).toEqual(['buy', 'pay', 'buy']);

    await user.click(await enabledConfirm());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === 'pay').map((c) => c.body)).toEqual([
      { order_id: 'order-1', amount: 250 },
      { order_id: 'order-1', amount: 300 },
    ]);
  });

  test("ORDER_EXPIRED: quotes again and says 'Order Expired'; the buyer confirms again", async () => {
    const calls = serveBuy({
      pays: [() => apiFailure(10015, 'Order Expired', 'ORDER_EXPIRED', 409), paid()],
    });
    const { user, dialog } = await openDialog();
    await user.click(await enabledConfirm());
    expect(await within(dialog).findByText('Order Expired')).toBeInTheDocument();
    await user.click(await enabledConfirm());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.map((c) => c.path)).toEqual(['buy', 'pay', 'buy', 'pay']);
  });

  test('a price change after a right password asks no password again: the session stepped up', async () => {
    const calls = serveBuy({
      quotes: [250, 300],
      pays: [
        stepUp('password'),
        () => apiFailure(10014, BuyTexts.priceChanged, 'PRICE_CHANGED', 409),
        paid(300),
      ],
    });
    const { user, dialog } = await openDialog();
    await user.click(await enabledConfirm());
    await user.type(await within(dialog).findByLabelText('Password'), 'right{Enter}');
    expect(await within(dialog).findByText(BuyTexts.priceChanged)).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();
    await user.click(await enabledConfirm());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === 'pay').map((c) => c.body)).toEqual([
      { order_id: 'order-1', amount: 250 },
      { order_id: 'order-1', amount: 250, password: await hashPassword('right') },
      { order_id: 'order-1', amount: 300 },
    ]);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import { describe, expect, test } from 'vitest';
import { server } from '@/test/server';
import { fail, ok } from '@/test/render';
import { renderWithProviders } from '@/test/helpers';
import { RefundDialog, type RefundTarget } from './refund-dialog';

const target: RefundTarget = { orderId: 'order-1', title: 'Icons', amount: 25 };
const order = (status: string, extra: object = {}) => ({
  id: 'order-1',
  collection_id: 'c-1',
  amount: 25,
  status,
  created_at: 1,
  paid_at: 2,
  ...extra,
});

/** A trigger button and the dialog, as the screens use it. */
function Harness({ mode }: { mode: 'request' | 'refund' }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <RefundDialog mode={mode} target={target} open={open} onOpenChange={setOpen} />
    </>
  );
}

function serve(path: string, answer: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.post(`*/api/uc/v1/account/${path}`, async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

describe('RefundDialog', () => {
  test('keyboard only: the reason is focused, a blank reason is refused, Enter submits, the toast says it was refunded', async () => {
    const bodies = serve('order/refund/request', () => HttpResponse.json(ok(order('OrderStatusRefunded'))));
    const user = userEvent.setup();
    renderWithProviders(<Harness mode="request" />);
    await user.tab();
    await user.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'Request refund' });
    const reason = within(dialog).getByRole('textbox', { name: 'Reason' });
    expect(reason).toHaveFocus();

    await user.tab();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Request refund' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText('Please give a reason')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    await user.click(reason);
    await user.keyboard('The files are broken');
    await user.click(within(dialog).getByRole('button', { name: 'Request refund' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([{ order_id: 'order-1', reason: 'The files are broken' }]);
    expect(await screen.findByText('Refunded. The points are back in your balance.')).toBeInTheDocument();
  });

  test('a request that waits for the seller says so', async () => {
    serve('order/refund/request', () =>
      HttpResponse.json(ok(order('OrderStatusPaid', { refund_request: { reason: 'x', requested_at: 3 } }))),
    );
    const user = userEvent.setup();
    renderWithProviders(<Harness mode="request" />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'x');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Request refund' }));
    expect(await screen.findByText('Refund requested. The seller will review it.')).toBeInTheDocument();
  });

  test('Escape closes without a call and focus returns to the trigger', async () => {
    const bodies = serve('order/refund/request', () => HttpResponse.json(ok(order('OrderStatusRefunded'))));
    const user = userEvent.setup();
    renderWithProviders(<Harness mode="request" />);
    const trigger = screen.getByRole('button', { name: 'Open' });
    await user.click(trigger);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(trigger).toHaveFocus();
    expect(bodies).toHaveLength(0);
  });

  test("the seller's refund needs no reason; a short balance keeps the dialog open with the server's message", async () => {
    const bodies = serve('order/refund', () =>
      HttpResponse.json(fail(10007, 'Your available balance is too low to refund this order.', 'INSUFFICIENT_BALANCE'), {
        status: 409,
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<Harness mode="refund" />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund order' });
    expect(within(dialog).getByRole('textbox', { name: 'Reason (optional)' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Refund 25 Points' }));
    expect(await screen.findByText('Your available balance is too low to refund this order.')).toBeInTheDocument();
    expect(bodies).toEqual([{ order_id: 'order-1' }]);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import toast, { Toaster } from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { setAccessToken } from '@/lib/storage';
import { server } from '@/test/server';
import { describeEvent, EventsPage, EventTexts } from './events-page';

const ok = (data: unknown) => ({ code: 10000, msg: 'success', data });
const on = (path: string, answer: (body: any) => JsonBodyType, status = 200) =>
  http.post(`*/api/uc/v1/account${path}`, async ({ request }) => HttpResponse.json(answer(await request.json()), { status }));

const sale = (i: number) => ({
  id: `evt_${String(i).padStart(32, '0')}`,
  type: 'sale',
  created_at: 1_767_225_600_000 + i * 1000,
  data: { order_id: `o${i}`, collection_id: 'c1', buyer_id: 'b1', amount: 10, earned: '9.50', fee: '0.50' },
});
const delivery = (i: number, status: 'pending' | 'delivered' | 'failed') => ({
  event_id: sale(i).id,
  event_type: 'sale',
  status,
  attempts: status === 'failed' ? 8 : 1,
  last_response_code: status === 'delivered' ? 204 : 500,
  last_error: status === 'delivered' ? null : 'HTTP 500',
  next_attempt_at: status === 'pending' ? 1_767_225_700_000 : null,
  created_at: 1_767_225_600_000,
  updated_at: 1_767_225_600_000,
});

function renderPage() {
  toast.remove();
  setAccessToken('test-token');
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <EventsPage />
      <Toaster />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  server.use(
    on('/webhook/get', () => ok({ endpoint: { url: null, has_secret: false, updated_at: null } })),
    on('/webhook/deliveries', () => ok({ deliveries: [], has_more: false })),
  );
});

describe('Events & webhooks', () => {
  it('pages the feed by cursor with Load more', async () => {
    const cursors: (string | undefined)[] = [];
    server.use(
      on('/events/list', (b) => {
        cursors.push(b.cursor);
        return b.cursor
          ? ok({ events: [sale(21)], next_cursor: 'c2', has_more: false })
          : ok({ events: Array.from({ length: 20 }, (_, i) => sale(i + 1)), next_cursor: 'c1', has_more: true });
      }),
    );
    renderPage();
    const list = await screen.findByRole('list', { name: 'Events' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    expect(within(list).getAllByText('Sale: 9.50 points earned')).toHaveLength(20);
    await userEvent.click(screen.getByRole('button', { name: EventTexts.loadMore }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(21));
    expect(cursors).toEqual([undefined, 'c1']);
    expect(screen.queryByRole('button', { name: EventTexts.loadMore })).not.toBeInTheDocument();
  });

  it('shows the empty states, and an error with Try again', async () => {
    let fail = true;
    server.use(
      on('/events/list', () =>
        fail ? { code: 10001, msg: 'Server busy', reason: 'INTERNAL' } : ok({ events: [], next_cursor: 'c0', has_more: false }),
      ),
    );
    renderPage();
    expect(await screen.findByText(EventTexts.deliveriesEmptyTitle)).toBeInTheDocument();
    const alert = await screen.findByRole('alert');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: EventTexts.retry }));
    expect(await screen.findByText(EventTexts.feedEmptyTitle)).toBeInTheDocument();
  });

  it('saves the URL, shows the first secret once with a copy button, and shows a refusal under the field', async () => {
    server.use(
      on('/events/list', () => ok({ events: [], next_cursor: 'c0', has_more: false })),
      on('/webhook/set', (b) =>
        b.url.startsWith('https://')
          ? ok({ endpoint: { url: b.url, has_secret: true, updated_at: 1 }, secret: 'whsec_c2VjcmV0' })
          : { code: 10002, msg: 'The URL must start with https://', reason: 'VALIDATION_FAILED' },
      ),
    );
    renderPage();
    const field = await screen.findByLabelText(EventTexts.urlLabel);
    await userEvent.type(field, 'http://example.com/h');
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('The URL must start with https://')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, 'https://example.com/h{Enter}');
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_c2VjcmV0');
    expect(screen.getByText(EventTexts.secretOnce)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    expect(await screen.findByText(EventTexts.saved)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: EventTexts.rotate })).toBeInTheDocument();
  });

  it('says when deliveries were turned off after 24 h of failures, and not otherwise', async () => {
    server.use(
      on('/events/list', () => ok({ events: [], next_cursor: 'c0', has_more: false })),
      on('/webhook/get', () =>
        ok({ endpoint: { url: 'https://example.com/h', has_secret: true, updated_at: 1, disabled_at: 1_700_000_000_000 } }),
      ),
    );
    renderPage();
    expect(await screen.findByText(EventTexts.disabled)).toBeInTheDocument();
  });

  it('rotates the secret only after a confirmation; Cancel rotates nothing', async () => {
    let rotations = 0;
    server.use(
      on('/events/list', () => ok({ events: [], next_cursor: 'c0', has_more: false })),
      on('/webhook/get', () => ok({ endpoint: { url: 'https://example.com/h', has_secret: true, updated_at: 1 } })),
      on('/webhook/secret/rotate', () => {
        rotations += 1;
        return ok({ secret: 'whsec_bmV3' });
      }),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: EventTexts.rotate }));
    const dialog = await screen.findByRole('dialog', { name: EventTexts.rotateConfirmTitle });
    expect(dialog).toHaveTextContent(EventTexts.rotateConfirmBody);
    await userEvent.click(within(dialog).getByRole('button', { name: EventTexts.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(rotations).toBe(0);
    await userEvent.click(screen.getByRole('button', { name: EventTexts.rotate }));
    const again = await screen.findByRole('dialog', { name: EventTexts.rotateConfirmTitle });
    await userEvent.click(within(again).getByRole('button', { name: EventTexts.rotateConfirm }));
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_bmV3');
    expect(rotations).toBe(1);
  });

  it('the rotate confirmation works from the keyboard: Enter opens it, Escape cancels and gives focus back', async () => {
    let rotations = 0;
    server.use(
      on('/events/list', () => ok({ events: [], next_cursor: 'c0', has_more: false })),
      on('/webhook/get', () => ok({ endpoint: { url: 'https://example.com/h', has_secret: true, updated_at: 1 } })),
      on('/webhook/secret/rotate', () => {
        rotations += 1;
        return ok({ secret: 'whsec_bmV3' });
      }),
    );
    renderPage();
    const user = userEvent.setup();
    const rotate = await screen.findByRole('button', { name: EventTexts.rotate });
    rotate.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: EventTexts.rotateConfirmTitle });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(rotate).toHaveFocus();
    expect(rotations).toBe(0);
    await user.keyboard('{Enter}');
    const again = await screen.findByRole('dialog', { name: EventTexts.rotateConfirmTitle });
    within(again).getByRole('button', { name: EventTexts.rotateConfirm }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_bmV3');
    expect(rotations).toBe(1);
  });

  it('lists deliveries with their status and redelivers one', async () => {
    const redelivered: string[] = [];
    server.use(
      on('/events/list', () => ok({ events: [sale(1), sale(2)], next_cursor: 'c', has_more: false })),
      on('/webhook/deliveries', () => ok({ deliveries: [delivery(2, 'failed'), delivery(1, 'delivered')], has_more: false })),
      on('/webhook/redeliver', (b) => {
        redelivered.push(b.event_id);
        return ok({ delivery: { ...delivery(2, 'pending') } });
      }),
    );
    renderPage();
    const list = await screen.findByRole('list', { name: 'Deliveries' });
    expect(within(list).getByText('Failed')).toBeInTheDocument();
    expect(within(list).getByText('Delivered')).toBeInTheDocument();
    expect(within(list).getByText(/Attempts: 8 · Last response: 500/)).toBeInTheDocument();
    await userEvent.click(within(list).getByRole('button', { name: `${EventTexts.redeliver} ${sale(2).id}` }));
    expect(await screen.findByText(EventTexts.redelivered)).toBeInTheDocument();
    expect(redelivered).toEqual([sale(2).id]);
  });

  it('switches the signature scheme to Ed25519 and shows the public key with copy; rotating the key shows the new one', async () => {
    const sets: unknown[] = [];
    let endpoint: Record<string, unknown> = { url: 'https://example.com/h', has_secret: true, updated_at: 1, signing: 'hmac', public_key: null };
    server.use(
      on('/events/list', () => ok({ events: [], next_cursor: 'c0', has_more: false })),
      on('/webhook/get', () => ok({ endpoint })),
      on('/webhook/set', (b) => {
        sets.push(b);
        endpoint = { ...endpoint, signing: b.signing, public_key: 'whpk_b25lb25lb25lb25lb25lb25lb25lb25lb25lb25lb24=' };
        return ok({ endpoint });
      }),
      on('/webhook/signing-key/rotate', () => {
        endpoint = { ...endpoint, public_key: 'whpk_dHdvdHdvdHdvdHdvdHdvdHdvdHdvdHdvdHdvdHdvdHc=' };
        return ok({ endpoint });
      }),
    );
    renderPage();
    const group = await screen.findByRole('group', { name: EventTexts.schemeLabel });
    expect(within(group).getByRole('radio', { name: EventTexts.schemeHmac })).toBeChecked();
    expect(screen.queryByTestId('webhook-public-key')).not.toBeInTheDocument();
    await userEvent.click(within(group).getByRole('radio', { name: EventTexts.schemeEd25519 }));
    expect(await screen.findByTestId('webhook-public-key')).toHaveTextContent('whpk_b25lb25l');
    expect(sets).toEqual([{ url: 'https://example.com/h', signing: 'ed25519' }]);
    expect(screen.getByRole('button', { name: 'Copy public key' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: EventTexts.rotateKey }));
    const dialog = await screen.findByRole('dialog', { name: EventTexts.rotateKeyConfirmTitle });
    await userEvent.click(within(dialog).getByRole('button', { name: EventTexts.rotateKey }));
    await waitFor(() => expect(screen.getByTestId('webhook-public-key')).toHaveTextContent('whpk_dHdvdHdv'));
  });

  it('summarises a payout broadcast with its network', () => {
    expect(
      describeEvent({
        id: 'evt_2',
        type: 'payout.status',
        created_at: 1,
        data: { status: 'WithdrawStatusProcessing', tx_status: 'broadcast', amount: '20.00', network: 'TRX' },
      }),
    ).toBe('Cash-out broadcast: 20.00 points on TRX');
  });

  it('summarises a refund event with the points returned by the seller', () => {
    expect(describeEvent({ id: 'evt_1', type: 'refund', created_at: 1, data: { earned: '18.00', amount: 20 } })).toBe(
      'Refund: 18.00 points returned',
    );
  });
});

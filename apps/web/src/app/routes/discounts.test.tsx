/**
 * Discount codes and licence keys on the web (product §28): the buy dialog's "Have a code?" field
 * (preview, discounted price, buys with the code, a refused code's message), the Discount codes
 * screen (list, the New code modal by keyboard, its validation, disable), and the licence key cell
 * with its copy button.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { server } from '@/test/server';
import { fail, ok } from '@/test/render';
import { makeCollection, renderWithProviders } from '@/test/helpers';
import { BuyButton } from '@/features/orders/components/buy-button';
import { getDiscountPreview } from '@/features/discounts/api/discount-preview';
import { CollectionPage } from './collection';
import { SellerDiscountCodes } from './discount-codes';
import { OrderLicenceCell } from '@/components/ui/orders-table';

const BUYER = '0190f3a2-0000-7000-8000-0000000000b0';
const SELLER = '0190f3a2-0000-7000-8000-0000000000c0';
const collection = makeCollection({ title: 'Icons', amount: 99, status: 'Published' });

const page = (codes: unknown[]) => ({
  codes,
  page: 0,
  size: 10,
  totalCount: codes.length,
  totalPages: 1,
  hasNextPage: false,
  count: codes.length,
});
const code = (over: Record<string, unknown> = {}) => ({
  id: '0190f3a2-0000-7000-8000-0000000000d1',
  code: 'SPRING15',
  kind: 'percent',
  value: 15,
  collection_id: null,
  expires_at: null,
  max_uses: 10,
  uses: 3,
  once_per_buyer: false,
  active: true,
  disabled_at: null,
  created_at: 1,
  ...over,
});

describe('Have a code? in the buy dialog', () => {
  test('applies a code: list price, discount and what to pay; Confirm buys with the code', async () => {
    const calls: { path: string; body: unknown }[] = [];
    server.use(
      http.post('*/sl/v1/discount/preview', async ({ request }) => {
        const body = (await request.json()) as { code: string };
        calls.push({ path: 'preview', body });
        return body.code === 'SPRING15'
          ? HttpResponse.json(ok({ code: 'SPRING15', list_price: 99, discount: 14, amount: 85 }))
          : HttpResponse.json(fail(10001, 'This code is not valid for this collection', 'VALIDATION_FAILED'), { status: 400 });
      }),
      http.post('*/sl/v1/collection/buy', async ({ request }) => {
        const body = (await request.json()) as { code?: string };
        calls.push({ path: 'buy', body });
        // The order is quoted at the list price, then re-quoted with the code once it is applied.
        const priced = body.code ? { amount: 85, list_price: 99, discount: 14 } : { amount: 99, list_price: 99, discount: 0 };
        return HttpResponse.json(
          ok({ id: 'o1', collection_id: collection.id, ...priced, status: 'OrderStatusPending', created_at: 1, paid_at: null }),
        );
      }),
      http.post('*/api/uc/v1/account/order/pay', async ({ request }) => {
        calls.push({ path: 'pay', body: await request.json() });
        return HttpResponse.json(
          ok({ id: 'o1', collection_id: collection.id, amount: 85, status: 'OrderStatusPaid', created_at: 1, paid_at: 2 }),
        );
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} previewDiscount={getDiscountPreview} />);
    await user.click(screen.getByRole('button', { name: 'Buy for 99 Points' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm purchase' });
    await user.click(within(dialog).getByRole('button', { name: 'Have a code?' }));
    const field = within(dialog).getByLabelText('Discount code');
    await user.type(field, 'nope{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This code is not valid for this collection');
    expect(field).toHaveAttribute('aria-invalid', 'true');

    await user.clear(field);
    await user.type(field, 'spring15');
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText('You pay')).toBeInTheDocument();
    expect(within(dialog).getByText('Price').nextSibling).toHaveTextContent('99 Points');
    expect(within(dialog).getByText('Discount (SPRING15)').nextSibling).toHaveTextContent('−14 Points');
    expect(within(dialog).getByText('You pay').nextSibling).toHaveTextContent('85 Points');
    expect(within(dialog).getByText('Balance after').nextSibling).toHaveTextContent('915.00 Points');

    const confirm = within(dialog).getByRole('button', { name: 'Confirm purchase' });
    await waitFor(() => expect(confirm).toBeEnabled());
    await user.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path !== 'preview')).toEqual([
      { path: 'buy', body: { collection_id: collection.id } },
      { path: 'buy', body: { collection_id: collection.id, code: 'SPRING15' } },
      { path: 'pay', body: { order_id: 'o1', amount: 85 } },
    ]);
  });

  test('a shared link code starts applied and the button shows the discounted price', async () => {
    server.use(
      http.post('*/sl/v1/discount/preview', () =>
        HttpResponse.json(ok({ code: 'HALF', list_price: 99, discount: 49, amount: 50 })),
      ),
    );
    renderWithProviders(
      <BuyButton collection={collection} viewer={{ id: BUYER, available: '1000' }} purchased={false} initialCode="half" previewDiscount={getDiscountPreview} />,
    );
    expect(await screen.findByRole('button', { name: 'Buy for 50 Points' })).toBeInTheDocument();
  });
});

describe('a ?code= link on the detail page', () => {
  const seller = { id: SELLER, username: 'mira', nickname: 'Studio Mira', avatar: '', created_at: 1 };
  const detail = () =>
    server.use(
      http.post('*/sl/v1/collection/detail', () =>
        HttpResponse.json(ok({ collection: { ...collection, owner_id: SELLER }, resources: [], seller, purchased: false })),
      ),
      // The detail page lists the reviews below the files.
      mockApi('reviewList', { reviews: [], page: 0, size: 10, totalCount: 0, totalPages: 0, hasNextPage: false, count: 0, mine: null, can_review: false }),
    );

  test('shows the discounted price, the list price struck through, and buys for the discounted price', async () => {
    detail();
    server.use(
      http.post('*/sl/v1/discount/preview', () =>
        HttpResponse.json(ok({ code: 'HALF', list_price: 99, discount: 49, amount: 50 })),
      ),
    );
    renderWithProviders(<CollectionPage id={collection.id} viewer={{ id: BUYER, available: '1000' }} />, {
      path: `/collection/${collection.id}?code=half`,
    });
    expect(await screen.findByText('Code HALF: 49 Points off')).toBeInTheDocument();
    expect(screen.getByText('50 Points')).toBeInTheDocument();
    expect(screen.getByText('99 Points', { selector: 's' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Buy for 50 Points' })).toBeInTheDocument();
  });

  test('a refused code says why and keeps the list price', async () => {
    detail();
    server.use(
      http.post('*/sl/v1/discount/preview', () =>
        HttpResponse.json(fail(10009, 'This code has expired', 'CONFLICT'), { status: 409 }),
      ),
    );
    renderWithProviders(<CollectionPage id={collection.id} viewer={{ id: BUYER, available: '1000' }} />, {
      path: `/collection/${collection.id}?code=OLD`,
    });
    expect(await screen.findByText('Code OLD: This code has expired')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy for 99 Points' })).toBeInTheDocument();
  });
});

describe('Discount codes screen', () => {
  function serveCodes(initial: unknown[]) {
    let codes = initial;
    const bodies: unknown[] = [];
    server.use(
      http.post('*/sl/v1/discount/list', () => HttpResponse.json(ok(page(codes)))),
      http.post('*/sl/v1/my/collections', () =>
        HttpResponse.json(
          ok({ collections: [collection], page: 0, size: 100, totalCount: 1, totalPages: 1, hasNextPage: false, count: 1 }),
        ),
      ),
      http.post('*/sl/v1/discount/create', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push(body);
        const created = code({
          id: '0190f3a2-0000-7000-8000-0000000000d2',
          code: body.code,
          kind: body.kind,
          value: body.value,
          collection_id: body.collection_id,
          uses: 0,
          max_uses: body.max_uses,
        });
        codes = [created, ...codes];
        return HttpResponse.json(ok(created));
      }),
      http.post('*/sl/v1/discount/disable', async ({ request }) => {
        const { discount_id } = (await request.json()) as { discount_id: string };
        codes = codes.map((c) =>
          (c as { id: string }).id === discount_id ? { ...(c as object), disabled_at: 5, active: false } : c,
        );
        return HttpResponse.json(ok(codes[0]));
      }),
    );
    return bodies;
  }

  test('lists codes with discount, uses and status; disables one', async () => {
    serveCodes([code()]);
    const user = userEvent.setup();
    renderWithProviders(<SellerDiscountCodes userId={SELLER} />);
    const row = await screen.findByTestId('discount-row');
    expect(row).toHaveTextContent('SPRING15');
    expect(row).toHaveTextContent('15%');
    expect(row).toHaveTextContent('All your collections');
    expect(row).toHaveTextContent('3 / 10');
    expect(row).toHaveTextContent('Active');
    await user.click(within(row).getByRole('button', { name: 'Disable code SPRING15' }));
    await waitFor(() => expect(screen.getByTestId('discount-row')).toHaveTextContent('Disabled'));
  });

  test('creates a code from the keyboard-usable modal; checks the fields before sending', async () => {
    const bodies = serveCodes([]);
    const user = userEvent.setup();
    renderWithProviders(<SellerDiscountCodes userId={SELLER} />);
    expect(await screen.findByText('No discount codes yet')).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'New code' })[0]!);
    const dialog = screen.getByRole('dialog', { name: 'New code' });
    await user.type(within(dialog).getByLabelText('Code'), 'bad code');
    await user.type(within(dialog).getByLabelText('Percent off (1-100)'), '150{Enter}');
    expect(within(dialog).getByText('A code may use letters, digits, - and _ only')).toBeInTheDocument();
    expect(within(dialog).getByText('A percent discount is at most 100')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Code'));
    await user.type(within(dialog).getByLabelText('Code'), 'icons10');
    await user.click(within(dialog).getByLabelText('Points off'));
    const value = within(dialog).getByLabelText('Points off (whole points)');
    await user.clear(value);
    await user.type(value, '10');
    await user.selectOptions(within(dialog).getByLabelText('Applies to'), collection.id);
    await user.type(within(dialog).getByLabelText('Total uses (optional)'), '5');
    await user.click(within(dialog).getByLabelText('One use per buyer'));
    await user.click(within(dialog).getByRole('button', { name: 'Create code' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([
      {
        code: 'ICONS10',
        kind: 'fixed',
        value: 10,
        collection_id: collection.id,
        expires_at: null,
        max_uses: 5,
        once_per_buyer: true,
      },
    ]);
    const row = await screen.findByTestId('discount-row');
    expect(row).toHaveTextContent('ICONS10');
    expect(within(row).getByRole('button', { name: 'Copy link with code ICONS10' })).toBeInTheDocument();
  });
});

describe('OrderLicenceCell', () => {
  const renderCell = (order: { licence_key?: string | null; licence_revoked?: boolean }) =>
    renderWithProviders(
      <table>
        <tbody>
          <tr>
            <OrderLicenceCell order={order} />
          </tr>
        </tbody>
      </table>,
    );

  test('shows the key with a copy button, revoked keys struck through, and a dash without one', () => {
    const { unmount } = renderCell({ licence_key: 'ABCDE-FGHJK-LMNPQ-RSTUV', licence_revoked: false });
    expect(screen.getByText('ABCDE-FGHJK-LMNPQ-RSTUV')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy licence key' })).toBeInTheDocument();
    unmount();
    const second = renderCell({ licence_key: 'ABCDE-FGHJK-LMNPQ-RSTUV', licence_revoked: true });
    expect(screen.getByText('(revoked)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy licence key' })).not.toBeInTheDocument();
    second.unmount();
    renderCell({});
    expect(screen.getByLabelText('No licence key')).toBeInTheDocument();
  });
});

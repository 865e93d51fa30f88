import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { server } from '@/test/server';
import { fail, ok } from '@/test/render';
import { makeCollection, renderWithProviders } from '@/test/helpers';
import { CreateCollectionForm } from './create-collection-form';

const collection = makeCollection({ title: 'Field kit', desc: 'Notes and footage', amount: 250 });

describe('Edit collection (the create form with editing)', () => {
  test('starts from the collection, sends only collection/update, toasts and goes back to the collection', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('*/sl/v1/collection/update', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        return HttpResponse.json(ok({ ...collection, title: body.title, amount: body.amount }));
      }),
    );
    const user = userEvent.setup();
    const { router } = renderWithProviders(<CreateCollectionForm editing={collection} />, {
      path: `/collection/${collection.id}/edit`,
    });
    expect(screen.getByRole('heading', { name: 'Edit collection' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Field kit');
    expect(screen.getByLabelText('Description')).toHaveValue('Notes and footage');
    expect(screen.getByLabelText('Price (points)')).toHaveValue('250');
    expect(screen.queryByRole('button', { name: 'Publish' })).not.toBeInTheDocument();
    expect(screen.queryByText('Files', { selector: 'h2' })).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Field kit 2');
    await user.clear(screen.getByLabelText('Price (points)'));
    await user.type(screen.getByLabelText('Price (points)'), '300{Enter}');
    expect(await screen.findByText('Collection updated successfully!')).toBeInTheDocument();
    expect(sent).toEqual([{ collection_id: collection.id, title: 'Field kit 2', desc: 'Notes and footage', amount: 300 }]);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/collection/${collection.id}`));
  });

  test('checks the fields with the create rules before sending anything', async () => {
    let calls = 0;
    server.use(
      http.post('*/sl/v1/collection/update', () => {
        calls++;
        return HttpResponse.json(ok(collection));
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<CreateCollectionForm editing={collection} />);
    await user.clear(screen.getByLabelText('Title'));
    await user.clear(screen.getByLabelText('Price (points)'));
    await user.type(screen.getByLabelText('Price (points)'), '1.5');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('Price must be a whole number of points')).toBeInTheDocument();
    expect(calls).toBe(0);
    // Submitted from the bottom: the first field with an error (the title, above the price) gets the focus.
    await waitFor(() => expect(screen.getByLabelText('Title')).toHaveFocus());
  });

  test('a refused save shows the server message and stays on the form', async () => {
    server.use(
      http.post('*/sl/v1/collection/update', () =>
        HttpResponse.json(fail(10004, 'You do not have permission to perform this action.', 'FORBIDDEN'), { status: 403 }),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<CreateCollectionForm editing={collection} />);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeEnabled();
  });
});

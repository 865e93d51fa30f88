import type { Resource } from '@coffer/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { makeCollection, renderWithProviders } from '@/features/collections/test/helpers';
import type { UploadTransport } from '@/features/uploads/api/uploads';
import { UploadQueue } from '@/features/uploads/lib/upload-queue';
import { ok } from '@/test/render';
import { server } from '@/test/server';
import { UploadPage } from './upload';

const created = makeCollection({ title: 'Field kit', status: 'Created', amount: 40 });
const resource: Resource = { id: '0190f3a2-0000-7000-8000-0000000000f1', collection_id: null, name: 'notes.txt', size: 10, md5: 'a'.repeat(32), content_type: 'text/plain', created_at: 1, version: 1, updated_at: null, preview: false };

let completed = 0;
const transport: UploadTransport = {
  startSingle: async () => ({ upload_id: 'u1', url: 'https://storage/put' }),
  startMultipart: vi.fn(),
  partUrl: vi.fn(),
  listParts: vi.fn(),
  // The first file is `resource`; later ones get ids of their own.
  complete: async () => (completed++ === 0 ? resource : { ...resource, id: `${resource.id.slice(0, -2)}${String(completed).padStart(2, '0')}` }),
  put: async (_u, body, o) => (o.onProgress?.(body.size), '"etag"'),
};
const makeQueue = () => new UploadQueue({ transport, hashWhole: async () => 'a'.repeat(32), sleep: async () => {} });

function serveCreate() {
  const calls: { path: string; body: unknown }[] = [];
  const record = (path: string, data: unknown) =>
    http.post(`*/sl/v1${path}`, async ({ request }) => {
      calls.push({ path, body: await request.json() });
      return HttpResponse.json(ok(data));
    });
  server.use(
    record('/collection/create', created),
    record('/collection/resource/add', { ...resource, collection_id: created.id }),
    record('/collection/publish', { ...created, status: 'Published' }),
  );
  return calls;
}

function renderForm() {
  return renderWithProviders(<UploadPage makeQueue={makeQueue} />, { path: '/upload', routePath: '/upload' });
}

async function fill(user: ReturnType<typeof userEvent.setup>, { title = 'Field kit', price = '40' } = {}) {
  if (title) await user.type(screen.getByLabelText('Title'), title);
  await user.type(screen.getByLabelText('Description'), 'Notes');
  if (price) await user.type(screen.getByLabelText('Price (points)'), price);
}

describe('Create collection', () => {
  test('checks title, price and, to publish, at least one file; nothing is sent', async () => {
    const calls = serveCreate();
    const user = userEvent.setup();
    renderForm();
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('Price is required')).toBeInTheDocument();
    expect(screen.getByText('Add at least one file to publish')).toBeInTheDocument();

    await fill(user, { price: '12.5' });
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(screen.getByText('Price must be a whole number of points')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  test('a banner that is not an image or above 5 MB is refused before upload', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderForm();
    await user.upload(screen.getByLabelText('Banner image'), new File(['x'], 'notes.pdf', { type: 'application/pdf' }));
    expect(screen.getByText('Images must be PNG, JPEG, WebP or GIF')).toBeInTheDocument();
    await user.upload(screen.getByLabelText('Banner image'), new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(screen.getByText('Images must be 5 MB or smaller')).toBeInTheDocument();
  });

  test('Publish creates, attaches the uploaded file, publishes, toasts both and opens the collection', async () => {
    const calls = serveCreate();
    const user = userEvent.setup();
    const { router } = renderWithProviders(<UploadPage makeQueue={makeQueue} />, { path: '/upload', routePath: '*' });
    await fill(user);
    await user.upload(screen.getByLabelText('Choose files'), new File(['0123456789'], 'notes.txt', { type: 'text/plain' }));
    await screen.findByText('1 of 1 file uploaded');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/collection/${created.id}`));
    expect(calls).toEqual([
      { path: '/collection/create', body: { title: 'Field kit', desc: 'Notes', amount: 40 } },
      { path: '/collection/resource/add', body: { collection_id: created.id, resource_id: resource.id } },
      { path: '/collection/publish', body: { collection_id: created.id } },
    ]);
    expect(await screen.findByText('Collection created successfully!')).toBeInTheDocument();
    expect(await screen.findByText('Collection updated successfully!')).toBeInTheDocument();
  });

  test('Save as draft creates a Draft and attaches without publishing', async () => {
    const calls = serveCreate();
    const user = userEvent.setup();
    const { router } = renderWithProviders(<UploadPage makeQueue={makeQueue} />, { path: '/upload', routePath: '*' });
    await fill(user);
    await user.upload(screen.getByLabelText('Choose files'), new File(['0123456789'], 'notes.txt', { type: 'text/plain' }));
    await user.click(screen.getByRole('button', { name: 'Save as draft' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/collection/${created.id}`));
    expect(calls.map((c) => c.path)).toEqual(['/collection/create', '/collection/resource/add']);
    expect(calls[0]!.body).toEqual({ title: 'Field kit', desc: 'Notes', amount: 40, draft: true });
  });

  test('six good files and an empty one: nothing is created until the empty one is removed, then one outcome with six files', async () => {
    completed = 1;
    const calls = serveCreate();
    const user = userEvent.setup();
    const { router } = renderWithProviders(<UploadPage makeQueue={makeQueue} />, { path: '/upload', routePath: '*' });
    await fill(user);
    const good = Array.from({ length: 6 }, (_, i) => new File(['0123456789'], `file-${i}.txt`, { type: 'text/plain' }));
    await user.upload(screen.getByLabelText('Choose files'), [...good, new File([], 'empty.txt', { type: 'text/plain' })]);
    await screen.findByText('6 of 7 files uploaded');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Some files did not upload. Retry or remove them, then try again.')).toBeInTheDocument();
    expect(calls).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Remove empty.txt' }));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/collection/${created.id}`));
    expect(calls.filter((c) => c.path === '/collection/create')).toHaveLength(1);
    const added = calls.filter((c) => c.path === '/collection/resource/add').map((c) => (c.body as { resource_id: string }).resource_id);
    expect(new Set(added).size).toBe(6);
    // One outcome: success, and the refusal shown before is gone (toasts of earlier tests share the toaster).
    expect((await screen.findAllByText('Collection created successfully!')).length).toBeGreaterThan(0);
    expect(screen.queryByText(/did not upload/)).not.toBeInTheDocument();
  });
});

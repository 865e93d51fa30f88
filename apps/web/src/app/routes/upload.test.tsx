import type { Resource } from '@coffer/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { makeCollection, renderWithProviders } from '@/test/helpers';
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

/**
 * A transport that knows each file by name: its resource id ends with the file's number
 * ('file-3.txt' -> ...0103); `hold(name)` keeps that file's PUT open until `release(name)`;
 * `failing` names fail their PUT every time.
 */
function namedTransport({ failing = [] as string[] } = {}) {
  const held = new Map<string, () => void>();
  const waiting = new Set<string>();
  const idOf = (name: string) => `0190f3a2-0000-7000-8000-0000000001${name.replace(/\D/g, '').padStart(2, '0')}`;
  const t: UploadTransport = {
    startSingle: async (body) => ({ upload_id: body.file_name, url: `https://storage/${body.file_name}` }),
    startMultipart: vi.fn(),
    partUrl: vi.fn(),
    listParts: vi.fn(),
    complete: async (uploadId) => ({ ...resource, id: idOf(uploadId), name: uploadId }),
    put: (url, body, o) => {
      const name = url.split('/').pop()!;
      if (failing.includes(name)) return Promise.reject(new Error('Network error while uploading'));
      if (!waiting.has(name)) return Promise.resolve((o.onProgress?.(body.size), '"etag"'));
      return new Promise((resolve) => held.set(name, () => resolve((o.onProgress?.(body.size), '"etag"'))));
    },
  };
  return {
    idOf,
    make: () => new UploadQueue({ transport: t, hashWhole: async () => 'a'.repeat(32), sleep: async () => {} }),
    hold: (name: string) => void waiting.add(name),
    release: (name: string) => held.get(name)?.(),
  };
}

const added = (calls: { path: string; body: unknown }[]) =>
  calls.filter((c) => c.path === '/collection/resource/add').map((c) => (c.body as { resource_id: string }).resource_id);

beforeEach(() => {
  completed = 0;
  toast.remove();
});

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
    // Pressed at the bottom of the form: the first field with an error (the title) gets the focus.
    await waitFor(() => expect(screen.getByLabelText('Title')).toHaveFocus());

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

  test('Publish creates, attaches the uploaded file, publishes, toasts one outcome and opens the collection', async () => {
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
    // The publish step has no toast of its own: one outcome.
    expect(screen.queryByText('Collection updated successfully!')).not.toBeInTheDocument();
  });

  test('after the create, each file is attached the moment its upload finishes, not when the last one ends', async () => {
    const files = namedTransport();
    files.hold('file-2.txt');
    const calls = serveCreate();
    const user = userEvent.setup();
    const { router } = renderWithProviders(<UploadPage makeQueue={files.make} />, { path: '/upload', routePath: '*' });
    await fill(user);
    await user.upload(screen.getByLabelText('Choose files'), [
      new File(['0123456789'], 'file-1.txt', { type: 'text/plain' }),
      new File(['0123456789'], 'file-2.txt', { type: 'text/plain' }),
    ]);
    await screen.findByText('1 of 2 files uploaded');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    // file-1 is in the collection while file-2 is still uploading.
    await waitFor(() => expect(added(calls)).toEqual([files.idOf('file-1.txt')]));
    expect(await screen.findByText(/1 file added\./)).toBeInTheDocument();
    expect(calls.map((c) => c.path)).not.toContain('/collection/publish');
    expect(screen.getAllByTestId('upload-row')[1]).toHaveAttribute('data-status', 'uploading');

    files.release('file-2.txt');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/collection/${created.id}`));
    expect(added(calls)).toEqual([files.idOf('file-1.txt'), files.idOf('file-2.txt')]);
    expect(calls.map((c) => c.path)).toEqual([
      '/collection/create',
      '/collection/resource/add',
      '/collection/resource/add',
      '/collection/publish',
    ]);
  });

  test('uploaded files not yet in a collection make leaving the page ask first', async () => {
    const user = userEvent.setup();
    renderForm();
    const unload = () => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await user.upload(screen.getByLabelText('Choose files'), new File(['0123456789'], 'notes.txt', { type: 'text/plain' }));
    await screen.findByText('1 of 1 file uploaded');
    expect(unload()).toBe(true);
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

  test('six good files and an empty one: the empty one is refused at once; Publish without it makes one collection with six files and one outcome', async () => {
    const files = namedTransport();
    const calls = serveCreate();
    const user = userEvent.setup();
    const { router } = renderWithProviders(<UploadPage makeQueue={files.make} />, { path: '/upload', routePath: '*' });
    await fill(user);
    const good = Array.from({ length: 6 }, (_, i) => new File(['0123456789'], `file-${i + 1}.txt`, { type: 'text/plain' }));
    await user.upload(screen.getByLabelText('Choose files'), [...good, new File([], 'empty.txt', { type: 'text/plain' })]);
    await screen.findByText('6 of 7 files uploaded');
    expect(screen.getByText('Cannot calculate MD5 for empty file')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('1 file did not upload. Remove it, or go on without it.')).toBeInTheDocument();
    expect(calls).toEqual([]);
    const skip = screen.getByRole('button', { name: 'Publish without it' });
    await waitFor(() => expect(skip).toHaveFocus());

    await user.click(skip);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/collection/${created.id}`));
    expect(calls.filter((c) => c.path === '/collection/create')).toHaveLength(1);
    expect(new Set(added(calls))).toEqual(new Set(good.map((f) => files.idOf(f.name))));
    expect(calls.at(-1)!.path).toBe('/collection/publish');
    // One outcome: one success toast, nothing about files that did not upload.
    expect(await screen.findAllByText('Collection created successfully!')).toHaveLength(1);
    expect(screen.queryByText(/did not upload/)).not.toBeInTheDocument();
    expect(screen.queryByText('Collection updated successfully!')).not.toBeInTheDocument();
  });

  test('a file whose upload failed can be removed from the list; then the others are saved as a draft', async () => {
    const files = namedTransport({ failing: ['file-3.txt'] });
    const calls = serveCreate();
    const user = userEvent.setup();
    const { router } = renderWithProviders(<UploadPage makeQueue={files.make} />, { path: '/upload', routePath: '*' });
    await fill(user);
    await user.upload(
      screen.getByLabelText('Choose files'),
      [1, 2, 3].map((i) => new File(['0123456789'], `file-${i}.txt`, { type: 'text/plain' })),
    );
    await screen.findByText('2 of 3 files uploaded');
    await waitFor(() => expect(screen.getAllByTestId('upload-row')[2]).toHaveAttribute('data-status', 'failed'));

    await user.click(screen.getByRole('button', { name: 'Save as draft' }));
    expect(await screen.findByText('1 file did not upload. Retry or remove it, or go on without it.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save as draft without it' })).toBeInTheDocument();
    expect(calls).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Remove file-3.txt' }));
    expect(screen.getAllByTestId('upload-row')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Save as draft' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/collection/${created.id}`));
    expect(added(calls)).toEqual([files.idOf('file-1.txt'), files.idOf('file-2.txt')]);
    expect(calls.map((c) => c.path)).not.toContain('/collection/publish');
    expect(await screen.findAllByText('Collection created successfully!')).toHaveLength(1);
  });
});

import type { Resource } from '@coffer/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { server } from '@/test/server';
import { ok } from '@/test/render';
import { renderWithProviders } from '@/test/helpers';
import { ResourceList } from './resource-list';

const COLLECTION = '0190f3a2-0000-7000-8000-0000000000c1';
const file = (overrides: Partial<Resource>): Resource => ({
  id: '0190f3a2-0000-7000-8000-0000000000a1',
  collection_id: COLLECTION,
  name: 'notes.txt',
  size: 1536,
  md5: 'a'.repeat(32),
  content_type: 'text/plain',
  created_at: 1,
  version: 1,
  updated_at: null,
  preview: false,
  ...overrides,
});
const v2 = file({ version: 2, updated_at: Date.UTC(2026, 10, 3, 12), name: 'guide.pdf', content_type: 'application/pdf' });
const sample = file({ id: '0190f3a2-0000-7000-8000-0000000000a2', name: 'sample.png', preview: true, content_type: 'image/png' });

describe('File rows', () => {
  test('every visitor sees name, size, version badge, Updated date and the preview flag', () => {
    renderWithProviders(<ResourceList resources={[v2, sample]} collectionId={COLLECTION} canDownload={false} />);
    const [first, second] = screen.getAllByTestId('resource-row');
    expect(first).toHaveTextContent('guide.pdf');
    expect(within(first!).getByText('v2')).toBeInTheDocument();
    expect(first).toHaveTextContent('1.5 KB · Updated Nov 03, 2026');
    expect(within(second!).getByText('Preview')).toBeInTheDocument();
    expect(within(second!).queryByText(/^v\d/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Download guide/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  test('a visitor downloads a preview file through resource/preview/url', async () => {
    const asked: unknown[] = [];
    server.use(
      http.post('*/sl/v1/resource/preview/url', async ({ request }) => {
        asked.push(await request.json());
        return HttpResponse.json(ok({ url: 'http://localhost/files/preview?sig=1', expires_at: 1 }));
      }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderWithProviders(<ResourceList resources={[sample]} collectionId={COLLECTION} canDownload={false} />);
    await user.click(screen.getByRole('button', { name: 'Download preview sample.png' }));
    await waitFor(() => expect(asked).toEqual([{ collection_id: COLLECTION, resource_id: sample.id }]));
    click.mockRestore();
  });

  test('the owner toggles the preview flag, removes a file after confirming, and opens Replace, by keyboard', async () => {
    const previews: unknown[] = [];
    const removed: unknown[] = [];
    server.use(
      http.post('*/sl/v1/collection/resource/preview', async ({ request }) => {
        previews.push(await request.json());
        return HttpResponse.json(ok({ ...v2, preview: true }));
      }),
      http.post('*/sl/v1/collection/resource/remove', async ({ request }) => {
        removed.push(await request.json());
        return HttpResponse.json(ok({}));
      }),
    );
    const user = userEvent.setup();
    const replaceFile = vi.fn(({ name }: { name: string }) => <p>Uploader for {name}</p>);
    renderWithProviders(
      <ResourceList resources={[v2]} collectionId={COLLECTION} canDownload isOwner replaceFile={replaceFile} />,
    );

    await user.click(screen.getByRole('checkbox', { name: 'Free preview: guide.pdf' }));
    await waitFor(() => expect(previews).toEqual([{ collection_id: COLLECTION, resource_id: v2.id, preview: true }]));

    screen.getByRole('button', { name: 'Replace guide.pdf' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('Uploader for guide.pdf')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Replace guide.pdf' })).toHaveAttribute('aria-expanded', 'true');

    await user.click(screen.getByRole('button', { name: 'Remove guide.pdf' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this file?' });
    expect(dialog).toHaveTextContent('Buyers who already bought it keep it.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove file' }));
    expect(await screen.findByText('File removed')).toBeInTheDocument();
    expect(removed).toEqual([{ collection_id: COLLECTION, resource_id: v2.id }]);
  });

  test('a buyer sees a file removed after their purchase as kept, with Download', () => {
    renderWithProviders(<ResourceList resources={[file({ removed: true })]} collectionId={COLLECTION} canDownload />);
    expect(screen.getByText('Removed by the seller')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download notes.txt' })).toBeInTheDocument();
  });

  test('an empty collection says so', () => {
    renderWithProviders(<ResourceList resources={[]} collectionId={COLLECTION} canDownload={false} />);
    expect(screen.getByText('No files yet.')).toBeInTheDocument();
  });
});

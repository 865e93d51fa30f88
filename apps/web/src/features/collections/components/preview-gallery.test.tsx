/**
 * The collection page's gallery: one lazily loaded, sized thumbnail per file the server answered a
 * `thumbnail_url` on (never one it did not), none at all without any; the lightbox opens on a
 * thumbnail, moves with Previous/Next and the arrow keys, closes on Escape with focus back on the
 * thumbnail; past eight thumbnails the rest wait behind 'Show all'.
 */
import type { Resource } from '@coffer/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { ok } from '@/test/render';
import { server } from '@/test/server';
import { makeCollection, renderWithProviders } from '@/test/helpers';
import { CollectionDetailView } from './collection-detail';
import { GALLERY_FIRST, PreviewGallery } from './preview-gallery';

let n = 0;
function file(overrides: Partial<Resource> = {}): Resource {
  n++;
  return {
    id: `0190f3a2-0000-7000-8000-${String(900 + n).padStart(12, '0')}`,
    collection_id: null,
    name: `file-${n}.png`,
    size: 1024,
    md5: 'a'.repeat(32),
    content_type: 'image/png',
    created_at: 1,
    version: 1,
    updated_at: null,
    preview: false,
    ...overrides,
  };
}
const thumb = (name: string) => `https://files.example/thumbs/${name}.webp`;

describe('PreviewGallery', () => {
  test('renders nothing when no file has a thumbnail', () => {
    renderWithProviders(
      <div data-testid="host">
        <PreviewGallery resources={[file({ name: 'a.txt', content_type: 'text/plain' }), file({ name: 'b.png' })]} />
      </div>,
    );
    expect(screen.getByTestId('host')).toBeEmptyDOMElement();
  });

  test('shows a sized, lazy thumbnail per file with one, in file order; removed files left out', () => {
    renderWithProviders(
      <PreviewGallery
        resources={[
          file({ name: 'cover.png', thumbnail_url: thumb('cover'), preview: true }),
          file({ name: 'notes.txt', content_type: 'text/plain' }),
          file({ name: 'old.png', thumbnail_url: thumb('old'), removed: true }),
          file({ name: 'page-2.png', thumbnail_url: thumb('page-2') }),
        ]}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Gallery (2)' })).toBeInTheDocument();
    const buttons = within(screen.getByRole('list', { name: 'Gallery' })).getAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['View cover.png', 'View page-2.png']);
    const img = buttons[0]!.querySelector('img')!;
    expect(img).toHaveAttribute('src', thumb('cover'));
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).toHaveAttribute('width', '320');
    expect(img).toHaveAttribute('height', '320');
  });

  test('the lightbox opens on a thumbnail, moves with the buttons and arrow keys, and Escape gives focus back', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <PreviewGallery
        resources={[
          file({ name: 'one.png', thumbnail_url: thumb('one'), preview: true }),
          file({ name: 'two.png', thumbnail_url: thumb('two') }),
          file({ name: 'three.png', thumbnail_url: thumb('three') }),
        ]}
      />,
    );
    const second = screen.getByRole('button', { name: 'View two.png' });
    second.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'two.png' });
    expect(dialog).toHaveTextContent('Image 2 of 3');
    expect(dialog.querySelector('img')).toHaveAttribute('src', thumb('two'));

    await user.keyboard('{ArrowRight}');
    expect(await screen.findByRole('dialog', { name: 'three.png' })).toHaveTextContent('Image 3 of 3');
    await user.keyboard('{ArrowRight}');
    // Past the last it starts again; the first is a free preview.
    expect(await screen.findByRole('dialog', { name: 'one.png' })).toHaveTextContent('Image 1 of 3 · Free preview');
    await user.click(screen.getByRole('button', { name: 'Previous image' }));
    expect(await screen.findByRole('dialog', { name: 'three.png' })).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(await screen.findByRole('dialog', { name: 'two.png' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(await screen.findByRole('dialog', { name: 'three.png' })).toBeInTheDocument();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(second).toHaveFocus();
  });

  test(`shows the first ${GALLERY_FIRST} thumbnails, the rest behind Show all`, async () => {
    const files = Array.from({ length: GALLERY_FIRST + 3 }, (_, i) => file({ name: `p${i}.png`, thumbnail_url: thumb(`p${i}`) }));
    renderWithProviders(<PreviewGallery resources={files} />);
    const list = screen.getByRole('list', { name: 'Gallery' });
    expect(within(list).getAllByRole('button')).toHaveLength(GALLERY_FIRST);
    await userEvent.click(screen.getByRole('button', { name: `Show all ${GALLERY_FIRST + 3} images` }));
    expect(within(list).getAllByRole('button')).toHaveLength(GALLERY_FIRST + 3);
    expect(screen.getByRole('button', { name: 'Show fewer' })).toHaveAttribute('aria-expanded', 'true');
  });
});

describe('The collection page', () => {
  test('shows in its gallery only the thumbnails collection/detail answered to this viewer', async () => {
    const collection = makeCollection({ title: 'Icons' });
    // As the server answers a visitor: the preview image has a thumbnail, the paid image has none.
    const resources = [
      file({ name: 'sample.png', preview: true, thumbnail_url: thumb('sample'), collection_id: collection.id }),
      file({ name: 'full-set.png', collection_id: collection.id }),
    ];
    server.use(
      http.post('*/sl/v1/collection/detail', () =>
        HttpResponse.json(
          ok({
            collection,
            resources,
            seller: { id: collection.owner_id, username: 'mira', nickname: 'Mira', avatar: '', created_at: 1 },
            purchased: false,
          }),
        ),
      ),
      http.post('*/sl/v1/review/list', () =>
        HttpResponse.json(
          ok({ reviews: [], page: 0, size: 10, totalCount: 0, totalPages: 0, hasNextPage: false, count: 0, mine: null, can_review: false }),
        ),
      ),
    );
    renderWithProviders(<CollectionDetailView id={collection.id} viewer={{ id: null }} />, { path: `/collection/${collection.id}` });
    const gallery = await screen.findByRole('list', { name: 'Gallery' });
    expect(within(gallery).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['View sample.png']);
    expect(document.querySelectorAll('img[src$="full-set.webp"]')).toHaveLength(0);
  });
});

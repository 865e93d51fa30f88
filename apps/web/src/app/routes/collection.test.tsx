import type { Resource } from '@coffer/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { server } from '@/test/server';
import { fail, ok } from '@/test/render';
import { makeCollection, renderWithProviders } from '@/test/helpers';
import { CollectionPage } from './collection';

const OWNER = '0190f3a2-0000-7000-8000-000000000001';
const BUYER = '0190f3a2-0000-7000-8000-0000000000b0';
const collection = makeCollection({
  title: 'Field kit',
  desc: 'Notes and footage',
  amount: 250,
  sold_count: 4,
  earned: 1000,
  owner_id: OWNER,
  created_at: Date.UTC(2026, 2, 5),
});
const resources: Resource[] = [
  {
    id: '0190f3a2-0000-7000-8000-0000000000a1',
    collection_id: collection.id,
    name: 'notes.txt',
    size: 1536,
    md5: 'a'.repeat(32),
    content_type: 'text/plain',
    created_at: 1,
    version: 1,
    updated_at: null,
    preview: false,
  },
  {
    id: '0190f3a2-0000-7000-8000-0000000000a2',
    collection_id: collection.id,
    name: 'footage.mp4',
    size: 25 * 1024 * 1024,
    md5: 'b'.repeat(32),
    content_type: 'video/mp4',
    created_at: 1,
    version: 1,
    updated_at: null,
    preview: false,
  },
];
const seller = { id: OWNER, username: 'mira', nickname: 'Studio Mira', avatar: '', created_at: 1 };

function serveDetail(purchased: boolean, status = 'Published') {
  server.use(
    http.post('*/sl/v1/collection/detail', () =>
      HttpResponse.json(ok({ collection: { ...collection, status }, resources, seller, purchased })),
    ),
    http.post('*/sl/v1/review/list', () =>
      HttpResponse.json(
        ok({ reviews: [], page: 0, size: 10, totalCount: 0, totalPages: 0, hasNextPage: false, count: 0, mine: null, can_review: false }),
      ),
    ),
  );
}

const render = (viewerId: string | null, available?: string) =>
  renderWithProviders(<CollectionPage id={collection.id} viewer={{ id: viewerId, available }} />, {
    path: `/collection/${collection.id}`,
  });

describe('Collection detail', () => {
  test('a visitor sees the collection, its files with sizes, and Log in to buy; no downloads', async () => {
    serveDetail(false);
    render(null);
    expect(await screen.findByRole('heading', { level: 1, name: 'Field kit' })).toBeInTheDocument();
    expect(screen.getByText('Notes and footage')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Studio Mira' })).toHaveAttribute('href', `/creator/${OWNER}`);
    expect(screen.getByText('250 Points')).toBeInTheDocument();
    expect(screen.getByText('Sold').nextSibling).toHaveTextContent('4');
    expect(screen.getByText('Mar 05, 2026')).toBeInTheDocument();
    const rows = screen.getAllByTestId('resource-row');
    expect(rows.map((r) => r.textContent)).toEqual(['notes.txt1.5 KB', 'footage.mp425 MB']);
    expect(within(rows[0]!).getByRole('link', { name: 'notes.txt' })).toHaveAttribute('href', `/resource/${resources[0]!.id}`);
    expect(screen.getByRole('link', { name: 'Log in to buy' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Download/ })).not.toBeInTheDocument();
    expect(screen.queryByText('Earned Points')).not.toBeInTheDocument();
  });

  test('a buyer who owns it downloads each file by a short-lived URL under its own name', async () => {
    serveDetail(true);
    const asked: unknown[] = [];
    server.use(
      http.post('*/sl/v1/resource/download/url', async ({ request }) => {
        asked.push(await request.json());
        return HttpResponse.json(ok({ url: 'http://localhost/files/signed?sig=1', expires_at: 1 }));
      }),
    );
    const clicked: { href: string; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    const user = userEvent.setup();
    render(BUYER, '10');
    expect(await screen.findByText('You own this collection')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Buy for/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Download footage.mp4' }));
    await waitFor(() => expect(clicked).toEqual([{ href: 'http://localhost/files/signed?sig=1', download: 'footage.mp4' }]));
    expect(asked).toEqual([{ collection_id: collection.id, resource_id: resources[1]!.id }]);
    click.mockRestore();
  });

  test('Download all asks for the ZIP link, shows progress, and saves it under the collection name', async () => {
    serveDetail(true);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const asked: unknown[] = [];
    server.use(
      http.post('*/sl/v1/collection/download/all', async ({ request }) => {
        asked.push(await request.json());
        await gate;
        return HttpResponse.json(
          ok({ url: 'http://localhost/sl/v1/collection/download/all/zip?s=1', expires_at: 1, file_name: 'Field kit.zip' }),
        );
      }),
    );
    const clicked: { href: string; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    const user = userEvent.setup();
    render(BUYER);
    await user.click(await screen.findByRole('button', { name: 'Download all' }));
    expect(await screen.findByRole('button', { name: /Preparing ZIP/ })).toHaveAttribute('aria-busy', 'true');
    release();
    await waitFor(() =>
      expect(clicked).toEqual([{ href: 'http://localhost/sl/v1/collection/download/all/zip?s=1', download: 'Field kit.zip' }]),
    );
    expect(await screen.findByText('Downloading Field kit.zip')).toBeInTheDocument();
    expect(asked).toEqual([{ collection_id: collection.id }]);
    click.mockRestore();
  });

  test('a refused download shows the server message', async () => {
    serveDetail(true);
    server.use(
      http.post('*/sl/v1/resource/download/url', () =>
        HttpResponse.json(fail(10004, 'Only the owner or a buyer can download this file', 'FORBIDDEN'), { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    render(BUYER);
    await user.click(await screen.findByRole('button', { name: 'Download notes.txt' }));
    expect(await screen.findByText('Only the owner or a buyer can download this file')).toBeInTheDocument();
  });

  test('the owner of an unpublished collection gets Publish, Delete with a confirmation, earned points and downloads', async () => {
    serveDetail(false, 'Created');
    const published: unknown[] = [];
    server.use(
      http.post('*/sl/v1/collection/publish', async ({ request }) => {
        published.push(await request.json());
        return HttpResponse.json(ok({ ...collection, status: 'Published' }));
      }),
    );
    const user = userEvent.setup();
    render(OWNER);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Field kit' });
    expect(within(heading.parentElement!).getByText('Created')).toBeInTheDocument();
    expect(screen.getByText('Earned Points').nextSibling).toHaveTextContent('1,000 Points');
    expect(screen.getAllByRole('button', { name: /^Download (?!all$)/ })).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Download all' })).toBeEnabled();
    // The owner's controls are a lazy chunk: under load its import can take more than the default second.
    await user.click(await screen.findByRole('button', { name: 'Publish' }, { timeout: 10_000 }));
    expect(await screen.findByText('Collection updated successfully!')).toBeInTheDocument();
    expect(published).toEqual([{ collection_id: collection.id }]);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this collection?' });
    expect(within(dialog).getByRole('button', { name: 'Delete collection' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  test("an unknown collection shows Collection not found above 'The requested resource was not found.' (product §8)", async () => {
    server.use(
      http.post('*/sl/v1/collection/detail', () =>
        HttpResponse.json(fail(10003, 'The collection does not exist', 'NOT_FOUND'), { status: 404 }),
      ),
    );
    render(null);
    expect(await screen.findByText('Collection not found')).toBeInTheDocument();
    expect(screen.getByText('The requested resource was not found.')).toBeInTheDocument();
    expect(screen.queryByText('The collection does not exist')).not.toBeInTheDocument();
  });

  test('a server error is not "not found": it says the collection could not be loaded, and Try again asks again', async () => {
    let failing = true;
    serveDetail(false);
    // Answers 500 while failing, then falls through to serveDetail's answer.
    server.use(
      http.post('*/sl/v1/collection/detail', () =>
        failing ? HttpResponse.json(fail(10010, 'Server error. Please try again later.', 'INTERNAL'), { status: 500 }) : undefined,
      ),
    );
    render(null);
    expect(await screen.findByText('Could not load this collection')).toBeInTheDocument();
    expect(screen.getByText('Server error. Please try again later.')).toBeInTheDocument();
    expect(screen.queryByText('Collection not found')).not.toBeInTheDocument();
    failing = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Field kit' })).toBeInTheDocument();
  });

  test('a NOT_FOUND envelope is not found whatever status carried it: no Try again', async () => {
    server.use(
      http.post('*/sl/v1/collection/detail', () => HttpResponse.json(fail(10005, 'The collection does not exist', 'NOT_FOUND'))),
    );
    render(null);
    expect(await screen.findByText('Collection not found')).toBeInTheDocument();
    expect(screen.getByText('The requested resource was not found.')).toBeInTheDocument();
    expect(screen.queryByText('Could not load this collection')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse collections' })).toHaveAttribute('href', '/');
  });

  test('a signed-in stranger can report; a visitor and the owner cannot (product §27)', async () => {
    serveDetail(false);
    const { unmount } = render(BUYER, '1000');
    expect(await screen.findByRole('heading', { level: 1, name: 'Field kit' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Report' }));
    expect(screen.getByRole('dialog', { name: 'Report this collection' })).toBeInTheDocument();
    unmount();
    serveDetail(false);
    const visitor = render(null);
    expect(await screen.findByRole('heading', { level: 1, name: 'Field kit' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Report' })).not.toBeInTheDocument();
    visitor.unmount();
    serveDetail(false);
    render(OWNER);
    expect(await screen.findByRole('heading', { level: 1, name: 'Field kit' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Report' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('takedown-notice')).not.toBeInTheDocument();
  });

  test('the owner of a collection Coffer took down sees why and what it means', async () => {
    server.use(
      http.post('*/sl/v1/collection/detail', () =>
        HttpResponse.json(
          ok({
            collection: {
              ...collection,
              moderation: { hidden: true, reason: 'Copyright claim by Acme', files_removed: true, hidden_at: 5 },
            },
            resources,
            seller,
            purchased: false,
          }),
        ),
      ),
      mockApi('reviewList', { reviews: [], page: 0, size: 10, totalCount: 0, totalPages: 0, hasNextPage: false, count: 0, mine: null, can_review: false }),
    );
    render(OWNER);
    const notice = await screen.findByTestId('takedown-notice');
    expect(notice).toHaveTextContent('Hidden by Coffer: Copyright claim by Acme');
    expect(notice).toHaveTextContent('no longer shown in the market or search and cannot be bought');
    expect(notice).toHaveTextContent('Nothing you uploaded has been deleted.');
  });
});

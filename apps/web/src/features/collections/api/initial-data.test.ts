import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { collectionKeys } from '@/lib/market-keys';
import { INITIAL_DATA_ELEMENT_ID, initialDataKey, seedInitialData } from './initial-data';

function putInDocument(text: string) {
  const el = document.createElement('script');
  el.type = 'application/json';
  el.id = INITIAL_DATA_ELEMENT_ID;
  el.textContent = text;
  document.body.append(el);
}

afterEach(() => document.getElementById(INITIAL_DATA_ELEMENT_ID)?.remove());

const page = { collections: [], count: 0, page: 0, size: 12, totalCount: 0, totalPages: 0, hasNextPage: false };

describe('seedInitialData', () => {
  it('seeds the storefront first page and a visitor collection under the keys the pages read, once', () => {
    putInDocument(
      JSON.stringify([
        { call: 'marketCollections', body: { paginator: { page: 0, size: 12 }, sort: 'newest' }, data: page },
        { call: 'collectionDetail', body: { collection_id: 'c1' }, data: { purchased: false } },
      ]),
    );
    const client = new QueryClient();
    expect(seedInitialData(client)).toBe(2);
    expect(client.getQueryData(collectionKeys.market({ page: 0, size: 12, q: '', sort: 'newest' }))).toEqual(page);
    expect(client.getQueryData([...collectionKeys.detail('c1'), 'visitor'])).toEqual({ purchased: false });
    // The element is consumed: a second call finds nothing.
    expect(document.getElementById(INITIAL_DATA_ELEMENT_ID)).toBeNull();
    expect(seedInitialData(new QueryClient())).toBe(0);
  });

  it('ignores a document without answers, malformed JSON and calls no page reads', () => {
    const client = new QueryClient();
    expect(seedInitialData(client)).toBe(0);
    putInDocument('{not json');
    expect(seedInitialData(client)).toBe(0);
    putInDocument(
      JSON.stringify([
        { call: 'myCollections', body: { paginator: { page: 0, size: 10 } }, data: page },
        'x',
        { call: 'marketCollections', body: {} },
      ]),
    );
    expect(seedInitialData(client)).toBe(0);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });

  it("seeds a collection's first page of reviews under the key the reviews section reads as a visitor", () => {
    const reviews = {
      reviews: [],
      mine: null,
      can_review: false,
      count: 0,
      page: 0,
      size: 10,
      totalCount: 0,
      totalPages: 0,
      hasNextPage: false,
    };
    putInDocument(
      JSON.stringify([
        { call: 'collectionDetail', body: { collection_id: 'c1' }, data: { purchased: false } },
        { call: 'reviewList', body: { collection_id: 'c1', paginator: { page: 0, size: 10 } }, data: reviews },
        { call: 'reviewList', body: { collection_id: 'c2', paginator: { page: '0', size: 10 } }, data: reviews },
      ]),
    );
    const client = new QueryClient();
    expect(seedInitialData(client)).toBe(2);
    expect(client.getQueryData(collectionKeys.reviewsPage('c1', { page: 0, size: 10 }, 'visitor'))).toEqual(reviews);
    // A signed-in reader's key is not seeded: the server read as a visitor.
    expect(client.getQueryData(collectionKeys.reviewsPage('c1', { page: 0, size: 10 }, 'u1'))).toBeUndefined();
  });

  it('keys a search with its trimmed text', () => {
    expect(
      initialDataKey({
        call: 'marketCollections',
        body: { paginator: { page: 1, size: 24 }, sort: 'popular', q: ' brushes ' },
        data: page,
      }),
    ).toEqual(collectionKeys.market({ page: 1, size: 24, q: 'brushes', sort: 'popular' }));
  });
});

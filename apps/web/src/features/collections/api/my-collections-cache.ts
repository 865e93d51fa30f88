/**
 * The list updates of product §4 ("My Collections list") applied to every cached page of
 * ['collections', 'mine', {page, size}]: after create the item is prepended to the first page
 * and the count rises by 1; after an update the item is replaced; after delete the item is removed
 * and the count drops by 1 (never below 0). A changed count also moves the page's paging fields
 * (totalCount, totalPages, hasNextPage; product §3 Pagination) as the server would answer them. The
 * pages are also marked stale so that the next visit refetches the server's order.
 */
import { pageFields, type Collection, type CollectionPage } from '@coffer/contract';
import type { QueryClient } from '@tanstack/react-query';
import { collectionKeys, type PageParams } from '@/lib/market-keys';

function eachPage(client: QueryClient, update: (page: CollectionPage, params: PageParams) => CollectionPage): void {
  for (const [key, data] of client.getQueriesData<CollectionPage>({ queryKey: collectionKeys.mine() })) {
    if (!data) continue;
    const params = key[2] as PageParams | undefined;
    client.setQueryData<CollectionPage>(key, update(data, params ?? { page: data.page, size: data.size }));
  }
  void client.invalidateQueries({ queryKey: collectionKeys.mine(), refetchType: 'none' });
}

/** product §4: prepend and count + 1. */
export function addToMyCollections(client: QueryClient, created: Collection): void {
  eachPage(client, (page, params) => ({
    collections:
      params.page === 0 && !page.collections.some((c) => c.id === created.id)
        ? [created, ...page.collections].slice(0, Math.max(params.size, 1))
        : page.collections,
    ...pageFields(params, page.totalCount + 1),
  }));
}

/** product §4: replace the item wherever it is cached. */
export function replaceInMyCollections(client: QueryClient, updated: Collection): void {
  eachPage(client, (page) => ({
    ...page,
    collections: page.collections.map((c) => (c.id === updated.id ? { ...c, ...updated } : c)),
  }));
}

/** product §4: remove and count - 1, minimum 0. */
export function removeFromMyCollections(client: QueryClient, id: string): void {
  eachPage(client, (page, params) => ({
    collections: page.collections.filter((c) => c.id !== id),
    ...pageFields(params, Math.max(0, page.totalCount - 1)),
  }));
}

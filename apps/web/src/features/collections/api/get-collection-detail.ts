/**
 * POST /sl/v1/collection/detail {collection_id} -> {collection, resources, seller, purchased}
 * (product §17). Public for published collections; `purchased` is true for a buyer with a paid order.
 */
import type { Collection, PublicUser, Resource } from '@coffer/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys } from '@/lib/market-keys';

export interface CollectionDetail {
  collection: Collection;
  resources: Resource[];
  seller: PublicUser;
  purchased: boolean;
  /** The viewer's order was refunded: they cannot buy it again (docs/product.md §25.1). */
  refunded?: boolean;
}

export function getCollectionDetail(id: string, signal?: AbortSignal): Promise<CollectionDetail> {
  return callApi('collectionDetail', { collection_id: id }, { signal });
}

/** @param viewerId the signed-in user's id (in the key: `purchased` and visibility depend on the viewer) */
export function getCollectionDetailQueryOptions(id: string, viewerId: string | null | undefined) {
  return queryOptions({
    queryKey: [...collectionKeys.detail(id), viewerId ?? 'visitor'] as const,
    queryFn: ({ signal }) => getCollectionDetail(id, signal),
    staleTime: 30_000,
  });
}

export function useCollectionDetail(id: string, viewerId: string | null | undefined) {
  return useQuery(getCollectionDetailQueryOptions(id, viewerId));
}

/** POST /sl/v1/resource/detail {resource_id} -> {resource, collection, purchased} (product §17). */
import type { Collection, Resource } from '@coffer/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { resourceKeys } from '@/lib/market-keys';

export interface ResourceDetail {
  resource: Resource;
  collection: Collection;
  purchased: boolean;
}

export function getResourceDetail(id: string, signal?: AbortSignal): Promise<ResourceDetail> {
  return callApi('resourceDetail', { resource_id: id }, { signal });
}

export function getResourceDetailQueryOptions(id: string, viewerId: string | null | undefined) {
  return queryOptions({
    queryKey: [...resourceKeys.detail(id), viewerId ?? 'visitor'] as const,
    queryFn: ({ signal }) => getResourceDetail(id, signal),
    staleTime: 30_000,
  });
}

export function useResourceDetail(id: string, viewerId: string | null | undefined) {
  return useQuery(getResourceDetailQueryOptions(id, viewerId));
}

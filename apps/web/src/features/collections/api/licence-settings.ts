/**
 * A collection's licence keys settings (product §28): POST /sl/v1/licence/settings/get {collection_id}
 * and POST /sl/v1/licence/settings {collection_id, enabled, max_activations} -> {collection_id,
 * enabled, max_activations (null: no limit)}. The owner's create and edit forms use them.
 */
import type { LicenceSettings } from '@coffer/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys } from '@/lib/market-keys';

export type { LicenceSettings };

export function getLicenceSettings(collectionId: string, signal?: AbortSignal): Promise<LicenceSettings> {
  return callApi('licenceSettingsGet', { collection_id: collectionId }, { signal });
}

export function getLicenceSettingsQueryOptions(collectionId: string) {
  return queryOptions({
    queryKey: collectionKeys.licence(collectionId),
    queryFn: ({ signal }) => getLicenceSettings(collectionId, signal),
  });
}

export function useLicenceSettings(collectionId: string) {
  return useQuery(getLicenceSettingsQueryOptions(collectionId));
}

export function setLicenceSettings(input: {
  collectionId: string;
  enabled: boolean;
  maxActivations: number | null;
}): Promise<LicenceSettings> {
  return callApi('licenceSettingsSet', {
    collection_id: input.collectionId,
    enabled: input.enabled,
    max_activations: input.maxActivations,
  });
}

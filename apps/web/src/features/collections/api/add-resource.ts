/**
 * collection/resource/add {collection_id, resource_id} -> the resource (product §17, prefix /sl/v1):
 * attaches a completed upload (features/uploads) to a collection of one's own.
 */
import type { Resource } from '@coffer/contract';
import { callApi } from '@/lib/api-client';

/** Attaches a completed upload's resource to a collection (owner only). */
export function addResourceToCollection(collectionId: string, resourceId: string): Promise<Resource> {
  return callApi('collectionResourceAdd', { collection_id: collectionId, resource_id: resourceId });
}

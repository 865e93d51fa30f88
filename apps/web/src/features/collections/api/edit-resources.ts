/**
 * The owner's file edits (product §24, prefix /sl/v1), each refreshing the collection's detail:
 * - collection/resource/remove {collection_id, resource_id} -> {} (buyers who bought keep the file);
 * - collection/resource/preview {collection_id, resource_id, preview} -> the resource;
 * - collection/resource/replace {collection_id, resource_id, new_resource_id} -> the resource at its
 *   next version (new_resource_id is a completed upload of features/uploads, wired in by app/routes).
 */
import type { Resource } from '@coffer/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { collectionKeys, resourceKeys } from '@/lib/market-keys';

export interface FileTarget {
  collectionId: string;
  resourceId: string;
}

export async function removeResource(t: FileTarget): Promise<void> {
  await callApi('collectionResourceRemove', { collection_id: t.collectionId, resource_id: t.resourceId });
}

export function setResourcePreview(t: FileTarget & { preview: boolean }): Promise<Resource> {
  return callApi('collectionResourcePreview', { collection_id: t.collectionId, resource_id: t.resourceId, preview: t.preview });
}

export function replaceResource(t: FileTarget & { newResourceId: string }): Promise<Resource> {
  return callApi('collectionResourceReplace', {
    collection_id: t.collectionId,
    resource_id: t.resourceId,
    new_resource_id: t.newResourceId,
  });
}

function useFileEdit<T extends FileTarget, R>(fn: (t: T) => Promise<R>, done: string, failed: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (_out, t) => {
      void client.invalidateQueries({ queryKey: collectionKeys.detail(t.collectionId) });
      void client.invalidateQueries({ queryKey: resourceKeys.detail(t.resourceId) });
      toast.success(done);
    },
    onError: (err) => toastError(err, failed),
  });
}

export const useRemoveResource = () => useFileEdit(removeResource, 'File removed', 'Failed to remove the file');
export const useSetResourcePreview = () =>
  useFileEdit(setResourcePreview, 'Preview setting saved', 'Failed to change the preview');
export const useReplaceResource = () => useFileEdit(replaceResource, 'File updated', 'Failed to replace the file');

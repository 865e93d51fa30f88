/**
 * POST /sl/v1/collection/publish {collection_id} -> the collection (owner, needs a file; product §16).
 * On success: 'Collection updated successfully!' and the list item replaced (product §4).
 */
import type { Collection } from '@coffer/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { collectionKeys } from '@/lib/market-keys';
import { replaceInMyCollections } from './my-collections-cache';

export function publishCollection(id: string): Promise<Collection> {
  return callApi('collectionPublish', { collection_id: id });
}

export function usePublishCollection({ silent = false }: { silent?: boolean } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: publishCollection,
    onSuccess: (updated) => {
      replaceInMyCollections(client, updated);
      void client.invalidateQueries({ queryKey: collectionKeys.detail(updated.id) });
      void client.invalidateQueries({ queryKey: [...collectionKeys.all, 'market'] });
      if (!silent) toast.success('Collection updated successfully!');
    },
    onError: (err) => toastError(err, 'Failed to publish the collection'),
  });
}

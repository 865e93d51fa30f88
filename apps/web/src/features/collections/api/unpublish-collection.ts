/**
 * POST /sl/v1/collection/unpublish {collection_id} -> the collection, now Draft (owner; product §24:
 * off the storefront, not for sale, buyers keep access). On success: 'Collection updated successfully!'.
 */
import type { Collection } from '@coffer/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { collectionKeys } from '@/lib/market-keys';
import { replaceInMyCollections } from './my-collections-cache';

export function unpublishCollection(id: string): Promise<Collection> {
  return callApi('collectionUnpublish', { collection_id: id });
}

export function useUnpublishCollection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: unpublishCollection,
    onSuccess: (updated) => {
      replaceInMyCollections(client, updated);
      void client.invalidateQueries({ queryKey: collectionKeys.detail(updated.id) });
      void client.invalidateQueries({ queryKey: [...collectionKeys.all, 'market'] });
      toast.success('Collection updated successfully!');
    },
    onError: (err) => toastError(err, 'Failed to unpublish the collection'),
  });
}

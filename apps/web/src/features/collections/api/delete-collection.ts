/**
 * POST /sl/v1/collection/delete {collection_id} -> {} (owner; soft delete, buyers keep their
 * downloads; product §16). On success: 'Collection deleted successfully!', the item removed and the
 * count lowered (product §4).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { collectionKeys } from '@/lib/market-keys';
import { removeFromMyCollections } from './my-collections-cache';

export async function deleteCollection(id: string): Promise<string> {
  await callApi('collectionDelete', { collection_id: id });
  return id;
}

export function useDeleteCollection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteCollection,
    onSuccess: (id) => {
      removeFromMyCollections(client, id);
      client.removeQueries({ queryKey: collectionKeys.detail(id) });
      void client.invalidateQueries({ queryKey: [...collectionKeys.all, 'market'] });
      toast.success('Collection deleted successfully!');
    },
    onError: (err) => toastError(err, 'Failed to delete the collection'),
  });
}

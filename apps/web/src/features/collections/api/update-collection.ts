/**
 * POST /sl/v1/collection/update {collection_id, title?, desc?, amount?, banner?} -> the collection
 * (owner; product §24). A new banner goes through create/banner/url first (uploadBanner).
 * On success: 'Collection updated successfully!' and the My Collections item replaced (product §4).
 */
import type { Collection, CollectionUpdateRequest } from '@coffer/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi } from '@/lib/api-client';
import { uploadBanner } from './create-collection';
import { collectionKeys } from '@/lib/market-keys';
import { replaceInMyCollections } from './my-collections-cache';

export interface UpdateCollectionInput extends Omit<CollectionUpdateRequest, 'banner'> {
  bannerFile?: File | null;
}

export async function updateCollection(input: UpdateCollectionInput): Promise<Collection> {
  const { bannerFile, ...fields } = input;
  const banner = bannerFile ? await uploadBanner(bannerFile) : undefined;
  return callApi('collectionUpdate', { ...fields, ...(banner ? { banner } : {}) });
}

export function useUpdateCollection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateCollection,
    onSuccess: (updated) => {
      replaceInMyCollections(client, updated);
      void client.invalidateQueries({ queryKey: collectionKeys.detail(updated.id) });
      void client.invalidateQueries({ queryKey: [...collectionKeys.all, 'market'] });
      toast.success('Collection updated successfully!');
    },
  });
}

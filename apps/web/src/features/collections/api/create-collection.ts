/**
 * Creating a collection (product §17): the banner first goes through POST /sl/v1/create/banner/url
 * {content_type, size} -> {url, banner} and a PUT of the image to the presigned URL; then
 * POST /sl/v1/collection/create {title, desc, amount, banner?} -> the collection (status Created).
 * On success: 'Collection created successfully!' and the My Collections list update of product §4.
 */
import type { Collection, CollectionCreateRequest } from '@coffer/contract';
import { IMAGE_CONTENT_TYPES, IMAGE_MAX_BYTES, isImageContentType } from '@coffer/contract/constants';
import { useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { useIdempotentMutation } from '@/lib/idempotency';
import { addToMyCollections } from './my-collections-cache';

export const BannerMessages = {
  type: 'Images must be PNG, JPEG, WebP or GIF',
  size: 'Images must be 5 MB or smaller',
  empty: 'The image is empty',
  upload: 'Failed to upload the banner',
} as const;

/** The client-side banner checks (type and 5 MB); null when the file may be sent. */
export function bannerFileError(file: { type: string; size: number }): string | null {
  if (!(IMAGE_CONTENT_TYPES as readonly string[]).includes(file.type)) return BannerMessages.type;
  if (file.size <= 0) return BannerMessages.empty;
  if (file.size > IMAGE_MAX_BYTES) return BannerMessages.size;
  return null;
}

/**
 * Uploads a banner image.
 * @returns the `banner` value to pass to collection/create
 * @throws Error with a BannerMessages text on a bad file or a failed PUT; ApiError from the call
 */
export async function uploadBanner(file: File): Promise<string> {
  const error = bannerFileError(file);
  if (error || !isImageContentType(file.type)) throw new Error(error ?? BannerMessages.type);
  const { url, banner } = await callApi('bannerUrl', {
    content_type: file.type,
    size: file.size,
  });
  const res = await fetch(url, { method: 'PUT', body: file, headers: { 'Content-Type': file.type } });
  if (!res.ok) throw new Error(BannerMessages.upload);
  return banner;
}

export interface CreateCollectionInput extends Omit<CollectionCreateRequest, 'banner'> {
  bannerFile?: File | null;
}

/** Creates the collection (after uploading its banner); `idempotencyKey`: one collection per intended create. */
export async function createCollection(input: CreateCollectionInput, idempotencyKey?: string): Promise<Collection> {
  const banner = input.bannerFile ? await uploadBanner(input.bannerFile) : undefined;
  return callApi(
    'collectionCreate',
    {
      title: input.title,
      desc: input.desc,
      amount: input.amount,
      ...(banner ? { banner } : {}),
      ...(input.draft ? { draft: true } : {}),
    },
    idempotencyKey ? { idempotencyKey } : {},
  );
}

export function useCreateCollection() {
  const client = useQueryClient();
  return useIdempotentMutation(createCollection, {
    onSuccess: (created) => {
      addToMyCollections(client, created);
      // 'Collection created successfully!' is the form's to say, once every file is in (one outcome).
    },
  });
}

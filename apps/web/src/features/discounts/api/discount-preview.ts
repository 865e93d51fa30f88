/**
 * POST /sl/v1/discount/preview {collection_id, code} -> {code, list_price, discount, amount} (product
 * §28): what a discount code takes off a collection, whole points. The buy dialog's "Have a code?"
 * field (features/orders, handed `getDiscountPreview` by the route) and the detail page's `?code=`
 * links read it, under the same key; a refusal (unknown, expired, used up) is the query's error.
 */
import type { EndpointData } from '@coffer/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys } from '@/lib/market-keys';

export type DiscountPreview = EndpointData<'discountPreview'>;

export function getDiscountPreview(collectionId: string, code: string, signal?: AbortSignal): Promise<DiscountPreview> {
  return callApi('discountPreview', { collection_id: collectionId, code }, { signal });
}

export function getDiscountPreviewQueryOptions(collectionId: string, code: string) {
  return queryOptions({
    queryKey: collectionKeys.discountPreview(collectionId, code.toUpperCase()),
    queryFn: ({ signal }) => getDiscountPreview(collectionId, code, signal),
    retry: false,
  });
}

/** The preview of `code` (no call while it is empty). */
export function useDiscountPreview(collectionId: string, code: string | null | undefined) {
  return useQuery({ ...getDiscountPreviewQueryOptions(collectionId, code ?? ''), enabled: Boolean(code) });
}

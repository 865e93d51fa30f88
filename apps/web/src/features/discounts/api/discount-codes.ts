/**
 * A seller's discount codes (product §28): POST /sl/v1/discount/list {paginator} -> {codes, paging
 * fields}; POST /sl/v1/discount/create {code, kind, value, collection_id?, expires_at?, max_uses?,
 * once_per_buyer} -> the code; POST /sl/v1/discount/disable {discount_id} -> the code. Values are
 * whole points or a percent; times are milliseconds. Mutations refetch the list.
 */
import type { DiscountCode, EndpointBody, EndpointData } from '@coffer/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { useIdempotentMutation } from '@/lib/idempotency';
import { queryKeys } from '@/lib/query-client';
import { collectionKeys, type PageParams } from '@/lib/market-keys';

export type { DiscountCode };
export type DiscountCodePage = EndpointData<'discountList'>;
export type NewDiscountCode = EndpointBody<'discountCreate'>;

export function getDiscountCodes(p: PageParams, signal?: AbortSignal): Promise<DiscountCodePage> {
  return callApi('discountList', { paginator: { page: p.page, size: p.size } }, { signal });
}

export function getDiscountCodesQueryOptions(p: PageParams) {
  return queryOptions({
    queryKey: collectionKeys.discounts(p),
    queryFn: ({ signal }) => getDiscountCodes(p, signal),
    placeholderData: keepPreviousData,
  });
}

export function useDiscountCodes(enabled: boolean, p: PageParams) {
  return useQuery({ ...getDiscountCodesQueryOptions(p), enabled });
}

export function createDiscountCode(body: NewDiscountCode, idempotencyKey?: string): Promise<DiscountCode> {
  return callApi('discountCreate', body, idempotencyKey ? { idempotencyKey } : {});
}

export function disableDiscountCode(id: string): Promise<DiscountCode> {
  return callApi('discountDisable', { discount_id: id });
}

/** Creates a code; the form shows the server's refusal itself. */
export function useCreateDiscountCode() {
  const client = useQueryClient();
  return useIdempotentMutation(createDiscountCode, {
    onSuccess: (c) => toast.success(`Code ${c.code} created`),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.collections }),
  });
}

export function useDisableDiscountCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: disableDiscountCode,
    onSuccess: (c) => toast.success(`Code ${c.code} disabled`),
    onError: (err) => toastError(err, 'Failed to disable the code'),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.collections }),
  });
}

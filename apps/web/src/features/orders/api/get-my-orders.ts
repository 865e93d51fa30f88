/**
 * POST /sl/v1/my/orders {paginator {page, size}} (default page 0, size 10; product §7) -> {orders, count}
 * and the paging fields (product §3 Pagination).
 */
import type { OrderPage } from '@coffer/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys, type PageParams } from '@/lib/market-keys';

export type { OrderPage };

export function getMyOrders(p: PageParams, signal?: AbortSignal): Promise<OrderPage> {
  return callApi('myOrders', { paginator: { page: p.page, size: p.size } }, { signal });
}

export function getMyOrdersQueryOptions(p: PageParams) {
  return queryOptions({
    queryKey: collectionKeys.orders(p),
    queryFn: ({ signal }) => getMyOrders(p, signal),
    placeholderData: keepPreviousData,
  });
}

export function useMyOrders(enabled: boolean, p: PageParams) {
  return useQuery({ ...getMyOrdersQueryOptions(p), enabled });
}

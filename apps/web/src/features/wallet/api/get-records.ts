/**
 * POST /api/uc/v1/account/record/list {user_id, filter {cate, status_list}, paginator {page, size}}
 * (product §7): the transaction history, 20 a page from page 0, never cached (product §9). Each answer
 * carries `count` and the paging fields of product §3 Pagination; the next page is the one the last
 * answer's `hasNextPage` announces (product §4 "Record list": while loaded records are fewer than the
 * total count, which the server works out).
 */
import { pageFields, RECORDS_PAGE_SIZE, RecordCate, RecordStatus, type RecordListData } from '@coffer/contract';
import { infiniteQueryOptions, useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';

export interface RecordsFilter {
  cate: RecordCate;
  /** Empty: every status. */
  statusList?: RecordStatus[];
}

/** The key of one list: ['transactions', userId, cate, statusList]; its prefixes address every status of a category. */
export const recordsQueryKey = (userId: string, cate: RecordCate, statusList: readonly RecordStatus[] = []) =>
  [...queryKeys.transactions, userId, cate, [...statusList]] as const;

/** @throws Error 'user_id required' (product §8) without a user; ApiError on a failed call */
export async function getRecords(
  userId: string,
  filter: RecordsFilter,
  page: number,
  signal?: AbortSignal,
): Promise<RecordListData> {
  if (!userId) throw new Error('user_id required');
  const data = await callApi(
    'recordList',
    {
      user_id: userId,
      filter: { cate: filter.cate, status_list: filter.statusList ?? [] },
      paginator: { page, size: RECORDS_PAGE_SIZE },
    },
    { signal },
  );
  // An answer without data reads as an empty page.
  return { ...pageFields({ page, size: RECORDS_PAGE_SIZE }, 0), ...data, records: data?.records ?? [] };
}

/**
 * Next page index (from 0), or undefined: the page after the last answer's when it says
 * `hasNextPage` (an empty page never leads on, so a list cannot load forever).
 */
export function nextRecordsPage(pages: RecordListData[]): number | undefined {
  const last = pages.at(-1);
  if (!last?.hasNextPage || last.records.length === 0) return undefined;
  return pages.length;
}

/** While a shown record is pending (a payout on its way, an open top-up), the list refreshes this often. */
export const PENDING_REFRESH_MS = 5_000;

/** True when any loaded record is still pending. */
export function hasPendingRecord(pages: RecordListData[] | undefined): boolean {
  return Boolean(pages?.some((p) => p.records.some((r) => r.status === RecordStatus.Pending)));
}

export function getRecordsQueryOptions(userId: string, filter: RecordsFilter) {
  return infiniteQueryOptions({
    queryKey: recordsQueryKey(userId, filter.cate, filter.statusList),
    queryFn: ({ pageParam, signal }) => getRecords(userId, filter, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (_last, pages) => nextRecordsPage(pages),
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (query) => (hasPendingRecord(query.state.data?.pages) ? PENDING_REFRESH_MS : false),
  });
}

/** Fetched only when a user id exists (product §6). */
export function useRecords(userId: string, filter: RecordsFilter) {
  return useInfiniteQuery({ ...getRecordsQueryOptions(userId, filter), enabled: Boolean(userId) });
}

/** Refreshes the lists of the given categories (every status filter) and the balance. */
export function refreshRecordLists(client: QueryClient, userId: string, cates: RecordCate[]): Promise<unknown> {
  return Promise.all([
    ...cates.map((cate) => client.invalidateQueries({ queryKey: [...queryKeys.transactions, userId, cate] })),
    client.invalidateQueries({ queryKey: queryKeys.assets }),
  ]);
}

export { RecordCate };

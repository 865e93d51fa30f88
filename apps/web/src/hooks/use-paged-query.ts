/**
 * The paging state of a list whose page lives in component state (My Collections, Selling,
 * My Purchases, My orders): page from 0 and page size (product §4: a size change goes back to page 0;
 * the page stays within 0..totalPages-1), the query of that page, and the props of the
 * {@link Pagination} bar, or null when there is one page or none (the bar is not shown then).
 */
import type { PageFields } from '@coffer/contract';
import { COLLECTIONS_PAGE_SIZE } from '@coffer/contract/constants';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { clampPage, pagingOf, type Paging, type PaginationProps } from '@/components/ui/pagination';

/** The page asked of the server: `page` from 0, `size` items per page. */
export interface PageParams {
  page: number;
  size: number;
}

/** The {@link Pagination} props the hook owns (the caller adds noun, sizes, className). */
export type PaginationControls = Pick<
  PaginationProps,
  'page' | 'size' | 'totalCount' | 'totalPages' | 'hasNextPage' | 'onPageChange' | 'onSizeChange'
>;

export interface PagedQuery<Q> {
  /** The query of the current page, as `useQuery` answered it. */
  query: Q;
  page: number;
  size: number;
  /** The server's paging of the answer (zeros before the first answer). */
  paging: Paging;
  /** Props for `<Pagination {...pagination} />`; null with one page or none. */
  pagination: PaginationControls | null;
}

export interface PagedQueryOptions {
  /** The first page size; {@link COLLECTIONS_PAGE_SIZE} (10) by default. */
  initialSize?: number;
  /**
   * Steps back to the last page when the answer has fewer pages than the current one (e.g. after
   * the last item of the last page was deleted); off by default.
   */
  keepInRange?: boolean;
}

/**
 * @param useQuery a query hook called with the current {@link PageParams} on every render (as a
 *   hook: unconditionally, the same one each time)
 */
export function usePagedQuery<TData extends Partial<PageFields>, Q extends UseQueryResult<TData, unknown>>(
  useQuery: (params: PageParams) => Q,
  { initialSize = COLLECTIONS_PAGE_SIZE, keepInRange = false }: PagedQueryOptions = {},
): PagedQuery<Q> {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(initialSize);
  const query = useQuery({ page, size });
  const paging = pagingOf(query.data);
  const { totalPages } = paging;

  // product §4: the page stays within 0..totalPages-1 (e.g. after the last item of a page was deleted).
  const { data, isPlaceholderData } = query;
  useEffect(() => {
    if (keepInRange && data && !isPlaceholderData && page > 0 && page > totalPages - 1) setPage(clampPage(page, totalPages));
  }, [keepInRange, data, isPlaceholderData, page, totalPages]);

  const pagination: PaginationControls | null =
    totalPages > 1
      ? {
          page,
          size,
          ...paging,
          onPageChange: (p) => setPage(clampPage(p, totalPages)),
          onSizeChange: (s) => {
            setSize(s);
            setPage(0);
          },
        }
      : null;
  return { query, page, size, paging, pagination };
}

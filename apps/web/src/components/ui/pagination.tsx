/**
 * The pagination bar of every paged list (product §2 My Collections; the store, Selling, My Purchases
 * and My orders): 'Showing X to Y of N collections', a page-size
 * selector (5, 10, 20, 50), Previous and Next (disabled at the ends) and 'Page P of T'.
 * The total count, page count and next-page flag are the server's (product §3 Pagination: every paged
 * answer carries totalCount, totalPages and hasNextPage; see {@link pagingOf}); nothing is worked
 * out here. Render it only when there is more than one page (the caller decides;
 * {@link usePagedQuery} does it for lists whose page lives in state).
 */
import type { PageFields } from '@coffer/contract';
import { COLLECTIONS_PAGE_SIZE_OPTIONS } from '@coffer/contract/constants';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useId } from 'react';
import { Button } from './button';
import { cn } from '@/lib/cn';

/** What a paged list shows of the paging, read from the server's answer (none before the first answer). */
export interface Paging {
  totalCount: number;
  totalPages: number;
  hasNextPage: boolean;
}

/** The paging fields of a paged answer (product §3 Pagination), or an empty paging while there is no answer. */
export function pagingOf(data: Partial<PageFields> | undefined): Paging {
  return { totalCount: data?.totalCount ?? 0, totalPages: data?.totalPages ?? 0, hasNextPage: data?.hasNextPage ?? false };
}

/** product §4: the page stays within 0..totalPages-1. */
export function clampPage(page: number, totalPages: number): number {
  return Math.min(Math.max(0, page), Math.max(0, totalPages - 1));
}

export interface PaginationProps extends Paging {
  /** From 0. */
  page: number;
  size: number;
  onPageChange: (page: number) => void;
  onSizeChange: (size: number) => void;
  /** The noun of 'Showing X to Y of N <noun>'. */
  noun?: string;
  sizes?: readonly number[];
  className?: string;
}

/** The bar; `page` is from 0 and `onPageChange` gets the page asked for (clamp it, see {@link clampPage}). */
export function Pagination({
  page,
  size,
  totalCount,
  totalPages,
  hasNextPage,
  onPageChange,
  onSizeChange,
  noun = 'collections',
  sizes = COLLECTIONS_PAGE_SIZE_OPTIONS,
  className,
}: PaginationProps) {
  const sizeId = useId();
  const from = totalCount === 0 ? 0 : page * size + 1;
  const to = Math.min(totalCount, (page + 1) * size);
  return (
    <nav
      aria-label="Pagination"
      className={cn(
        'flex flex-col gap-3 border-t border-slate-200 pt-4 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800',
        className,
      )}
    >
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Showing {from} to {to} of {totalCount} {noun}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex items-center gap-2">
          <label htmlFor={sizeId} className="text-sm text-slate-600 dark:text-slate-400">
            Per page
          </label>
          <select
            id={sizeId}
            value={size}
            onChange={(e) => onSizeChange(Number(e.target.value))}
            className="h-9 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          >
            {sizes.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <Button variant="outline" size="sm" onClick={() => onPageChange(page - 1)} disabled={page <= 0}>
          <ChevronLeft className="size-4" aria-hidden="true" />
          Previous
        </Button>
        <span className="text-sm text-slate-700 tabular-nums dark:text-slate-300" aria-live="polite">
          Page {page + 1} of {totalPages}
        </span>
        <Button
          variant="outline"
          size="sm"
          onClick={() => onPageChange(page + 1)}
          disabled={!hasNextPage || page >= totalPages - 1}
        >
          Next
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}

/**
 * The infinitely scrolling record list of the balance modal and the transactions page (product §2):
 * 'Loading transactions...' with skeleton rows first, 'Loading more...' while the next page of
 * 20 loads (within 50 px of the bottom), 'No more data' at the end, and the empty state of the
 * category.
 */
import type { TransactionRecord } from '@coffer/contract';
import { RecordCate, type RecordStatus } from '@coffer/contract/constants';
import { Inbox } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { getErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { queryKeys } from '@/lib/query-client';
import { useRecords } from '../api/get-records';
import { useScrollLoad } from '../hooks/use-scroll-load';
import { recordStatusView } from '../utils/display';
import { RecordRow } from './record-row';
import { LoadError } from '@/components/ui/load-error';

/** product §2 list texts. */
export const ListTexts = {
  loading: 'Loading transactions...',
  loadingMore: 'Loading more...',
  noMore: 'No more data',
  emptyTitle: 'No transactions yet',
  empty: {
    [RecordCate.All]: 'Your transaction history will appear here.',
    [RecordCate.Income]: 'You have no incoming transactions. Try adding funds with Top-up.',
    [RecordCate.Outgoing]: 'You have no outgoing transactions yet.',
  } as Record<RecordCate, string>,
  filteredTitle: 'No matching transactions',
} as const;

/**
 * The empty text of a list filtered by status as well (product §2's texts apply to the direction
 * alone): it names what was asked, e.g. 'No failed outgoing transactions.', never claiming that
 * there are no outgoing transactions at all.
 */
export function filteredEmptyText(cate: RecordCate, statusList: readonly RecordStatus[]): string {
  const adjective = (label: string) => (label === 'Success' ? 'successful' : label.toLowerCase());
  const statuses = [...new Set(statusList.map((s) => adjective(recordStatusView(s).label)))];
  const which = statuses.length > 1 ? `${statuses.slice(0, -1).join(', ')} or ${statuses.at(-1)}` : statuses[0];
  const direction = cate === RecordCate.Income ? 'incoming ' : cate === RecordCate.Outgoing ? 'outgoing ' : '';
  return `No ${which} ${direction}transactions.`;
}

export interface TransactionListProps {
  userId: string;
  cate: RecordCate;
  statusList?: RecordStatus[];
  /** 'container': the list scrolls inside itself (modal); 'window': the page scrolls. */
  scroll?: 'container' | 'window';
  onOpenRecord?: (record: TransactionRecord) => void;
  className?: string;
}

function SkeletonRows({ count = 5 }: { count?: number }) {
  return (
    <div className="space-y-1" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="flex items-center gap-3 px-3 py-3">
          <Skeleton className="size-9 rounded-full" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-3.5 w-24" />
            <Skeleton className="h-3 w-16" />
          </div>
          <div className="flex flex-col items-end gap-2">
            <Skeleton className="h-3.5 w-16" />
            <Skeleton className="h-4 w-14 rounded-full" />
          </div>
        </div>
      ))}
    </div>
  );
}

export function TransactionList({
  userId,
  cate,
  statusList = [],
  scroll = 'container',
  onOpenRecord,
  className,
}: TransactionListProps) {
  const query = useRecords(userId, { cate, statusList });
  const records = query.data?.pages.flatMap((p) => p.records) ?? [];
  const containerRef = useRef<HTMLDivElement>(null);
  const { fetchNextPage, error, isFetchNextPageError } = query;
  const queryClient = useQueryClient();

  // The list is always fresh; the balance must agree with it. Refresh the balance when the list
  // first loads and whenever a shown record changed status (a payout settled or was refunded, a
  // top-up was credited).
  const statusKey = records.map((r) => `${r.id}:${r.status}`).join(',');
  const lastStatusKey = useRef<string | null>(null);
  useEffect(() => {
    if (!query.isSuccess) return;
    const previous = lastStatusKey.current;
    lastStatusKey.current = statusKey;
    if (previous === statusKey) return;
    const before = new Map((previous ?? '').split(',').map((p) => p.split(':') as [string, string]));
    const changed = previous === null || records.some((r) => before.has(r.id) && before.get(r.id) !== r.status);
    if (changed) void queryClient.invalidateQueries({ queryKey: queryKeys.assets });
  }, [statusKey, query.isSuccess, records, queryClient]);

  useScrollLoad({
    target: scroll === 'window' ? 'window' : containerRef,
    hasMore: Boolean(query.hasNextPage),
    busy: query.isFetching || query.isFetchNextPageError,
    onLoad: () => void query.fetchNextPage(),
    contentKey: records.length,
  });

  let body;
  if (query.isPending) {
    body = (
      <div role="status" aria-live="polite">
        <p className="px-3 pb-1 text-xs text-slate-500 dark:text-slate-400">{ListTexts.loading}</p>
        <SkeletonRows />
      </div>
    );
  } else if (query.isError) {
    body = <LoadError className="px-4 py-10" message={getErrorMessage(query.error)} onRetry={() => void query.refetch()} />;
  } else if (records.length === 0) {
    body = (
      <EmptyState
        icon={<Inbox />}
        title={statusList.length ? ListTexts.filteredTitle : ListTexts.emptyTitle}
        description={statusList.length ? filteredEmptyText(cate, statusList) : ListTexts.empty[cate]}
        className="border-none py-10"
      />
    );
  } else {
    body = (
      <>
        <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Transactions">
          {records.map((r) => (
            <li key={r.id}>
              <RecordRow record={r} onOpen={onOpenRecord ? (rec) => onOpenRecord(rec as TransactionRecord) : undefined} />
            </li>
          ))}
        </ul>
        <div
          className="flex items-center justify-center gap-2 py-3 text-xs text-slate-500 dark:text-slate-400"
          aria-live="polite"
        >
          {query.isFetchingNextPage ? (
            <>
              <Spinner className="size-3.5" label={ListTexts.loadingMore} />
              <span>{ListTexts.loadingMore}</span>
            </>
          ) : isFetchNextPageError ? (
            <button
              type="button"
              className="text-brand-600 underline-offset-4 hover:underline dark:text-brand-400"
              onClick={() => void fetchNextPage()}
            >
              {getErrorMessage(error)} Try again
            </button>
          ) : query.hasNextPage ? null : (
            <span>{ListTexts.noMore}</span>
          )}
        </div>
      </>
    );
  }

  return (
    <div
      ref={containerRef}
      data-scroll-container={scroll === 'container' ? '' : undefined}
      className={cn(scroll === 'container' && 'max-h-[min(24rem,50vh)] overflow-y-auto overscroll-contain', className)}
      tabIndex={scroll === 'container' ? 0 : undefined}
      aria-label={scroll === 'container' ? 'Transaction list' : undefined}
      role={scroll === 'container' ? 'region' : undefined}
    >
      {body}
    </div>
  );
}

/**
 * One transaction record (product §2 balance modal): type, date (MM/dd/yyyy), signed amount (+ for
 * Incoming) and a status badge. Purchase, sale and refund rows name their collection (the record's
 * `collection`, cut with an ellipsis, whole in its title). Top-up and cash-out rows open their bill detail.
 */
import type { TransactionRecord } from '@coffer/contract';
import { Direction, RecordType } from '@coffer/contract/constants';
import { ArrowDownLeft, ArrowUpRight, ChevronRight } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { formatShortDate } from '@/lib/format';
import { recordStatusView, recordTypeLabel, signedAmount } from '../utils/display';

/** product §3: TopUp and CashOut records have a bill to open. */
export const hasBillDetail = (record: Pick<TransactionRecord, 'type'>) =>
  record.type === RecordType.TopUp || record.type === RecordType.CashOut;

type RecordLike = Omit<TransactionRecord, 'created_at'> & {
  created_at?: number | string;
  created?: number | string;
  createdAt?: number | string;
};

export function RecordRow({ record, onOpen }: { record: RecordLike; onOpen?: (record: RecordLike) => void }) {
  const incoming = record.direction === Direction.Incoming;
  const status = recordStatusView(record.status);
  const clickable = Boolean(onOpen) && hasBillDetail(record);
  const when = record.created_at ?? record.created ?? record.createdAt;
  const content = (
    <>
      <span
        className={cn(
          'flex size-9 shrink-0 items-center justify-center rounded-full',
          incoming
            ? 'bg-emerald-50 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300'
            : 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300',
        )}
        aria-hidden="true"
      >
        {incoming ? <ArrowDownLeft className="size-4" /> : <ArrowUpRight className="size-4" />}
      </span>
      <span className="min-w-0 flex-1 text-left">
        <span className="block truncate text-sm font-medium text-slate-900 dark:text-slate-100">
          {recordTypeLabel(record.type)}
        </span>
        {record.collection ? (
          <span
            className="block truncate text-xs text-slate-600 dark:text-slate-300"
            title={record.collection.title}
            data-testid="record-collection"
          >
            {record.collection.title}
          </span>
        ) : null}
        <span className="block text-xs text-slate-500 tabular-nums dark:text-slate-400">{formatShortDate(when)}</span>
      </span>
      <span className="flex shrink-0 flex-col items-end gap-1">
        <span
          className={cn(
            'text-sm font-semibold tabular-nums',
            incoming ? 'text-emerald-700 dark:text-emerald-400' : 'text-slate-900 dark:text-slate-100',
          )}
          data-testid="record-amount"
        >
          {signedAmount(record.direction, record.amount)}
        </span>
        <Badge tone={status.tone}>{status.label}</Badge>
      </span>
      {clickable ? (
        <ChevronRight className="size-4 shrink-0 text-slate-400" aria-hidden="true" />
      ) : (
        <span className="w-4 shrink-0" aria-hidden="true" />
      )}
    </>
  );
  if (!clickable) {
    return <div className="flex items-center gap-3 px-3 py-3">{content}</div>;
  }
  return (
    <button
      type="button"
      onClick={() => onOpen?.(record)}
      className="flex w-full items-center gap-3 rounded-lg px-3 py-3 transition-colors hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:hover:bg-slate-800/60"
      aria-label={`${recordTypeLabel(record.type)} ${signedAmount(record.direction, record.amount)} points, ${status.label}, ${formatShortDate(when)}`}
    >
      {content}
    </button>
  );
}

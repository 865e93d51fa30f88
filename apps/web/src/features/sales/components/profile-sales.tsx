/**
 * The seller's sales on their own Selling tab (product §25, my/sales): orders of their collections
 * with the buyer, status and any refund request, "Refund" on a paid order, and a "Refund requests"
 * view of the paid orders whose buyer asked for a refund. Each paid sale says where its proceeds
 * are (product.md §30 "Clearance"): Pending with the date they clear (on hold while a "This wasn't
 * me" report is reviewed), or Cleared.
 */
import type { SaleOrder } from '@coffer/contract';
import { OrderStatus } from '@coffer/contract/constants';
import { useState, type ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { usePagedQuery } from '@/hooks/use-paged-query';
import { getErrorMessage } from '@/lib/api-client';
import { STATUS_PALETTE } from '@/components/ui/status-palette';
import { LoadError } from '@/components/ui/load-error';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { useMySales } from '../api/get-my-sales';
import {
  OrderAmountCell,
  OrderLicenceCell,
  OrderCollectionCell,
  OrderDateCell,
  OrdersTableFrame,
  OrderStatusBadge,
} from '@/components/ui/orders-table';

/**
 * What a sale's Actions cell holds: the orders feature's Refund button and dialog, handed in by the
 * route (features do not import each other); nothing without it.
 */
export type SaleActionSlot = (order: SaleOrder) => ReactNode;

export const ProceedsTexts = {
  column: 'Proceeds',
  pending: 'Pending',
  cleared: 'Cleared',
  clears: (date: string) => `clears ${date}`,
  onHold: 'on hold: under review',
} as const;

/** Where a sale's proceeds are: Pending (with when they clear) or Cleared; a dash without a hold. */
export function ProceedsCell({ order }: { order: SaleOrder }) {
  let content: ReactNode = (
    <span className="text-slate-400" aria-label="No holding period">
      —
    </span>
  );
  if (order.status === OrderStatus.Paid && order.cleared_at) {
    content = (
      <Badge tone={STATUS_PALETTE.Cleared} className="whitespace-nowrap">
        {ProceedsTexts.cleared}
      </Badge>
    );
  } else if (order.status === OrderStatus.Paid && order.clears_at) {
    content = (
      <span className="inline-flex flex-wrap items-center gap-x-1.5 gap-y-0.5">
        <Badge tone={STATUS_PALETTE.Pending}>{ProceedsTexts.pending}</Badge>
        <span className="text-xs whitespace-nowrap text-slate-500 dark:text-slate-400">
          · {order.reported_at ? ProceedsTexts.onHold : ProceedsTexts.clears(formatDate(order.clears_at))}
        </span>
      </span>
    );
  }
  return <td className="px-4 py-2.5">{content}</td>;
}

/** @param action a paid sale's action (Refund), see {@link SaleActionSlot} */
export function ProfileSales({ action }: { action?: SaleActionSlot } = {}) {
  const [pendingOnly, setPendingOnly] = useState(false);
  const { query, pagination } = usePagedQuery((p) => useMySales(true, pendingOnly, p));
  const views = [
    { pending: false, label: 'All sales' },
    { pending: true, label: 'Refund requests' },
  ];

  return (
    <section aria-labelledby="sales-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="sales-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
          Your sales
        </h2>
        <div
          role="group"
          aria-label="Show"
          className="inline-flex rounded-lg border border-slate-200 p-0.5 dark:border-slate-800"
        >
          {views.map((v) => (
            <button
              key={v.label}
              type="button"
              aria-pressed={pendingOnly === v.pending}
              onClick={() => setPendingOnly(v.pending)}
              className={cn(
                'rounded-md px-3 py-1 text-sm focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
                pendingOnly === v.pending
                  ? 'bg-slate-900 text-white dark:bg-white dark:text-slate-900'
                  : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white',
              )}
            >
              {v.label}
            </button>
          ))}
        </div>
      </div>
      {query.isPending ? (
        <Skeleton className="h-32 w-full rounded-xl" />
      ) : query.isError ? (
        <LoadError message={getErrorMessage(query.error, 'Failed to load sales')} onRetry={() => void query.refetch()} />
      ) : query.data.orders.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">{pendingOnly ? 'No refund requests.' : 'No sales yet.'}</p>
      ) : (
        <OrdersTableFrame
          minWidth="min-w-[60rem]"
          columns={[
            { label: 'Date' },
            { label: 'Collection' },
            { label: 'Buyer' },
            { label: 'Status' },
            { label: ProceedsTexts.column },
            { label: 'Licence key' },
            { label: 'Amount', end: true },
            { label: 'Actions', end: true, srOnly: true },
          ]}
        >
          {query.data.orders.map((o) => (
            <tr key={o.id} data-testid="sale-row">
              <OrderDateCell order={o} />
              <OrderCollectionCell order={o} />
              <td className="px-4 py-2.5 text-slate-700 dark:text-slate-300">
                <span className="block max-w-48 truncate" title={o.buyer.nickname}>
                  {o.buyer.nickname}
                </span>
              </td>
              <td className="px-4 py-2.5">
                <div className="flex flex-col items-start gap-1 max-sm:items-end">
                  <OrderStatusBadge status={o.status} />
                  {o.status === OrderStatus.Paid && o.refund_request ? (
                    <p className="text-xs wrap-anywhere text-amber-700 sm:w-64 dark:text-amber-300">
                      Refund requested: {o.refund_request.reason}
                    </p>
                  ) : null}
                </div>
              </td>
              <ProceedsCell order={o} />
              <OrderLicenceCell order={o} />
              <OrderAmountCell amount={o.amount} />
              <td className="px-4 py-2.5 text-right">
                {action?.(o)}
              </td>
            </tr>
          ))}
        </OrdersTableFrame>
      )}
      {pagination ? <Pagination {...pagination} noun="orders" /> : null}
    </section>
  );
}

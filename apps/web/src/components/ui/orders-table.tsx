/**
 * The table both order lists share (My Purchases > My orders, Selling > Your sales): the bordered
 * frame with its header row, and the cells every order row starts and ends with (date, collection
 * link, amount). Columns between them are the caller's. Below 640 px each order is a stacked card
 * with the column names beside the values (components/ui/stacked-table.ts): nothing scrolls sideways.
 * Shared by features/orders (the buyer's orders) and features/sales (the seller's), with the order
 * status badge both show.
 */
import { OrderStatus } from '@coffer/contract/constants';
import { useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { STATUS_PALETTE } from '@/components/ui/status-palette';
import { CopyButton } from '@/components/ui/copy-button';
import { STACK_TABLE_CLASS, useStackedLabels } from '@/components/ui/stacked-table';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { formatPointsLabel } from '@/lib/points';

export interface OrdersTableColumn {
  label: string;
  /** Right-aligned (amounts, actions). */
  end?: boolean;
  /** Read by screen readers only (the actions column). */
  srOnly?: boolean;
}

/** The frame and header of an orders table; `children` are its `<tr>` rows. */
export function OrdersTableFrame({
  columns,
  minWidth,
  children,
}: {
  columns: OrdersTableColumn[];
  minWidth: string;
  children: ReactNode;
}) {
  const table = useRef<HTMLTableElement>(null);
  useStackedLabels(
    table,
    columns.map((c) => (c.srOnly ? '' : c.label)),
  );
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 dark:border-slate-800">
      <table ref={table} className={cn('w-full text-sm', minWidth, STACK_TABLE_CLASS)}>
        <thead className="bg-slate-50 text-left text-xs text-slate-500 dark:bg-slate-900 dark:text-slate-400">
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={cn('px-4 py-2 font-medium', c.end && 'text-right')}>
                {c.srOnly ? <span className="sr-only">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  );
}

/** When the order was paid (or created while pending), 'MMM dd, yyyy HH:mm'. */
export function OrderDateCell({ order }: { order: { paid_at: number | null; created_at: number } }) {
  return (
    <td className="px-4 py-2.5 whitespace-nowrap text-slate-600 tabular-nums dark:text-slate-400">
      {formatDateTime(order.paid_at ?? order.created_at)}
    </td>
  );
}

/** The order's collection, linked to its page. */
export function OrderCollectionCell({ order }: { order: { collection_id: string; collection?: { title: string } | null } }) {
  return (
    <td className="px-4 py-2.5">
      <Link
        to={`/collection/${order.collection_id}`}
        className="block max-w-64 truncate font-medium max-sm:max-w-full text-slate-900 hover:underline dark:text-white"
        title={order.collection?.title}
      >
        {order.collection?.title ?? 'Collection'}
      </Link>
    </td>
  );
}

/** The order's amount in points. */
export function OrderAmountCell({ amount }: { amount: number | string }) {
  return (
    <td className="px-4 py-2.5 text-right font-medium text-slate-900 tabular-nums dark:text-white">
      {formatPointsLabel(amount)}
    </td>
  );
}

/**
 * The order's licence key (product §28) with a copy button, struck through once revoked by a refund;
 * a dash when the order has none.
 */
export function OrderLicenceCell({ order }: { order: { licence_key?: string | null; licence_revoked?: boolean } }) {
  return (
    <td className="px-4 py-2.5 whitespace-nowrap">
      {order.licence_key ? (
        <span className="inline-flex items-center gap-1">
          <code
            className={cn(
              'font-mono text-xs text-slate-800 dark:text-slate-200',
              order.licence_revoked && 'text-slate-400 line-through dark:text-slate-500',
            )}
            title={order.licence_revoked ? 'Revoked' : undefined}
          >
            {order.licence_key}
          </code>
          {order.licence_revoked ? (
            <span className="text-xs text-slate-500 dark:text-slate-400">(revoked)</span>
          ) : (
            <CopyButton
              value={order.licence_key}
              label="Copy licence key"
              successMessage="Licence key copied to clipboard"
              errorMessage="Failed to copy licence key"
            />
          )}
        </span>
      ) : (
        <span className="text-slate-400" aria-label="No licence key">
          —
        </span>
      )}
    </td>
  );
}

/** The badge of an order status: Pending, Paid or Refunded (product §25). */
export function OrderStatusBadge({ status }: { status: string }) {
  if (status === OrderStatus.Paid) return <Badge tone={STATUS_PALETTE.Paid}>Paid</Badge>;
  if (status === OrderStatus.Refunded) return <Badge tone={STATUS_PALETTE.Refunded}>Refunded</Badge>;
  return <Badge tone={STATUS_PALETTE.Pending}>Pending</Badge>;
}

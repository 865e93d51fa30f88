/**
 * The profile's My Purchases tab: the collections the user bought (my/purchased/collections), each
/**
 * The profile's My Purchases tab: the collections the user bought (my/purchased/collections), each
 * with its files and Download buttons on demand, and the user's orders (my/orders) with dates,
 * amounts, status (Pending, Paid, Refunded) and, on a paid order, "Request refund" (product §25) and,
 * while its payment to the seller is pending, "This wasn't me" (product.md §30.6; "Reported" after).
 * Above them, 'Updates' (product §24): the latest files added, updated or removed in those
 * collections (my/library/changes), and an 'Updated' badge on collections changed in the last
 * UPDATED_BADGE_DAYS days.
 */
import type { Collection, LibraryChange, Order } from '@coffer/contract';
import { OrderStatus } from '@coffer/contract/constants';
import { Bell, ChevronDown, ShoppingBag } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { STATUS_PALETTE } from '@/components/ui/status-palette';
import { usePagedQuery } from '@/hooks/use-paged-query';
import { cn } from '@/lib/cn';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useLibraryChanges } from '../api/get-library-changes';
import { useMyOrders } from '../api/get-my-orders';
import { isReportable } from '../api/report-order';
import { usePurchasedCollections } from '../api/get-purchased-collections';
import { BannerImage } from '@/components/ui/banner-image';
import { LoadError } from '@/components/ui/load-error';
import {
  OrderAmountCell,
  OrderLicenceCell,
  OrderCollectionCell,
  OrderDateCell,
  OrdersTableFrame,
  OrderStatusBadge,
} from '@/components/ui/orders-table';
import { RefundDialog } from './refund-dialog';
import { ReportOrderTexts } from './report-order-texts';

/** "Request refund" on a paid order; "Refund requested" once the buyer asked. */
function OrderRefundAction({ order }: { order: Order }) {
  const [open, setOpen] = useState(false);
  if (order.status !== OrderStatus.Paid) return null;
  if (order.refund_request) return <span className="text-xs text-slate-500 dark:text-slate-400">Refund requested</span>;
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
        Request refund
      </button>
      <RefundDialog
        mode="request"
        target={{ orderId: order.id, title: order.collection?.title ?? 'Collection', amount: order.amount }}
        open={open}
        onOpenChange={setOpen}
      />
    </>
  );
}

// Loaded when first opened (see report-order-dialog.tsx).
const ReportOrderDialog = lazy(() => import('./report-order-dialog'));

/** "This wasn't me" on a paid order whose payment to the seller is still pending (product.md §30.6). */
function OrderReportAction({ order, now }: { order: Order; now: number }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so that closing plays out (focus back to the button).
  const [opened, setOpened] = useState(false);
  if (!isReportable(order, now) && !open) return null;
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
        aria-label={`${ReportOrderTexts.action}: ${order.collection?.title ?? 'Collection'}`}
        className="rounded-md px-1 text-xs font-medium whitespace-nowrap text-slate-600 underline-offset-2 hover:text-red-700 hover:underline focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-slate-400 dark:hover:text-red-400"
      >
        {ReportOrderTexts.action}
      </button>
      {opened ? (
        <Suspense fallback={null}>
          <ReportOrderDialog
            target={{ orderId: order.id, title: order.collection?.title ?? 'Collection', amount: order.amount }}
            open={open}
            onOpenChange={setOpen}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/**
 * The files of one purchased collection with their Download buttons: the collections feature's
 * list, handed in by the route (features do not import each other).
 */
export type PurchasedFilesSlot = (collectionId: string, viewerId: string) => ReactNode;

/** A collection counts as 'Updated' for this long after its latest change. */
export const UPDATED_BADGE_DAYS = 30;
/** How many of the latest changes the Updates panel lists. */
const NOTICES_SHOWN = 5;

const KIND_TEXT: Record<LibraryChange['kind'], string> = { added: 'New file', updated: 'Updated', removed: 'Removed' };

/** The latest library changes, newest first; nothing at all when there are none. */
export function LibraryNotices({ changes, titles }: { changes: LibraryChange[]; titles: Map<string, string> }) {
  if (changes.length === 0) return null;
  const latest = [...changes].reverse().slice(0, NOTICES_SHOWN);
  return (
    <section
      aria-labelledby="updates-heading"
      className="rounded-2xl border border-blue-200 bg-blue-50/60 p-4 dark:border-blue-500/30 dark:bg-blue-500/10"
    >
      <h3 id="updates-heading" className="mb-2 flex items-center gap-2 text-sm font-semibold text-slate-900 dark:text-white">
        <Bell className="size-4 text-blue-700 dark:text-blue-300" aria-hidden="true" />
        Updates
      </h3>
      <ul className="space-y-1.5 text-sm" aria-label="Updates to your collections">
        {latest.map((c, i) => (
          <li
            key={`${i}-${c.resource_id}-${c.kind}-${c.version}`}
            className="flex flex-wrap items-baseline gap-x-2"
            data-testid="library-notice"
          >
            <Badge tone="blue">{KIND_TEXT[c.kind]}</Badge>
            <span className="max-w-full min-w-0 truncate text-slate-800 dark:text-slate-200" title={c.name}>
              {c.name}
              {c.kind === 'updated' ? ` (v${c.version})` : ''}
            </span>
            <span className="min-w-0 wrap-anywhere text-slate-500 dark:text-slate-400">
              in{' '}
              <Link
                to={`/collection/${c.collection_id}`}
                className="font-medium text-brand-700 hover:underline dark:text-brand-300"
              >
                {titles.get(c.collection_id) ?? 'a collection you bought'}
              </Link>{' '}
              · {formatDate(c.at)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PurchasedRow({
  collection,
  viewerId,
  updated,
  files,
}: {
  collection: Collection;
  viewerId: string;
  updated?: boolean;
  files?: PurchasedFilesSlot;
}) {
  const [open, setOpen] = useState(false);
  const seller = collection.seller ? collection.seller.nickname || collection.seller.username : null;
  return (
    <li>
      <Card className="overflow-hidden" data-testid="purchased-collection">
        <div className="flex items-center gap-4 p-3">
          <Link
            to={`/collection/${collection.id}`}
            tabIndex={-1}
            aria-hidden="true"
            className="w-24 shrink-0 overflow-hidden rounded-lg sm:w-32"
          >
            <BannerImage src={collection.banner} alt="" />
          </Link>
          <div className="min-w-0 flex-1">
            <Link
              to={`/collection/${collection.id}`}
              className="line-clamp-2 font-medium wrap-anywhere text-slate-900 hover:underline dark:text-white"
              title={collection.title}
            >
              {collection.title}
            </Link>
            {updated ? <Badge tone="blue">Updated</Badge> : null}
            {seller ? (
              <p className="truncate text-sm text-slate-500 dark:text-slate-400" title={seller}>
                by {seller}
              </p>
            ) : null}
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {collection.resource_count} file{collection.resource_count === 1 ? '' : 's'}
            </p>
          </div>
          <button
            type="button"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
          >
            {open ? 'Hide files' : 'Files'}
            <ChevronDown className={cn('size-4 transition-transform', open && 'rotate-180')} aria-hidden="true" />
          </button>
        </div>
        {open ? (
          <div className="border-t border-slate-100 p-3 dark:border-slate-800">
            {files?.(collection.id, viewerId)}
          </div>
        ) : null}
      </Card>
    </li>
  );
}

function OrdersTable({ enabled }: { enabled: boolean }) {
  const { query: orders, pagination } = usePagedQuery((p) => useMyOrders(enabled, p));
  // Read once per render of the list: whether a purchase's payment is still pending.
  const now = Date.now();
  if (orders.isPending) return <Skeleton className="h-32 w-full rounded-xl" />;
  if (orders.isError)
    return <LoadError message={getErrorMessage(orders.error, 'Failed to load orders')} onRetry={() => void orders.refetch()} />;
  if (orders.data.orders.length === 0) return <p className="text-sm text-slate-500 dark:text-slate-400">No orders yet.</p>;
  return (
    <div className="space-y-4">
      <OrdersTableFrame
        minWidth="min-w-[50rem]"
        columns={[
          { label: 'Date' },
          { label: 'Collection' },
          { label: 'Status' },
          { label: 'Licence key' },
          { label: 'Amount', end: true },
          { label: 'Actions', end: true, srOnly: true },
        ]}
      >
        {orders.data.orders.map((o) => (
          <tr key={o.id} data-testid="order-row">
            <OrderDateCell order={o} />
            <OrderCollectionCell order={o} />
            <td className="px-4 py-2.5">
              <span className="inline-flex flex-wrap items-center gap-1">
                <OrderStatusBadge status={o.status} />
                {o.reported_at ? <Badge tone={STATUS_PALETTE.Reported}>Reported</Badge> : null}
              </span>
            </td>
            <OrderLicenceCell order={o} />
            <OrderAmountCell amount={o.amount} />
            <td className="px-4 py-2.5 text-right">
              <span className="inline-flex items-center justify-end gap-2">
                <OrderReportAction order={o} now={now} />
                <OrderRefundAction order={o} />
              </span>
            </td>
          </tr>
        ))}
      </OrdersTableFrame>
      {pagination ? <Pagination {...pagination} noun="orders" /> : null}
    </div>
  );
}

/** @param files the files of a purchased collection when its row is opened (see {@link PurchasedFilesSlot}) */
export function ProfilePurchases({ userId, files }: { userId: string; files?: PurchasedFilesSlot }) {
  const enabled = Boolean(userId);
  const { query: purchased, pagination } = usePagedQuery((p) => usePurchasedCollections(enabled, p));
  const changes = useLibraryChanges({ enabled }).data ?? [];
  const recent = new Set(changes.filter((c) => c.at > Date.now() - UPDATED_BADGE_DAYS * 86_400_000).map((c) => c.collection_id));
  const titles = new Map((purchased.data?.collections ?? []).map((c) => [c.id, c.title]));

  return (
    <div className="space-y-10">
      <section aria-labelledby="purchases-heading" className="space-y-4">
        <div>
          <h2 id="purchases-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
            My Purchases
          </h2>
          <p className="text-sm text-slate-500 dark:text-slate-400">Collections you bought. Open one to download its files.</p>
        </div>
        <LibraryNotices changes={changes} titles={titles} />
        {purchased.isPending ? (
          <div role="status" aria-label="Loading purchases" className="space-y-3">
            <Skeleton className="h-24 w-full rounded-2xl" />
            <Skeleton className="h-24 w-full rounded-2xl" />
          </div>
        ) : purchased.isError ? (
          <LoadError
            message={getErrorMessage(purchased.error, 'Failed to load collections')}
            onRetry={() => void purchased.refetch()}
          />
        ) : purchased.data.collections.length === 0 ? (
          <EmptyState
            icon={<ShoppingBag />}
            title="No purchases yet"
            description="Collections you buy show here, ready to download."
            action={
              <Link to="/" className={buttonVariants()}>
                Browse collections
              </Link>
            }
          />
        ) : (
          <ul className="space-y-3" aria-label="Purchased collections">
            {purchased.data.collections.map((c) => (
              <PurchasedRow key={c.id} collection={c} viewerId={userId} updated={recent.has(c.id)} files={files} />
            ))}
          </ul>
        )}
        {pagination ? <Pagination {...pagination} /> : null}
      </section>
      <section aria-labelledby="orders-heading" className="space-y-4">
        <h2 id="orders-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
          My orders
        </h2>
        <OrdersTable enabled={enabled} />
      </section>
    </div>
  );
}

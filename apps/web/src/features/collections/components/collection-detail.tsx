/**
 * /collection/{id} (issue 8): banner, title, description, seller link, price, sold count, created
 * date and the files (name, type icon, size). Visitors get 'Log in to buy'; buyers the buy flow;
 * once owned, Download per file; the owner Publish / Delete and adding files. Signed-in users who
 * do not own it can report it; the owner of a collection Coffer took down sees why (product §27).
 * Reviews (product §29): the average and count under the title, the reviews section under the files.
 * The parts other features own — the price with a `?code=` discount (discounts), Buy (orders) and
 * the reviews section (reviews) — are slots the route fills (app/routes/collection.tsx).
 */
import type { Collection } from '@coffer/contract';
import { CollectionStatus, ErrorReason } from '@coffer/contract/constants';
import { CalendarDays, CircleCheck, PackageOpen, ShoppingBag } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { PageContainer } from '@/components/ui/page';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, ErrorMessages, getErrorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useCollectionDetail } from '../api/get-collection-detail';
import { soldCount } from '../lib/format';
import { BannerImage } from '@/components/ui/banner-image';
import { DownloadAllButton } from './download-all-button';
import { ReportButton } from './report-dialog';
import { ResourceList, type ReplaceFileSlot } from './resource-list';
import { TakedownNotice } from './takedown-notice';
import { CollectionStatusBadge } from './status-badge';
import { PreviewGallery } from './preview-gallery';
import { RatingSummary } from '@/components/ui/star-rating';
import { formatPointsLabel } from '@/lib/points';

/** What the page's slots are told: the collection, and how the viewer stands to it. */
export interface CollectionSlotProps {
  collection: Collection;
  viewerId: string | null;
  isOwner: boolean;
  purchased: boolean;
  /** The viewer's order was refunded (collection/detail `refunded`). */
  refunded: boolean;
}

/** A part of the page another feature renders; `null` leaves it out (or, for `price`, shows the list price). */
export type CollectionSlot = (props: CollectionSlotProps) => ReactNode;

/** Said on the page once the viewer owns the collection (the buy dialog toasts the same words). */
export const OWNED_TEXT = 'You own this collection';

// Owner-only controls load only for owners.
const OwnerActions = lazy(() => import('./owner-actions').then((m) => ({ default: m.OwnerActions })));

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5 font-medium text-slate-900 tabular-nums dark:text-white">{children}</dd>
    </div>
  );
}

export function CollectionDetailSkeleton() {
  return (
    <PageContainer>
      <div role="status" aria-label="Loading collection" className="grid gap-8 lg:grid-cols-3">
        <div className="space-y-4 lg:col-span-2">
          <Skeleton className="aspect-[16/9] w-full rounded-2xl" />
          <Skeleton className="h-8 w-2/3" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-5/6" />
        </div>
        <Skeleton className="h-64 rounded-2xl" />
      </div>
    </PageContainer>
  );
}

/**
 * Whether a failed collection call means the collection is not there (or not shown to this
 * viewer): an HTTP 404 or a NOT_FOUND envelope, whatever status carried it.
 */
export function isCollectionMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.reason === ErrorReason.NOT_FOUND);
}

/**
 * The page when the collection could not be shown. No error (an unknown id) or a not-found answer
 * ({@link isCollectionMissing}) reads 'Collection not found'; any other failure (no answer, a 5xx,
 * a refusal) is the shared load error: 'Could not load this collection', the error's text and a
 * Try again that calls `onRetry` (the page shows its skeleton while it asks again).
 */
export function CollectionNotFound(props: { error?: undefined } | { error: unknown; onRetry: () => void } = {}) {
  const browse = (
    <Link to="/" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
      Browse collections
    </Link>
  );
  return (
    <PageContainer>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">Collection</h1>
      {props.error !== undefined && !isCollectionMissing(props.error) ? (
        <LoadError
          className="rounded-2xl border border-dashed border-slate-300 px-6 py-12 dark:border-slate-700"
          message="Could not load this collection"
          detail={
            props.error instanceof ApiError && props.error.status === 0
              ? 'Check your connection and try again.'
              : getErrorMessage(props.error)
          }
          onRetry={props.onRetry}
        >
          {browse}
        </LoadError>
      ) : (
        <EmptyState
          icon={<PackageOpen />}
          title="Collection not found"
          description={
            props.error !== undefined ? ErrorMessages.notFound : 'It may have been removed, or it is not published yet.'
          }
          action={browse}
        />
      )}
    </PageContainer>
  );
}

/**
 * @param viewer the signed-in user's id, or null for a visitor
 * @param price the price block (a `?code=` link's discounted price); the list price without it or when it returns null
 * @param buy the Buy button and its dialog
 * @param reviews the reviews section under the files
 * @param addFiles the owner's 'Add files' uploader for a collection id (the uploads feature's,
 *   wired in by the route; lazy there so that only owners load it); no section without it
 * @param replaceFile the owner's uploader that replaces one file with a new version (product §24)
 */
export function CollectionDetailView({
  id,
  viewer,
  addFiles,
  replaceFile,
  price,
  buy,
  reviews,
}: {
  id: string;
  viewer: { id: string | null };
  addFiles?: (collectionId: string) => ReactNode;
  replaceFile?: ReplaceFileSlot;
  price?: CollectionSlot;
  buy?: CollectionSlot;
  reviews?: CollectionSlot;
}) {
  const query = useCollectionDetail(id, viewer.id);
  if (query.isPending) return <CollectionDetailSkeleton />;
  if (query.isError) return <CollectionNotFound error={query.error} onRetry={() => void query.refetch()} />;

  const { collection, resources, seller, purchased } = query.data;
  const isOwner = viewer.id !== null && viewer.id === collection.owner_id;
  const canDownload = isOwner || purchased;
  const sellerName = seller.nickname || seller.username;
  const slot: CollectionSlotProps = { collection, viewerId: viewer.id, isOwner, purchased, refunded: query.data.refunded === true };

  return (
    <PageContainer>
      <nav aria-label="Breadcrumb" className="mb-4 flex min-w-0 gap-1 text-sm text-slate-500 dark:text-slate-400">
        <Link to="/" className="shrink-0 hover:text-slate-900 dark:hover:text-white">
          Collections
        </Link>
        <span aria-hidden="true" className="shrink-0">
          /
        </span>
        <span className="min-w-0 truncate text-slate-700 dark:text-slate-300" title={collection.title}>
          {collection.title}
        </span>
      </nav>
      {isOwner && collection.moderation ? (
        <div className="mb-6">
          <TakedownNotice moderation={collection.moderation} />
        </div>
      ) : null}
      {/* DOM order header, aside, files: on phones the price and Buy come right after the description. */}
      {/* grid-cols-1 and min-w-0: a long word wraps inside its column instead of widening it (docs/product.md §21.6). */}
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <BannerImage
            src={collection.banner}
            alt={collection.title}
            className="rounded-2xl border border-slate-200 dark:border-slate-800"
            eager
          />
          <div>
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="min-w-0 text-2xl font-semibold tracking-tight wrap-anywhere text-slate-900 sm:text-3xl dark:text-white">
                {collection.title}
              </h1>
              {isOwner || collection.status !== CollectionStatus.Published ? (
                <CollectionStatusBadge status={collection.status} />
              ) : null}
            </div>
            <p className="mt-2 truncate text-sm text-slate-600 dark:text-slate-400" title={sellerName}>
              by{' '}
              <Link
                to={`/creator/${seller.id}`}
                className="font-medium text-brand-700 hover:underline dark:text-brand-300"
              >
                {sellerName}
              </Link>
            </p>
            <a
              href="#reviews-heading"
              className="mt-2 inline-flex rounded-md hover:underline focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
            >
              <RatingSummary sum={collection.rating_sum} count={collection.rating_count} />
            </a>
            {collection.desc ? (
              <p className="mt-4 whitespace-pre-line wrap-anywhere text-slate-700 dark:text-slate-300">{collection.desc}</p>
            ) : null}
          </div>
        </div>
        <aside className="min-w-0 lg:sticky lg:top-24 lg:col-start-3 lg:row-span-2 lg:row-start-1 lg:self-start">
          <Card className="space-y-5 p-5">
            <div>
              <p className="text-xs text-slate-500 dark:text-slate-400">Price</p>
              {price?.(slot) ?? (
                <p className="text-3xl font-semibold text-slate-900 tabular-nums dark:text-white">
                  {formatPointsLabel(collection.amount)}
                </p>
              )}
            </div>
            <dl className="grid grid-cols-2 gap-4 border-y border-slate-100 py-4 text-sm dark:border-slate-800">
              <Stat label="Sold">{soldCount(collection.sold_count)}</Stat>
              <Stat label="Files">{resources.filter((r) => !r.removed).length}</Stat>
              <Stat label="Created">
                <span className="inline-flex items-center gap-1">
                  <CalendarDays className="size-3.5 text-slate-400" aria-hidden="true" />
                  {formatDate(collection.created_at)}
                </span>
              </Stat>
              {isOwner ? <Stat label="Earned Points">{formatPointsLabel(collection.earned)}</Stat> : null}
            </dl>
            {purchased && !isOwner ? (
              <div className="flex items-center gap-2 rounded-xl bg-emerald-50 p-3 text-sm font-medium text-emerald-800 dark:bg-emerald-500/10 dark:text-emerald-300">
                <CircleCheck className="size-4" aria-hidden="true" />
                {OWNED_TEXT}
              </div>
            ) : null}
            {buy?.(slot)}
            {isOwner ? (
              <Suspense fallback={<Skeleton className="h-11 w-full rounded-lg" />}>
                <OwnerActions collection={collection} resourceCount={resources.length} />
              </Suspense>
            ) : null}
            {purchased && !isOwner ? (
              <Link to="/profile/buy" className={buttonVariants({ variant: 'ghost', className: 'w-full' })}>
                <ShoppingBag className="size-4" aria-hidden="true" />
                My Purchases
              </Link>
            ) : null}
            {viewer.id !== null && !isOwner ? <ReportButton collectionId={collection.id} title={collection.title} /> : null}
          </Card>
        </aside>
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <PreviewGallery resources={resources} />
          <section aria-labelledby="files-heading" className="space-y-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="files-heading" className="font-semibold text-slate-900 dark:text-white">
                Files <span className="font-normal text-slate-500 dark:text-slate-400">({resources.length})</span>
              </h2>
              {canDownload && resources.length > 0 ? (
                <DownloadAllButton collectionId={collection.id} fileCount={resources.length} />
              ) : null}
            </div>
            <ResourceList
              resources={resources}
              collectionId={collection.id}
              canDownload={canDownload}
              isOwner={
                isOwner && collection.status !== CollectionStatus.Deleted && collection.status !== CollectionStatus.Archived
              }
              replaceFile={replaceFile}
            />
          </section>
          {reviews?.(slot)}
          {addFiles && isOwner && collection.status !== CollectionStatus.Deleted ? (
            <section aria-labelledby="add-files-heading" className="space-y-3">
              <h2 id="add-files-heading" className="font-semibold text-slate-900 dark:text-white">
                Add files
              </h2>
              <Suspense fallback={<Skeleton className="h-40 w-full rounded-2xl" />}>{addFiles(collection.id)}</Suspense>
            </section>
          ) : null}
        </div>
      </div>
    </PageContainer>
  );
}

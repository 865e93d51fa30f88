/**
 * The My Collections screen of product §2: heading 'My Collections' with its subtitle, '{n}
 * collection(s) total' when the count is above 0, a 'Create' link to /upload, an error banner,
 * the grid of cards (8 skeletons while loading), the empty state and the pagination (only with
 * more than one page; sizes 5/10/20/50, default 10; a size change resets to page 0; the page is
 * kept within 0..totalPages-1). A failed load toasts 'Failed to load collections' and the banner
 * shows the server msg or that text (product §8).
 *
 * The route (which owns the login guard) passes the signed-in user's id: the list is fetched
 * only when one exists (product §6).
 */
import { FolderOpen, Plus, TicketPercent } from 'lucide-react';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { PageContainer } from '@/components/ui/page';
import { Pagination } from '@/components/ui/pagination';
import { LoadError } from '@/components/ui/load-error';
import { usePagedQuery } from '@/hooks/use-paged-query';
import { ApiError, getErrorMessage } from '@/lib/api-client';
import { useMyCollections } from '../api/get-my-collections';
import { CollectionGrid, CollectionGridSkeleton } from './collection-grid';
import { MyCollectionCard } from './my-collection-card';
import { MyCollectionsTabs } from './my-collections-tabs';

export const MyCollectionsTexts = {
  heading: 'My Collections',
  subtitle: 'Manage and track your digital collections, sales, and earnings.',
  create: 'Create',
  emptyTitle: 'No collections found',
  emptyBody: "You haven't created any collections yet. Start by creating your first collection!",
  emptyAction: 'Create Collection',
  loadFailed: 'Failed to load collections',
  total: (n: number) => `${n} collection(s) total`,
} as const;

/** product §8: the server msg, else 'Failed to load collections'; 403, 404 and 5xx read as the client's texts. */
function loadErrorText(error: unknown): string {
  return error instanceof ApiError
    ? getErrorMessage(error, MyCollectionsTexts.loadFailed, 'server')
    : MyCollectionsTexts.loadFailed;
}

export function MyCollections({ userId }: { userId: string | null | undefined }) {
  // product §4: the page stays within 0..totalPages-1 (e.g. after the last item of a page was deleted).
  const { query, paging, pagination } = usePagedQuery((p) => useMyCollections(userId, p), { keepInRange: true });
  const { totalCount: count } = paging;
  const collections = query.data?.collections ?? [];

  useEffect(() => {
    if (query.isError && !(query.error instanceof ApiError && query.error.sessionExpired)) {
      toast.error(MyCollectionsTexts.loadFailed, { id: 'my-collections-load' });
    }
  }, [query.isError, query.error]);

  const loading = query.isPending && Boolean(userId);

  return (
    <PageContainer>
      <div className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
            {MyCollectionsTexts.heading}
          </h1>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{MyCollectionsTexts.subtitle}</p>
          {/* The line keeps its height while loading so the grid does not jump when the count arrives. */}
          <div className="mt-1 min-h-5 text-sm font-medium text-slate-700 dark:text-slate-300">
            {count > 0 ? <p>{MyCollectionsTexts.total(count)}</p> : null}
          </div>
        </div>
        <div className="flex items-center gap-2">
          <Link to="/mycollections/discounts" className={buttonVariants({ variant: 'outline' })}>
            <TicketPercent className="size-4" aria-hidden="true" />
            Discount codes
          </Link>
          <Link to="/upload" className={buttonVariants()}>
            <Plus className="size-4" aria-hidden="true" />
            {MyCollectionsTexts.create}
          </Link>
        </div>
      </div>

      <MyCollectionsTabs />

      {query.isError ? (
        <LoadError className="mb-6" message={loadErrorText(query.error)} onRetry={() => void query.refetch()} />
      ) : null}

      {loading ? (
        <CollectionGridSkeleton />
      ) : collections.length > 0 ? (
        <CollectionGrid label="My collections">
          {collections.map((c, i) => (
            // Only the first banner is eager: on a phone it is the only one on the first screen (ADR 0044);
            // the others are lazy, and those in view on a wide screen start at the first layout.
            <li key={c.id} className="flex">
              <div className="w-full">
                <MyCollectionCard collection={c} eager={i === 0} />
              </div>
            </li>
          ))}
        </CollectionGrid>
      ) : query.isError ? null : (
        <EmptyState
          icon={<FolderOpen />}
          title={MyCollectionsTexts.emptyTitle}
          description={MyCollectionsTexts.emptyBody}
          action={
            <Link to="/upload" className={buttonVariants()}>
              <Plus className="size-4" aria-hidden="true" />
              {MyCollectionsTexts.emptyAction}
            </Link>
          }
        />
      )}

      {pagination ? <Pagination className="mt-8" {...pagination} /> : null}
    </PageContainer>
  );
}

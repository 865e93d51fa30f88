/**
 * The profile's Selling tab: that user's published collections (user/collections), paginated; on the
 * user's own tab, their sales with refunds and refund requests below (product §25).
 */
import { Store } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { LoadError } from '@/components/ui/load-error';
import { usePagedQuery } from '@/hooks/use-paged-query';
import { getErrorMessage } from '@/lib/api-client';
import { useUserCollections } from '../api/get-user-collections';
import { CollectionGrid, CollectionGridSkeleton } from './collection-grid';
import { MarketCard, MarketCardSkeleton } from './market-card';

/**
 * @param sales the owner's sales list under their collections (the sales feature's, composed in
 *   app/routes/profile/selling.tsx); shown only on the user's own tab
 */
export function ProfileSelling({ userId, isOwn, sales }: { userId: string; isOwn: boolean; sales?: ReactNode }) {
  const { query, paging, pagination } = usePagedQuery((p) => useUserCollections(userId, p));
  const { totalCount: count } = paging;

  return (
    <div className="space-y-10">
      <section aria-labelledby="selling-heading" className="space-y-5">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="selling-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
              {isOwn ? 'Your collections on sale' : 'Collections on sale'}
            </h2>
            <p className="text-sm text-slate-500 dark:text-slate-400">
              {query.data ? `${count} published collection${count === 1 ? '' : 's'}` : 'Published collections'}
            </p>
          </div>
          {isOwn ? (
            <Link to="/mycollections" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
              Manage in My Collections
            </Link>
          ) : null}
        </div>
        {query.isPending ? (
          <CollectionGridSkeleton card={MarketCardSkeleton} />
        ) : query.isError ? (
          <LoadError message={getErrorMessage(query.error, 'Failed to load collections')} onRetry={() => void query.refetch()} />
        ) : query.data.collections.length === 0 ? (
          <EmptyState
            icon={<Store />}
            title="Nothing on sale yet"
            description={
              isOwn ? 'Publish a collection and it will show here.' : 'This user has not published any collection yet.'
            }
            action={
              isOwn ? (
                <Link to="/upload" className={buttonVariants()}>
                  Create Collection
                </Link>
              ) : undefined
            }
          />
        ) : (
          <CollectionGrid label="Collections on sale">
            {query.data.collections.map((c) => (
              <li key={c.id}>
                <MarketCard collection={c} />
              </li>
            ))}
          </CollectionGrid>
        )}
        {pagination ? <Pagination {...pagination} /> : null}
      </section>
      {isOwn ? sales : null}
    </div>
  );
}

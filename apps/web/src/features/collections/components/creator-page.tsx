/**
 * /creator/{id}: a seller's public page, signed in or not (`creator/detail`). The header shows the
 * avatar, the name (nickname, else username), @username, the join date and the rating over all the
 * seller's counted reviews; below, the grid of their published collections, paged like the
 * storefront. Skeletons while the first answer is out; 'Creator not found' for a 404 (no such
 * user, deleted or suspended); any other failure says the page could not be loaded, with Try again.
 */
import type { PublicUser } from '@coffer/contract';
import { MARKET_PAGE_SIZES } from '@coffer/contract/constants';
import { CalendarDays, Store, UserX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { PageContainer } from '@/components/ui/page';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { usePagedQuery } from '@/hooks/use-paged-query';
import { ApiError, getErrorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useCreatorDetail } from '../api/get-creator';
import { CollectionGrid, CollectionGridSkeleton } from './collection-grid';
import { MarketCard, MarketCardSkeleton } from './market-card';
import { RatingSummary } from '@/components/ui/star-rating';
import { LoadError } from '@/components/ui/load-error';

/** The creator's avatar (the profile feature's, composed in by app/routes). */
export type CreatorAvatarSlot = (user: PublicUser) => ReactNode;

const frame =
  'rounded-2xl border border-slate-200 bg-gradient-to-br from-brand-50 via-white to-white p-6 sm:p-8 dark:border-slate-800 dark:from-brand-500/10 dark:via-slate-900 dark:to-slate-900';

function CreatorHeaderSkeleton() {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <Skeleton className="size-20 shrink-0 rounded-full" />
      <div className="space-y-2">
        <Skeleton className="h-7 w-48" />
        <Skeleton className="h-4 w-32" />
        <Skeleton className="h-4 w-40" />
      </div>
    </div>
  );
}

/**
 * The page when the creator cannot be shown: a 404 reads 'Creator not found'; anything else is the
 * shared load error ('Could not load this creator', the error's text, Try again).
 */
function CreatorUnavailable({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const missing = error instanceof ApiError && error.status === 404;
  const unreachable = error instanceof ApiError && error.status === 0;
  const browse = (
    <Link to="/" className={buttonVariants({ variant: 'outline', size: missing ? 'md' : 'sm' })}>
      Browse collections
    </Link>
  );
  return (
    <PageContainer>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">Creator</h1>
      {missing ? (
        <EmptyState
          icon={<UserX />}
          title="Creator not found"
          description="This creator does not exist, or their page is no longer available."
          action={browse}
        />
      ) : (
        <LoadError
          className="rounded-2xl border border-dashed border-slate-300 px-6 py-12 dark:border-slate-700"
          message="Could not load this creator"
          detail={unreachable ? 'Check your connection and try again.' : getErrorMessage(error)}
          onRetry={onRetry}
        >
          {browse}
        </LoadError>
      )}
    </PageContainer>
  );
}

/**
 * @param userId the creator's user id (from the path)
 * @param avatar renders the creator's avatar; without it, no avatar is shown
 */
export function CreatorPage({ userId, avatar }: { userId: string; avatar?: CreatorAvatarSlot }) {
  const { query, paging, pagination } = usePagedQuery((p) => useCreatorDetail(userId, p), {
    initialSize: MARKET_PAGE_SIZES[0],
    keepInRange: true,
  });
  if (query.isError && !query.data) return <CreatorUnavailable error={query.error} onRetry={() => void query.refetch()} />;

  const data = query.data;
  const creator = data?.creator;
  const name = creator ? creator.nickname || creator.username : '';
  const joined = creator ? formatDate(creator.created_at) : '';
  const count = paging.totalCount;

  return (
    <PageContainer>
      <div className={frame}>
        {creator && data ? (
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
            {avatar ? avatar(creator) : null}
            <div className="min-w-0">
              <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere text-slate-900 dark:text-white">{name}</h1>
              <p className="truncate text-sm text-slate-500 dark:text-slate-400" title={`@${creator.username}`}>
                @{creator.username}
              </p>
              <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1">
                <RatingSummary sum={data.rating_sum} count={data.rating_count} />
                {joined ? (
                  <p className="flex items-center gap-1.5 text-sm text-slate-500 dark:text-slate-400">
                    <CalendarDays className="size-4" aria-hidden="true" /> Joined {joined}
                  </p>
                ) : null}
              </div>
            </div>
          </div>
        ) : (
          <div role="status" aria-label="Loading creator">
            <CreatorHeaderSkeleton />
          </div>
        )}
      </div>
      <section aria-labelledby="creator-collections-heading" className="mt-8 space-y-5">
        <div>
          <h2 id="creator-collections-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
            Collections
          </h2>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            {data ? `${count} published collection${count === 1 ? '' : 's'}` : 'Published collections'}
          </p>
        </div>
        {!data ? (
          <CollectionGridSkeleton card={MarketCardSkeleton} />
        ) : data.collections.length === 0 ? (
          <EmptyState
            icon={<Store />}
            title="Nothing on sale yet"
            description="This creator has not published any collection yet."
            action={
              <Link to="/" className={buttonVariants({ variant: 'outline' })}>
                Browse collections
              </Link>
            }
          />
        ) : (
          <CollectionGrid label={`Collections by ${name}`} className={query.isPlaceholderData ? 'opacity-60' : undefined}>
            {data.collections.map((c, i) => (
              <li key={c.id}>
                <MarketCard collection={c} eager={i < 4} />
              </li>
            ))}
          </CollectionGrid>
        )}
        {query.isError ? (
          <LoadError message={getErrorMessage(query.error, 'Failed to load collections')} onRetry={() => void query.refetch()} />
        ) : null}
        {pagination ? <Pagination {...pagination} sizes={MARKET_PAGE_SIZES} /> : null}
      </section>
    </PageContainer>
  );
}

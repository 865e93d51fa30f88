/**
 * A seller's public page (/creator/:id; Gumroad's profile page, the spec's /profile stays as it is):
 * who they are (the profile header, `header`, from the profile feature), their reviews summed over
 * their published collections, how many they publish and have sold, and the grid of those
 * collections. Public; every collection page's 'by …' link leads here. A 404 reads 'Creator not
 * found'; any other failure says so with Try again.
 */
import type { CreatorData } from '@coffer/contract';
import { PackageOpen, RotateCcw, UserX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { PageContainer } from '@/components/ui/page';
import { ApiError, getErrorMessage } from '@/lib/api-client';
import { useCreator } from '../api/get-creator';
import { ProfileSelling } from './profile-selling';
import { RatingSummary } from './star-rating';

export function CreatorPage({
  userId,
  header,
  headerSkeleton,
}: {
  userId: string;
  /** The profile header of `creator` (the profile feature's, composed by the route). */
  header: (creator: CreatorData['creator']) => ReactNode;
  headerSkeleton: ReactNode;
}) {
  const query = useCreator(userId);
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <PageContainer>
        <EmptyState
          icon={missing ? <UserX /> : <PackageOpen />}
          title={missing ? 'Creator not found' : 'Could not load this page'}
          description={missing ? 'This creator does not exist or has left Coffer.' : getErrorMessage(query.error)}
          action={
            <div className="flex flex-wrap justify-center gap-3">
              {missing ? null : (
                <Button onClick={() => void query.refetch()}>
                  <RotateCcw className="size-4" aria-hidden="true" />
                  Try again
                </Button>
              )}
              <Link to="/" className={buttonVariants({ variant: 'outline' })}>
                Browse collections
              </Link>
            </div>
          }
        />
      </PageContainer>
    );
  }
  const data = query.data;
  return (
    <PageContainer>
      <div className="rounded-2xl border border-slate-200 bg-gradient-to-br from-brand-50 via-white to-white p-6 sm:p-8 dark:border-slate-800 dark:from-brand-500/10 dark:via-slate-900 dark:to-slate-900">
        {data ? header(data.creator) : headerSkeleton}
        {data ? (
          <dl className="mt-5 flex flex-wrap items-center gap-x-6 gap-y-2 text-sm" data-testid="creator-stats">
            <div>
              <dt className="sr-only">Rating</dt>
              <dd>
                <RatingSummary sum={data.rating_sum} count={data.rating_count} />
              </dd>
            </div>
            <div className="flex items-baseline gap-1.5">
              <dd className="font-semibold text-slate-900 tabular-nums dark:text-white">{data.published.toLocaleString('en-US')}</dd>
              <dt className="text-slate-500 dark:text-slate-400">published collection{data.published === 1 ? '' : 's'}</dt>
            </div>
            <div className="flex items-baseline gap-1.5">
              <dd className="font-semibold text-slate-900 tabular-nums dark:text-white">{data.sold.toLocaleString('en-US')}</dd>
              <dt className="text-slate-500 dark:text-slate-400">sold</dt>
            </div>
          </dl>
        ) : null}
      </div>
      <div className="mt-8">
        <ProfileSelling userId={userId} isOwn={false} />
      </div>
    </PageContainer>
  );
}

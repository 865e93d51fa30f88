/**
 * /resource/{id}: the file's data (name, type, size, MD5, added date), its collection, and the
 * same buy / download logic as the collection page (Buy is the orders feature's, a slot the route
 * fills: app/routes/resource.tsx).
 */
import type { Collection } from '@coffer/contract';
import { ArrowRight, FileQuestion } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { PageContainer } from '@/components/ui/page';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, getErrorMessage } from '@/lib/api-client';
import { formatDate, formatFileSize } from '@/lib/format';
import { useResourceDetail } from '../api/get-resource-detail';
import { BannerImage } from '@/components/ui/banner-image';
import { DownloadButton } from './download-button';
import { FileTypeIcon } from './file-icon';
import { formatPointsLabel } from '@/lib/points';

/**
 * @param viewer the signed-in user's id, or null for a visitor
 * @param buy the Buy button for the file's collection, shown to whoever cannot download it yet
 */
export function ResourceDetailView({
  id,
  viewer,
  buy,
}: {
  id: string;
  viewer: { id: string | null };
  buy?: (props: { collection: Collection; purchased: boolean }) => ReactNode;
}) {
  const query = useResourceDetail(id, viewer.id);
  if (query.isPending) {
    return (
      <PageContainer className="max-w-3xl">
        <div role="status" aria-label="Loading file" className="space-y-4">
          <Skeleton className="h-10 w-2/3" />
          <Skeleton className="h-48 w-full rounded-2xl" />
        </div>
      </PageContainer>
    );
  }
  if (query.isError) {
    const browse = (
      <Link to="/" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
        Browse collections
      </Link>
    );
    // No answer: the shared load error with Try again; an answer that refused: the file is not there.
    const unreachable = query.error instanceof ApiError && query.error.status === 0;
    return (
      <PageContainer>
        <h1 className="mb-6 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">Resource</h1>
        {unreachable ? (
          <LoadError
            className="rounded-2xl border border-dashed border-slate-300 px-6 py-12 dark:border-slate-700"
            message="Could not load this file"
            detail="Check your connection and try again."
            onRetry={() => void query.refetch()}
          >
            {browse}
          </LoadError>
        ) : (
          <EmptyState icon={<FileQuestion />} title="File not found" description={getErrorMessage(query.error)} action={browse} />
        )}
      </PageContainer>
    );
  }
  const { resource, collection, purchased } = query.data;
  const isOwner = viewer.id !== null && viewer.id === collection.owner_id;
  const canDownload = isOwner || purchased;

  return (
    <PageContainer className="max-w-3xl">
      <div className="flex items-start gap-4">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
          <FileTypeIcon contentType={resource.content_type} name={resource.name} className="size-6" />
        </span>
        <div className="min-w-0 flex-1">
          <h1 className="text-2xl font-semibold wrap-anywhere text-slate-900 dark:text-white">{resource.name}</h1>
          <p className="mt-1 text-sm wrap-anywhere text-slate-500 dark:text-slate-400">
            in{' '}
            <Link to={`/collection/${collection.id}`} className="font-medium text-brand-700 hover:underline dark:text-brand-300">
              {collection.title}
            </Link>
          </p>
        </div>
      </div>
      <Card className="mt-6 p-5">
        <dl className="grid gap-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Size</dt>
            <dd className="font-medium text-slate-900 tabular-nums dark:text-white">{formatFileSize(resource.size)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Type</dt>
            <dd className="font-medium break-all text-slate-900 dark:text-white">{resource.content_type}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Added</dt>
            <dd className="font-medium text-slate-900 dark:text-white">{formatDate(resource.created_at)}</dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="text-xs text-slate-500 dark:text-slate-400">MD5</dt>
            <dd className="flex items-center gap-1 font-mono text-xs break-all text-slate-900 dark:text-white">
              {resource.md5}
              <CopyButton value={resource.md5} label="Copy MD5" successMessage="MD5 copied to clipboard" />
            </dd>
          </div>
        </dl>
        <div className="mt-5 border-t border-slate-100 pt-5 dark:border-slate-800">
          {canDownload ? (
            <DownloadButton size="lg" className="w-full" target={{ collectionId: collection.id, resourceId: resource.id, name: resource.name }} />
          ) : (
            <div className="space-y-3">
              <p className="text-sm wrap-anywhere text-slate-600 dark:text-slate-400">
                This file comes with <span className="font-medium">{collection.title}</span> for {formatPointsLabel(collection.amount)}.
              </p>
              {buy?.({ collection, purchased })}
            </div>
          )}
        </div>
      </Card>
      <Link
        to={`/collection/${collection.id}`}
        className="group mt-6 flex items-center gap-4 rounded-2xl border border-slate-200 p-3 hover:border-brand-300 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:border-slate-800 dark:hover:border-brand-500/50"
      >
        <div className="w-28 shrink-0 overflow-hidden rounded-lg sm:w-40">
          <BannerImage src={collection.banner} alt="" />
        </div>
        <div className="min-w-0 flex-1">
          <p className="text-xs text-slate-500 dark:text-slate-400">Part of the collection</p>
          <p className="truncate font-medium text-slate-900 dark:text-white" title={collection.title}>
            {collection.title}
          </p>
          <p className="text-sm text-slate-600 tabular-nums dark:text-slate-400">
            {formatPointsLabel(collection.amount)} · {collection.resource_count} file{collection.resource_count === 1 ? '' : 's'}
          </p>
        </div>
        <ArrowRight className="size-4 shrink-0 text-slate-400 transition-transform group-hover:translate-x-0.5" aria-hidden="true" />
      </Link>
    </PageContainer>
  );
}

/**
 * The files of a collection the viewer bought, each with its Download button (My Purchases opens
 * one row at a time; the orders feature takes this as its `files` slot, composed in
 * app/routes/profile/buy.tsx).
 */
import { Skeleton } from '@/components/ui/skeleton';
import { LoadError } from '@/components/ui/load-error';
import { getErrorMessage } from '@/lib/api-client';
import { useCollectionDetail } from '../api/get-collection-detail';
import { ResourceList } from './resource-list';

export function PurchasedFiles({ collectionId, viewerId }: { collectionId: string; viewerId: string }) {
  const detail = useCollectionDetail(collectionId, viewerId);
  if (detail.isPending) return <Skeleton className="h-16 w-full" />;
  if (detail.isError) return <LoadError className="py-4" message={getErrorMessage(detail.error)} onRetry={() => void detail.refetch()} />;
  return <ResourceList resources={detail.data.resources} collectionId={collectionId} canDownload />;
}

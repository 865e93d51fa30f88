/**
 * /collection/:id — collection detail (features/collections), composed here with the wallet's
 * Top-up modal (features may not import each other): the buy dialog's 'Top up' opens it, and the
 * balance shown in the confirmation comes from the wallet's assets query. The owner's 'Add files'
 * and per-file 'Replace' (features/uploads) load only when an owner's page shows them.
 */
import { lazy, Suspense } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { useParams } from 'react-router';
import { CollectionDetailView, CollectionNotFound } from '@/features/collections/components/collection-detail';
import type { ReplaceFileSlot } from '@/features/collections/components/resource-list';
import { useViewerWallet } from './collection-wallet';

const AddFiles = lazy(() => import('./collection-uploads').then((m) => ({ default: m.AddFiles })));
const addFiles = (collectionId: string) => <AddFiles collectionId={collectionId} />;
const ReplaceFile = lazy(() => import('./collection-uploads').then((m) => ({ default: m.ReplaceFile })));
const replaceFile: ReplaceFileSlot = (target) => (
  <Suspense fallback={<Skeleton className="h-32 w-full rounded-xl" />}>
    <ReplaceFile {...target} />
  </Suspense>
);

export default function CollectionRoute() {
  const { id } = useParams();
  const { viewer, openTopUp, topUp } = useViewerWallet();
  if (!id) return <CollectionNotFound />;
  return (
    <>
      <CollectionDetailView
        id={id}
        viewer={viewer}
        onTopUp={viewer.id ? openTopUp : undefined}
        addFiles={addFiles}
        replaceFile={replaceFile}
      />
      {topUp}
    </>
  );
}

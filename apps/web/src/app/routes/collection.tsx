/**
 * /collection/:id — collection detail (features/collections), composed here with the wallet's
 * Top-up modal (features may not import each other): the buy dialog's 'Top up' opens it, and the
 * balance shown in the confirmation comes from the wallet's assets query. The owner's 'Add files'
 * (features/uploads) loads only when an owner's page shows it.
 */
import { lazy } from 'react';
import { useParams } from 'react-router';
import { CollectionDetailView, CollectionNotFound } from '@/features/collections/components/collection-detail';
import { useViewerWallet } from './collection-wallet';

const AddFiles = lazy(() => import('./collection-uploads').then((m) => ({ default: m.AddFiles })));
const addFiles = (collectionId: string) => <AddFiles collectionId={collectionId} />;

export default function CollectionRoute() {
  const { id } = useParams();
  const { viewer, openTopUp, topUp } = useViewerWallet();
  if (!id) return <CollectionNotFound />;
  return (
    <>
      <CollectionDetailView id={id} viewer={viewer} onTopUp={viewer.id ? openTopUp : undefined} addFiles={addFiles} />
      {topUp}
    </>
  );
}

/**
 * /collection/:id — collection detail (features/collections), composed here with the wallet's
 * Top-up modal (features may not import each other): the buy dialog's 'Top up' opens it, and the
 * balance shown in the confirmation comes from the wallet's assets query.
 */
import { useParams } from 'react-router';
import { CollectionDetailView, CollectionNotFound } from '../../features/collections/components/collection-detail';
import { useViewerWallet } from './collection-wallet';

export default function CollectionRoute() {
  const { id } = useParams();
  const { viewer, openTopUp, topUp } = useViewerWallet();
  if (!id) return <CollectionNotFound />;
  return (
    <>
      <CollectionDetailView id={id} viewer={viewer} onTopUp={viewer.id ? openTopUp : undefined} />
      {topUp}
    </>
  );
}

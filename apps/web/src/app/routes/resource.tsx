/** /resource/:id — resource detail (features/collections) with the wallet's Top-up modal composed in. */
import { useParams } from 'react-router';
import { ResourceDetailView } from '@/features/collections/components/resource-detail';
import { useViewerWallet } from './collection-wallet';

export default function ResourceRoute() {
  const { id } = useParams();
  const { viewer, openTopUp, topUp } = useViewerWallet();
  return (
    <>
      <ResourceDetailView id={id ?? ''} viewer={viewer} onTopUp={viewer.id ? openTopUp : undefined} />
      {topUp}
    </>
  );
}

/**
 * /collection/:id/edit — the owner edits a collection with the create form (product §24). Guarded
 * (signed in); another user's collection answers the not-found screen, as the server would.
 */
import { useParams } from 'react-router';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useCollectionDetail } from '@/features/collections/api/get-collection-detail';
import { useLicenceSettings } from '@/features/collections/api/licence-settings';
import { CollectionDetailSkeleton, CollectionNotFound } from '@/features/collections/components/collection-detail';
import { CreateCollectionForm } from '@/features/collections/components/create-collection-form';

export default function CollectionEditRoute() {
  const { id } = useParams();
  const userId = useAuthStore((s) => (s.isAuthenticated ? (s.user?.id ?? null) : null));
  const query = useCollectionDetail(id ?? '', userId);
  const licence = useLicenceSettings(id ?? '');
  if (!id) return <CollectionNotFound />;
  if (query.isPending || licence.isPending) return <CollectionDetailSkeleton />;
  if (query.isError) return <CollectionNotFound error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.collection.owner_id !== userId) return <CollectionNotFound />;
  return (
    <CreateCollectionForm
      key={query.data.collection.id}
      editing={query.data.collection}
      editingLicence={licence.data ?? undefined}
    />
  );
}

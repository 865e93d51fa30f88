import { Lock } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PurchasedFiles } from '@/features/collections/components/purchased-files';
import { ProfilePurchases, type PurchasedFilesSlot } from '@/features/orders/components/profile-purchases';
import { useProfileContext } from './context';

/** A purchased collection's files with their downloads (features/collections), opened in My Purchases. */
export const purchasedFiles: PurchasedFilesSlot = (collectionId, viewerId) => (
  <PurchasedFiles collectionId={collectionId} viewerId={viewerId} />
);

/**
 * /profile/:id?/buy — My Purchases: purchased collections with downloads and the orders.
 * Purchases are private: another user's tab says so.
 */
export default function ProfileBuyRoute() {
  const { userId, isOwn } = useProfileContext();
  if (!isOwn) return <EmptyState icon={<Lock />} title="Purchases are private" description="Only the account owner can see what they bought." />;
  return <ProfilePurchases userId={userId} files={purchasedFiles} />;
}

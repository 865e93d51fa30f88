import { Lock } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { ProfilePurchases } from '@/features/collections/components/profile-purchases';
import { useProfileContext } from './context';

/**
 * /profile/:id?/buy — My Purchases: purchased collections with downloads and the orders.
 * Purchases are private: another user's tab says so.
 */
export default function ProfileBuyRoute() {
  const { userId, isOwn } = useProfileContext();
  if (!isOwn) return <EmptyState icon={<Lock />} title="Purchases are private" description="Only the account owner can see what they bought." />;
  return <ProfilePurchases userId={userId} />;
}

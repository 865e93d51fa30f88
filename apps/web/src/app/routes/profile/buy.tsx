import { Lock, ShoppingBag } from 'lucide-react';
import { EmptyState } from '../../../components/ui/empty-state';
import { useProfileContext } from './context';

/**
 * /profile/:id?/buy — My Purchases. Placeholder until the marketplace screens
 * (features/collections) fill it in. Purchases are private: another user's tab says so.
 */
export default function ProfileBuyRoute() {
  const { isOwn } = useProfileContext();
  if (!isOwn) return <EmptyState icon={<Lock />} title="Purchases are private" description="Only the account owner can see what they bought." />;
  return <EmptyState icon={<ShoppingBag />} title="My Purchases" description="Coming soon" />;
}

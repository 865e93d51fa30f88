import { Store } from 'lucide-react';
import { EmptyState } from '../../../components/ui/empty-state';
import { useProfileContext } from './context';

/**
 * /profile/:id?/selling — the collections a user sells. Placeholder until the marketplace screens
 * (features/collections) fill it in; `userId` and `isOwn` come from the profile frame.
 */
export default function ProfileSellingRoute() {
  const { userId, isOwn } = useProfileContext();
  return (
    <div data-user-id={userId}>
      <EmptyState icon={<Store />} title={isOwn ? 'Your collections on sale' : 'Collections on sale'} description="Coming soon" />
    </div>
  );
}

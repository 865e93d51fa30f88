import { Lock } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { EventsPage } from '@/features/events/components/events-page';
import { useProfileContext } from './context';

/** /profile/events — Events & webhooks of the signed-in user (product §23); private to the owner. */
export default function ProfileEventsRoute() {
  const { isOwn } = useProfileContext();
  if (!isOwn)
    return <EmptyState icon={<Lock />} title="Events are private" description="Only the account owner can see their events." />;
  return <EventsPage />;
}

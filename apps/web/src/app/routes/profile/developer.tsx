import { Lock } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { DeveloperPage } from '@/features/developer/components/developer-page';
import { useProfileContext } from './context';

/** /profile/developer — the signed-in user's personal access tokens (ADR 0058); private to the owner. */
export default function ProfileDeveloperRoute() {
  const { isOwn } = useProfileContext();
  if (!isOwn)
    return (
      <EmptyState icon={<Lock />} title="Developer settings are private" description="Only the account owner can see them." />
    );
  return <DeveloperPage />;
}

import { Lock } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { SecurityPage } from '@/features/security/components/security-page';
import { useProfileContext } from './context';

/** /profile/security — two-factor sign-in and sessions of the signed-in user (product §26); private to the owner. */
export default function ProfileSecurityRoute() {
  const { isOwn } = useProfileContext();
  if (!isOwn) return <EmptyState icon={<Lock />} title="Security is private" description="Only the account owner can see it." />;
  return <SecurityPage />;
}

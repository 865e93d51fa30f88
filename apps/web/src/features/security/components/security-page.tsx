/** Your Profile > Security (product §26): two-factor sign-in and the sessions signed in. */
import { SessionsCard } from './sessions-card';
import { TwoFactorCard } from './two-factor-card';

export function SecurityPage() {
  return (
    <div className="space-y-6">
      <TwoFactorCard />
      <SessionsCard />
    </div>
  );
}

import { useAuthStore } from '@/features/auth/stores/auth-store';
import { ReservesPage } from '@/features/reserves/components/reserves-page';

/** /reserves — proof of liabilities (product §22), public; "Check my balance" for a signed-in user. */
export default function ReservesRoute() {
  const signedIn = useAuthStore((s) => s.isAuthenticated);
  return <ReservesPage signedIn={signedIn} />;
}

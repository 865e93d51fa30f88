import { useAuthStore } from '@/features/auth/stores/auth-store';
import { ReservesPage } from '@/features/reserves/components/reserves-page';

/** /reserves — proof of liabilities (product §22), public; "Check my balance" for a signed-in user. */
export default function ReservesRoute() {
  const userId = useAuthStore((s) => (s.isAuthenticated ? (s.user?.id ?? null) : null));
  return <ReservesPage userId={userId} />;
}

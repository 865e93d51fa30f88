import { Storefront } from '@/features/collections/components/storefront';
import { useAuthStore } from '@/features/auth/stores/auth-store';

/** Home (/): the storefront of published collections. */
export default function HomeRoute() {
  const signedIn = useAuthStore((s) => s.isAuthenticated && s.user !== null);
  return <Storefront signedIn={signedIn} />;
}

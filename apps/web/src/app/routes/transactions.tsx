import { useAuthStore } from '@/features/auth/stores/auth-store';
import { TransactionsPage } from '@/features/wallet/components/transactions-page';

/** /transactions — transaction history (guarded): features/wallet's page for the signed-in user. */
export default function TransactionsRoute() {
  const userId = useAuthStore((s) => s.user?.id ?? '');
  return <TransactionsPage userId={userId} />;
}

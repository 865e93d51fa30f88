import { ComingSoon } from '../../components/ui/page';

/** /transactions — transaction history (guarded; built in features/wallet). */
export default function TransactionsRoute() {
  return <ComingSoon title="Transactions" />;
}

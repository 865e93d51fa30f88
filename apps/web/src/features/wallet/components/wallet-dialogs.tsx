/**
 * The wallet's modals behind one state: the balance modal, and the top-up and cash-out modals it
 * opens (one shows at a time). Used by the top bar's balance button and the transactions page.
 */
import type { WithdrawBill } from '@coffer/contract';
import { BalanceDialog } from './balance-dialog';
import { CashOutDialog } from './cash-out-dialog';
import { TopUpDialog } from './top-up-dialog';

export type WalletView = 'balance' | 'topup' | 'cashout' | null;

export interface WalletDialogsProps {
  userId: string;
  view: WalletView;
  onViewChange: (view: WalletView) => void;
  fallbackAvailable?: string;
  onCashOutSuccess?: (bill: WithdrawBill) => void;
}

export function WalletDialogs({ userId, view, onViewChange, fallbackAvailable, onCashOutSuccess }: WalletDialogsProps) {
  const close = (open: boolean) => !open && onViewChange(null);
  return (
    <>
      <BalanceDialog
        open={view === 'balance'}
        onOpenChange={close}
        userId={userId}
        fallbackAvailable={fallbackAvailable}
        onTopUp={() => onViewChange('topup')}
        onCashOut={() => onViewChange('cashout')}
      />
      <TopUpDialog open={view === 'topup'} onOpenChange={close} userId={userId} />
      <CashOutDialog open={view === 'cashout'} onOpenChange={close} userId={userId} onSuccess={onCashOutSuccess} />
    </>
  );
}

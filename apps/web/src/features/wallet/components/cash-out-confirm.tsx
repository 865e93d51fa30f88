/** Step 2 of the cash-out modal ('Confirm withdraw'); see cash-out-dialog.tsx. */
import { PaymentMessages, type WithdrawBill } from '@coffer/contract';
import { ArrowLeft } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toastError } from '@/lib/api-client';
import { useConfirmWithdraw } from '../api/confirm-withdraw';
import { currencyLabel, formatCrypto, formatUsd, netUsd } from '../utils/display';
import { DetailList, DetailRow } from './detail-rows';
import { formatPoints } from '@/lib/points';
import { CashOutTexts, USD_CRYPTO_RATE_TEXT, type CashOutDraft } from './cash-out-texts';

/** Step 2: the created order, the login password and Confirm. */
export function ConfirmStep({
  draft,
  bill,
  creating,
  onBack,
  onConfirmed,
}: {
  draft: CashOutDraft;
  bill: WithdrawBill | null;
  creating: boolean;
  onBack: () => void;
  onConfirmed: (bill: WithdrawBill) => void;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const passwordId = useId();
  const confirm = useConfirmWithdraw();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!password) {
      setError(PaymentMessages.passwordRequired);
      return;
    }
    if (!bill) return;
    setError(null);
    confirm.mutate(
      { billId: bill.id, password },
      {
        onSuccess: (confirmed) => onConfirmed(confirmed ?? bill),
        onError: (err) => toastError(err, CashOutTexts.confirmFailed, 'server'),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <button
        type="button"
        onClick={onBack}
        className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-brand-600 hover:underline focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-brand-400"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back
      </button>
      {bill ? (
        <DetailList>
          <DetailRow label="Amount">{formatUsd(bill.amount_usd)} USD</DetailRow>
          <DetailRow label="Rate">{USD_CRYPTO_RATE_TEXT}</DetailRow>
          <DetailRow label="P-coin">{formatPoints(bill.amount)}</DetailRow>
          <DetailRow label="Network fee">{formatUsd(bill.fee_fiat)} USD</DetailRow>
          <DetailRow label="Receive amount">
            <span className="flex flex-col items-end">
              <span>{netUsd(bill.amount_usd, bill.fee_fiat)} USD</span>
              <span className="font-mono text-xs font-normal text-slate-500 dark:text-slate-400">
                {formatCrypto(bill.currency_amount)} USDT
              </span>
            </span>
          </DetailRow>
          <DetailRow label="Network">{currencyLabel(draft.currency)}</DetailRow>
          <DetailRow label="Address" mono wrap>
            {bill.address}
          </DetailRow>
          {bill.memo ? (
            <DetailRow label="Memo" mono>
              {bill.memo}
            </DetailRow>
          ) : null}
        </DetailList>
      ) : (
        <div
          role="status"
          className="flex items-center justify-center gap-2 rounded-xl border border-dashed border-slate-300 py-8 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300"
        >
          {creating ? <Spinner /> : null}
          <span>{CashOutTexts.creating}</span>
        </div>
      )}
      <Field label="Login password" id={passwordId} error={error}>
        <Input
          id={passwordId}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            if (e.target.value) setError(null);
          }}
          onBlur={() => !password && setError(PaymentMessages.passwordRequired)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${passwordId}-error` : undefined}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={!bill || !password} isLoading={confirm.isPending}>
        Confirm
      </Button>
    </form>
  );
}

/** Step 2 of the cash-out modal ('Confirm withdraw'); see cash-out-dialog.tsx. */
import { PaymentMessages, type WithdrawBill } from '@coffer/contract';
import { ArrowLeft } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useTwoFactorStatus } from '@/hooks/use-two-factor-status';
import { ApiError, toastError } from '@/lib/api-client';
import { ErrorReason, WRONG_CODE_MESSAGE } from '@coffer/contract/constants';
import { useConfirmWithdraw } from '../api/confirm-withdraw';
import { currencyLabel, formatCrypto, formatUsd, netUsd } from '../utils/display';
import { DetailList, DetailRow } from './detail-rows';
import { formatPoints } from '@/lib/points';
import { CashOutTexts, USD_CRYPTO_RATE_TEXT, type CashOutDraft } from './cash-out-texts';

/** Step 2: the created order, the login password (and the two-factor code when it is on, product §26) and Confirm. */
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
  const codeId = useId();
  const confirm = useConfirmWithdraw();
  const twoFactor = useTwoFactorStatus();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  // Shown when the status says so, or when the server asked for a code (the status was stale).
  const [codeAsked, setCodeAsked] = useState(false);
  const needsCode = Boolean(twoFactor.data?.enabled) || codeAsked;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!password) {
      setError(PaymentMessages.passwordRequired);
      return;
    }
    if (needsCode && !code.trim()) {
      setCodeError(CashOutTexts.codeRequired);
      return;
    }
    if (!bill) return;
    setError(null);
    setCodeError(null);
    confirm.mutate(
      { billId: bill.id, password, code: needsCode ? code : undefined },
      {
        onSuccess: (confirmed) => onConfirmed(confirmed ?? bill),
        onError: (err) => {
          if (err instanceof ApiError && err.reason === ErrorReason.TWO_FACTOR_REQUIRED) {
            setCodeAsked(true);
            setCodeError(CashOutTexts.codeRequired);
            return;
          }
          // A wrong password or code shows at its own field too, focused to retype (the toast stays).
          // The password is checked first: 'Incorrect code' means the password was right.
          if (err instanceof ApiError && err.reason === ErrorReason.INVALID_CREDENTIALS) {
            if (needsCode && err.msg === WRONG_CODE_MESSAGE) {
              setCodeError(err.message);
              document.getElementById(codeId)?.focus();
            } else {
              setError(err.message);
              document.getElementById(passwordId)?.focus();
            }
          }
          toastError(err, CashOutTexts.confirmFailed, 'server');
        },
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
            <DetailRow label="Memo" mono wrap>
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
      {needsCode ? (
        <Field label={CashOutTexts.codeLabel} id={codeId} error={codeError} hint={CashOutTexts.codeHint}>
          <Input
            id={codeId}
            autoComplete="one-time-code"
            maxLength={40}
            value={code}
            onChange={(e) => {
              setCode(e.target.value);
              if (e.target.value.trim()) setCodeError(null);
            }}
            aria-invalid={codeError ? true : undefined}
            aria-describedby={codeError ? `${codeId}-error` : `${codeId}-hint`}
            className="font-mono tracking-widest"
          />
        </Field>
      ) : null}
      <Button type="submit" className="w-full" disabled={!bill || !password || (needsCode && !code.trim())} isLoading={confirm.isPending}>
        Confirm
      </Button>
    </form>
  );
}

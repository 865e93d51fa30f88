/**
 * The cash-out modal (SPEC 2, 4, 5): step 1 'Cash out' (USDT network, amount in USD, address,
 * memo when the currency needs one, the amount/address flags and an on-demand fee estimate);
 * step 2 'Confirm withdraw' creates the order ('Creating order...'), then asks for the 'Login
 * password' (sent as MD5). On success the all and outgoing lists are invalidated, `onSuccess`
 * receives the bill, the modal closes and the app goes to /transactions.
 *
 * Amounts: the USD amount x the rate (points per USD = min points / fiat-equivalent minimum,
 * default 100) rounded down to 8 decimals is the `amount` sent (SPEC 5 "Crypto amount sent").
 */
import {
  PaymentMessages,
  RecordCate,
  USD_PER_CRYPTO_UNIT,
  WITHDRAW_ASSET,
  type Currency,
  type WithdrawBill,
} from '@coffer/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CircleCheck, Circle } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field, Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { getErrorMessage, toastError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { CONFIRM_FAILED, useConfirmWithdraw } from '../api/confirm-withdraw';
import { CREATE_WITHDRAW_FAILED, useCreateWithdraw } from '../api/create-withdraw';
import { useEstimateWithdrawFee } from '../api/estimate-withdraw-fee';
import { useCurrencies, withdrawCurrencies } from '../api/get-currencies';
import { useMinAmount } from '../api/get-min-amount';
import { refreshRecordLists } from '../api/get-records';
import { getAssetsQueryOptions } from '../api/get-assets';
import { currencyLabel, formatCrypto, formatUsd, netUsd, networkLabel } from '../utils/display';
import {
  cashOutAmountToSend,
  checkCashOutAmount,
  checkWithdrawCreate,
  deriveFee,
  isPositive,
  meetsMinimum,
  plainDecimal,
  pointsPerUsd,
  validateAddress,
  validateMemo,
  WalletMessages,
} from '../utils/rules';
import { NetworkTabs, networksOf } from './currency-pickers';
import { DetailList, DetailRow } from './detail-rows';
import { LoadError } from './load-error';
import { formatPoints } from '../../../lib/points';

/**
 * SPEC 9 "Displayed rate of 1 USD to 1 crypto unit: fixed at 1": '1 USD = 1 USDT', shown by the
 * amount in USD (step 1) and by the amount and USDT received (step 2), next to '1 USD = 100 P-coin'.
 */
export const USD_CRYPTO_RATE_TEXT = `1 USD = ${USD_PER_CRYPTO_UNIT} ${WITHDRAW_ASSET}`;

/** SPEC 8 "Cash-out" fallbacks. */
export const CashOutTexts = {
  feeFailed: 'Failed to estimate fee',
  createFailed: CREATE_WITHDRAW_FAILED,
  confirmFailed: CONFIRM_FAILED,
  creating: 'Creating order...',
} as const;

export interface CashOutDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
  /** SPEC 4: an optional success callback receives the bill. */
  onSuccess?: (bill: WithdrawBill) => void;
}

export function CashOutDialog({ open, onOpenChange, userId, onSuccess }: CashOutDialogProps) {
  const [step, setStep] = useState<1 | 2>(1);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) setStep(1);
      }}
    >
      {open ? (
        <DialogContent
          title={step === 1 ? 'Cash out' : 'Confirm withdraw'}
          description={step === 1 ? 'Withdraw points as USDT to your own address.' : undefined}
        >
          <CashOutFlow
            userId={userId}
            step={step}
            onStep={setStep}
            onDone={(bill) => {
              onSuccess?.(bill);
              setStep(1);
              onOpenChange(false);
            }}
          />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

interface Draft {
  currency: Currency;
  usd: string;
  sendAmount: string;
  address: string;
  memo: string;
  rate: string;
}

function CashOutFlow({
  userId,
  step,
  onStep,
  onDone,
}: {
  userId: string;
  step: 1 | 2;
  onStep: (s: 1 | 2) => void;
  onDone: (bill: WithdrawBill) => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useCreateWithdraw();
  const [draft, setDraft] = useState<Draft | null>(null);
  // The form's state lives here so that Back from step 2 keeps what was typed.
  const form = useCashOutForm(userId);

  function startOrder(d: Draft) {
    setDraft(d);
    onStep(2);
    create.reset();
    create.mutate(
      {
        currency: d.currency.code,
        amount: d.sendAmount,
        address: d.address.trim(),
        network: networkLabel(d.currency.network),
        memo: d.currency.extra_id_exists ? d.memo.trim() : '',
        user_id: userId,
      },
      {
        onSuccess: (bill) => {
          if (!bill?.id) {
            toast.error(CashOutTexts.createFailed);
            onStep(1);
          }
        },
        onError: (err) => {
          toastError(err, CashOutTexts.createFailed, 'server');
          onStep(1);
        },
      },
    );
  }

  if (step === 2 && draft) {
    return (
      <ConfirmStep
        draft={draft}
        bill={create.data?.id ? create.data : null}
        creating={create.isPending}
        onBack={() => onStep(1)}
        onConfirmed={(bill) => {
          void refreshRecordLists(queryClient, userId, [RecordCate.All, RecordCate.Outgoing]);
          onDone(bill);
          void navigate('/transactions');
        }}
      />
    );
  }
  return <CashOutForm form={form} onSubmit={startOrder} />;
}

/** The state of step 1 (kept while step 2 shows). */
function useCashOutForm(userId: string) {
  const currencies = useCurrencies();
  const list = useMemo(() => withdrawCurrencies(currencies.data ?? []), [currencies.data]);
  const [network, setNetwork] = useState('');
  const [amount, setAmount] = useState('');
  const [address, setAddress] = useState('');
  const [memo, setMemo] = useState('');
  const [touched, setTouched] = useState({ amount: false, address: false, memo: false });
  const assets = useQuery(getAssetsQueryOptions(userId));
  const networks = useMemo(() => networksOf(list), [list]);
  // SPEC 4: the first network is selected automatically when none is chosen.
  const activeNetwork = network && networks.includes(network) ? network : (networks[0] ?? '');
  const currency = list.find((c) => networkLabel(c.network) === activeNetwork);
  const min = useMinAmount(currency?.code);
  const estimate = useEstimateWithdrawFee();
  return {
    currencies,
    list,
    networks,
    network: activeNetwork,
    setNetwork,
    currency,
    amount,
    setAmount,
    address,
    setAddress,
    memo,
    setMemo,
    touched,
    setTouched,
    assets,
    min,
    estimate,
  };
}

type CashOutFormState = ReturnType<typeof useCashOutForm>;

function Flag({ ok, children }: { ok: boolean; children: string }) {
  return (
    <li
      className={cn(
        'flex items-center gap-2 text-xs',
        ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-slate-500 dark:text-slate-400',
      )}
    >
      {ok ? (
        <CircleCheck className="size-4 shrink-0" aria-hidden="true" />
      ) : (
        <Circle className="size-4 shrink-0" aria-hidden="true" />
      )}
      <span>{children}</span>
      <span className="sr-only">{ok ? '(done)' : '(not yet)'}</span>
    </li>
  );
}

function CashOutForm({ form, onSubmit }: { form: CashOutFormState; onSubmit: (d: Draft) => void }) {
  const {
    currencies,
    list,
    networks,
    network,
    setNetwork,
    currency,
    amount,
    setAmount,
    address,
    setAddress,
    memo,
    setMemo,
    touched,
    setTouched,
    assets,
    min,
    estimate,
  } = form;
  const amountId = useId();
  const addressId = useId();
  const memoId = useId();

  const available = assets.data?.available ?? '0';
  const rate = min.isSuccess ? pointsPerUsd(min.data) : null;
  const minUsd = currency?.fiatEquivalent ?? '0';
  const amountCheck = checkCashOutAmount(amount, { rate, available, minUsd });
  const addressError = currency ? validateAddress(address, currency.wallet_regex) : PaymentMessages.addressRequired;
  const memoNeeded = Boolean(currency?.extra_id_exists);
  const memoError = memoNeeded ? validateMemo(memo, currency?.extra_id_regex) : null;
  const sendAmount = rate && amountCheck.amount ? cashOutAmountToSend(amountCheck.amount, rate) : '0';
  const atLeastMin = meetsMinimum(amountCheck.amount, minUsd);
  const canEstimate = Boolean(currency) && atLeastMin && isPositive(sendAmount) && !estimate.isPending;
  const canSubmit =
    Boolean(network) &&
    atLeastMin &&
    address.trim() !== '' &&
    amountCheck.ok &&
    addressError === null &&
    (!memoNeeded || (memo.trim() !== '' && memoError === null));
  const fee = estimate.data && rate ? deriveFee(estimate.data, rate) : null;

  function rateMissing() {
    toast.error(WalletMessages.rateMissing, { id: 'rate-missing' });
    void min.refetch();
  }

  function blurAmount() {
    setTouched((t) => ({ ...t, amount: true }));
    if (amountCheck.amount && isPositive(amountCheck.amount) && !rate && !min.isFetching) rateMissing();
  }

  function blurAddress() {
    setTouched((t) => ({ ...t, address: true }));
    if (addressError === PaymentMessages.invalidAddress) toast.error(PaymentMessages.invalidAddress, { id: 'invalid-address' });
  }

  function blurMemo() {
    setTouched((t) => ({ ...t, memo: true }));
    if (memoError === PaymentMessages.invalidMemo) toast.error(PaymentMessages.invalidMemo, { id: 'invalid-memo' });
  }

  function runEstimate() {
    if (!currency || !canEstimate) return;
    estimate.mutate(
      { currency: currency.code, amount: sendAmount },
      { onError: (err) => toastError(err, CashOutTexts.feeFailed, 'server') },
    );
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    setTouched({ amount: true, address: true, memo: true });
    if (!currency) return;
    if (amountCheck.amount && isPositive(amountCheck.amount) && !rate) {
      rateMissing();
      return;
    }
    const invalid = checkWithdrawCreate(address, amountCheck.amount, minUsd);
    if (invalid) {
      toast.error(invalid);
      return;
    }
    if (!canSubmit || !rate || !amountCheck.amount) return;
    onSubmit({ currency, usd: amountCheck.amount, sendAmount, address, memo, rate });
  }

  if (currencies.isPending) {
    return (
      <div className="space-y-4" role="status" aria-label="Loading currencies">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }
  if (currencies.isError) {
    return <LoadError message={getErrorMessage(currencies.error)} onRetry={() => void currencies.refetch()} />;
  }
  if (list.length === 0) {
    return <p className="py-8 text-center text-sm text-slate-500">Cash-out is not available right now.</p>;
  }

  const label = currency ? currencyLabel(currency) : 'USDT';
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <NetworkTabs
        networks={networks}
        value={network}
        onChange={(n) => {
          setNetwork(n);
          setMemo('');
          setTouched((t) => ({ ...t, address: false, memo: false }));
          estimate.reset();
        }}
      >
        <div className="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-2 text-sm dark:bg-slate-800/50">
          <span className="text-slate-600 dark:text-slate-300">Available</span>
          <span className="font-medium text-slate-900 tabular-nums dark:text-white">
            {assets.isPending ? (
              <span
                aria-label="Loading"
                className="inline-block h-4 w-20 animate-pulse rounded-md bg-slate-200/80 align-middle dark:bg-slate-800"
              />
            ) : (
              `${formatPoints(available)} P-coin`
            )}
          </span>
        </div>
        <Field
          label="Amount (USD)"
          id={amountId}
          error={touched.amount ? amountCheck.error : null}
          hint={
            isPositive(minUsd)
              ? `Minimum ${plainDecimal(minUsd)} USD · ${USD_CRYPTO_RATE_TEXT}${rate ? ` · 1 USD = ${plainDecimal(rate)} P-coin` : ''}${isPositive(sendAmount) ? ` · you cash out ${formatPoints(sendAmount)} P-coin` : ''}`
              : undefined
          }
        >
          <Input
            id={amountId}
            inputMode="decimal"
            autoComplete="off"
            placeholder="0.00"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              setTouched((t) => ({ ...t, amount: true }));
              estimate.reset();
            }}
            onBlur={blurAmount}
            aria-invalid={touched.amount && amountCheck.error ? true : undefined}
            aria-describedby={touched.amount && amountCheck.error ? `${amountId}-error` : `${amountId}-hint`}
            className="text-right font-mono tabular-nums"
          />
        </Field>
        <Field label={`${label} address`} id={addressId} error={touched.address ? addressError : null}>
          <Input
            id={addressId}
            autoComplete="off"
            spellCheck={false}
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            onBlur={blurAddress}
            aria-invalid={touched.address && addressError ? true : undefined}
            aria-describedby={touched.address && addressError ? `${addressId}-error` : undefined}
            className="font-mono text-[13px]"
          />
        </Field>
        {memoNeeded ? (
          <Field label="Memo" id={memoId} error={touched.memo ? memoError : null}>
            <Input
              id={memoId}
              autoComplete="off"
              spellCheck={false}
              value={memo}
              onChange={(e) => setMemo(e.target.value)}
              onBlur={blurMemo}
              aria-invalid={touched.memo && memoError ? true : undefined}
              aria-describedby={touched.memo && memoError ? `${memoId}-error` : undefined}
              className="font-mono text-[13px]"
            />
          </Field>
        ) : null}
        <ul className="space-y-1.5" aria-label="Checks">
          <Flag ok={amountCheck.ok}>Amount is at least the minimum and within your balance</Flag>
          <Flag ok={addressError === null}>{`Address matches the ${label} format`}</Flag>
          {memoNeeded ? <Flag ok={memo.trim() !== '' && memoError === null}>Memo entered in the right format</Flag> : null}
        </ul>
        <div className="rounded-lg border border-slate-200 px-3 py-2 dark:border-slate-700">
          <div className="flex items-center justify-between gap-2">
            <span className="text-sm font-medium text-slate-700 dark:text-slate-300">Network fee</span>
            <Button variant="link" size="sm" onClick={runEstimate} disabled={!canEstimate} isLoading={estimate.isPending}>
              Estimate fee
            </Button>
          </div>
          {fee ? (
            <dl className="mt-1 space-y-1 text-sm" data-testid="fee-estimate">
              <div className="flex justify-between">
                <dt className="text-slate-500 dark:text-slate-400">Fee (USD)</dt>
                <dd className="tabular-nums">{formatUsd(fee.feeUsd)} USD</dd>
              </div>
              <div className="flex justify-between">
                <dt className="text-slate-500 dark:text-slate-400">Fee (P-coin)</dt>
                <dd className="tabular-nums">{formatPoints(fee.feePoints)}</dd>
              </div>
              <div className="flex justify-between font-medium">
                <dt>Net points</dt>
                <dd className="tabular-nums">{formatPoints(fee.netPoints)}</dd>
              </div>
            </dl>
          ) : (
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              Enter at least the minimum amount to estimate the fee.
            </p>
          )}
        </div>
        <Button type="submit" className="w-full" disabled={!canSubmit}>
          Continue
        </Button>
      </NetworkTabs>
    </form>
  );
}

function ConfirmStep({
  draft,
  bill,
  creating,
  onBack,
  onConfirmed,
}: {
  draft: Draft;
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

/** Step 1 of the cash-out modal ('Cash out'); see cash-out-dialog.tsx. */
import { PaymentMessages } from '@coffer/contract';
import { useQuery } from '@tanstack/react-query';
import { CircleCheck, Circle } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage, toastError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useEstimateWithdrawFee } from '../api/estimate-withdraw-fee';
import { useCurrencies, withdrawCurrencies } from '../api/get-currencies';
import { useMinAmount } from '../api/get-min-amount';
import { getAssetsQueryOptions } from '../api/get-assets';
import { currencyLabel, formatUsd, networkLabel } from '../utils/display';
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
import { LoadError } from '@/components/ui/load-error';
import { formatPoints } from '@/lib/points';
import { CashOutTexts, USD_CRYPTO_RATE_TEXT, type CashOutDraft } from './cash-out-texts';

/** The state of step 1 (kept while step 2 shows). */
export function useCashOutForm(userId: string) {
  const currencies = useCurrencies();
  const list = useMemo(() => withdrawCurrencies(currencies.data ?? []), [currencies.data]);
  const [network, setNetwork] = useState('');
  const [amount, setAmount] = useState('');
  const [address, setAddress] = useState('');
  const [memo, setMemo] = useState('');
  const [touched, setTouched] = useState({ amount: false, address: false, memo: false });
  const assets = useQuery(getAssetsQueryOptions(userId));
  const networks = useMemo(() => networksOf(list), [list]);
  // product §4: the first network is selected automatically when none is chosen.
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

export type CashOutFormState = ReturnType<typeof useCashOutForm>;

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

/** How long after the last change of the amount the fee is estimated by itself (ms). */
export const FEE_ESTIMATE_DELAY_MS = 400;

/** Step 1: network, amount, address, memo, the flags and the fee estimate. */
export function CashOutForm({ form, onSubmit }: { form: CashOutFormState; onSubmit: (d: CashOutDraft) => void }) {
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

  // The fee is estimated by itself once the amount is valid (FEE_ESTIMATE_DELAY_MS after the last
  // keystroke); 'Estimate fee' asks again at any time.
  const autoEstimate = Boolean(currency) && atLeastMin && isPositive(sendAmount) && !estimate.data && !estimate.isPending && !estimate.isError;
  const estimateRef = useRef(runEstimate);
  estimateRef.current = runEstimate;
  useEffect(() => {
    if (!autoEstimate) return;
    const timer = setTimeout(() => estimateRef.current(), FEE_ESTIMATE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [autoEstimate, currency?.code, sendAmount]);

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
          // The format toasts were about the old network's patterns: they go with it.
          toast.dismiss('invalid-address');
          toast.dismiss('invalid-memo');
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
            onChange={(e) => {
              setAddress(e.target.value);
              // The blur's 'Invalid address format' toast is about the old text: it goes with it.
              toast.dismiss('invalid-address');
            }}
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
              onChange={(e) => {
                setMemo(e.target.value);
                toast.dismiss('invalid-memo');
              }}
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
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" aria-live="polite">
              {atLeastMin && isPositive(sendAmount)
                ? estimate.isError
                  ? getErrorMessage(estimate.error, CashOutTexts.feeFailed, 'server')
                  : 'Estimating the network fee…'
                : 'Enter at least the minimum amount to estimate the fee.'}
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

/**
 * Step 2 of the top-up modal, also the deposit bill detail (product §2, §4): two pages.
 *
 * - Order Details: amount in USD, P-coin, pay amount in crypto (8 decimals), status, time left
 *   (1800 s countdown), network, date, order id and Proceed to Pay (only while processing).
 * - Scan to Pay: pay amount, a 160 px QR code of the deposit address, the address with a copy
 *   button, the memo with a copy button and the warning that a transfer without it cannot be
 *   matched (rails that need one: TON), the network label, the send-only warning, the order id and Check Payment Status (only
 *   while processing); in sandbox mode also 'Simulate payment'.
 *
 * A check that finds DepositStatusSuccess turns the button green ('Payment Confirmed'), toasts
 * 'Payment confirmed', refreshes the incoming and all record lists and calls `onConfirmed` after
 * 3 s (the modal closes). Otherwise 'Payment not completed yet'; a failure 'Failed to check status'.
 */
import type { DepositBill } from '@coffer/contract';
import { DepositStatus, PAYMENT_CONFIRMED_CLOSE_DELAY_MS, QR_CODE_SIZE_PX, RecordCate } from '@coffer/contract/constants';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CircleCheck, FlaskConical, TriangleAlert } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { getDepositBill } from '../api/get-deposit-bill';
import { refreshRecordLists } from '../api/get-records';
import { simulatePayment } from '../api/simulate-payment';
import { useNow } from '../hooks/use-now';
import {
  currencyLabel,
  depositPhase,
  depositStatusView,
  formatCountdown,
  formatCrypto,
  formatUsd,
  networkLabel,
  secondsLeft,
  symbolOfCode,
} from '../utils/display';
import { DetailList, DetailRow } from './detail-rows';
import { formatAmount } from '@/lib/points';
import { toastError } from '@/lib/api-client';

/** product §8 "Top-up and orders". */
export const DepositTexts = {
  notCompleted: 'Payment not completed yet',
  checkFailed: 'Failed to check status',
  confirmed: 'Payment confirmed',
  addressCopied: 'Address copied to clipboard',
  copyFailed: 'Failed to copy address',
  memoCopied: 'Memo copied to clipboard',
  memoCopyFailed: 'Failed to copy memo',
  /** Rails that tell orders apart by memo (TON): one deposit address for everyone. */
  memoWarning: 'Enter this memo as the comment of your transfer. A transfer without it cannot be matched to your order and will not be credited.',
} as const;

export type DepositPage = 'details' | 'pay';

export interface DepositOrderViewProps {
  bill: DepositBill;
  userId: string;
  /** Sandbox payments: show 'Simulate payment' on Scan to Pay. */
  sandbox?: boolean;
  page: DepositPage;
  onPageChange: (page: DepositPage) => void;
  /** Back from Order Details (the top-up modal's step 1); no Back button without it. */
  onBack?: () => void;
  /** Runs 3 s after the payment is confirmed (closes the modal). */
  onConfirmed?: () => void;
}

function BackLink({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="-mt-1 inline-flex items-center gap-1 rounded-md text-sm font-medium text-brand-600 hover:underline focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-brand-400"
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      Back
    </button>
  );
}

export function DepositOrderView({
  bill: initialBill,
  userId,
  sandbox,
  page,
  onPageChange,
  onBack,
  onConfirmed,
}: DepositOrderViewProps) {
  const queryClient = useQueryClient();
  const [bill, setBill] = useState(initialBill);
  const [confirmed, setConfirmed] = useState(false);
  const [checking, setChecking] = useState(false);
  const [simulating, setSimulating] = useState(false);
  const closeTimer = useRef<number | undefined>(undefined);
  const onConfirmedRef = useRef(onConfirmed);
  onConfirmedRef.current = onConfirmed;

  useEffect(() => setBill(initialBill), [initialBill]);
  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  const phase = depositPhase(bill.status);
  const processing = phase === 'processing' && !confirmed;
  const now = useNow(1000, processing);
  const status = confirmed ? depositStatusView(DepositStatus.Success) : depositStatusView(bill.status);
  const symbol = symbolOfCode(bill.pay_currency);
  const payAmount = `${formatCrypto(bill.currency_amount)} ${symbol}`;
  // What arrived so far and what it was credited (docs/payments.md "Credit rule"): a short, excess,
  // second or late payment shows here as it is credited.
  const received = Number(bill.paid_currency_amount ?? 0) > 0;

  function markConfirmed() {
    setConfirmed(true);
    toast.success(DepositTexts.confirmed);
    void refreshRecordLists(queryClient, userId, [RecordCate.Income, RecordCate.All]);
    window.clearTimeout(closeTimer.current);
    closeTimer.current = window.setTimeout(() => onConfirmedRef.current?.(), PAYMENT_CONFIRMED_CLOSE_DELAY_MS);
  }

  async function checkStatus() {
    setChecking(true);
    try {
      const fresh = await getDepositBill(userId, bill.id);
      setBill(fresh);
      if (fresh.status === DepositStatus.Success) markConfirmed();
      else toast(DepositTexts.notCompleted, { icon: '⏳' });
    } catch (err) {
      toastError(err, DepositTexts.checkFailed, 'server');
    } finally {
      setChecking(false);
    }
  }

  async function simulate() {
    setSimulating(true);
    try {
      await simulatePayment(bill.id);
    } catch (err) {
      toastError(err, 'Failed to simulate payment', 'server');
      setSimulating(false);
      return;
    }
    setSimulating(false);
    await checkStatus();
  }

  if (page === 'details') {
    return (
      <div className="space-y-5">
        {onBack ? <BackLink onClick={onBack} /> : null}
        <div className="rounded-xl bg-slate-50 px-4 py-4 text-center dark:bg-slate-800/50">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">Top-up amount</p>
          <p className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums dark:text-white">
            {formatUsd(bill.amount_usd)} USD
          </p>
          <p className="mt-0.5 text-sm text-slate-600 tabular-nums dark:text-slate-300">
            ≈ {formatAmount(bill.amount, { unit: 'P-coin' })}
          </p>
        </div>
        <DetailList>
          <DetailRow label="Pay amount" mono>
            {payAmount}
          </DetailRow>
          <DetailRow label="Status">
            <Badge tone={status.tone}>{status.label}</Badge>
          </DetailRow>
          {received ? (
            <>
              <DetailRow label="Received" mono>
                {`${formatCrypto(bill.paid_currency_amount)} ${symbol}`}
              </DetailRow>
              <DetailRow label="Credited">{formatAmount(bill.credited_amount, { unit: 'P-coin' })}</DetailRow>
            </>
          ) : null}
          <DetailRow label="Time left">
            <span data-testid="countdown">{processing ? formatCountdown(secondsLeft(bill.created, now)) : '-'}</span>
          </DetailRow>
          <DetailRow label="Network">{networkLabel(bill.network)}</DetailRow>
          <DetailRow label="Date">{formatDateTime(bill.created)}</DetailRow>
          <DetailRow
            label="Order ID"
            mono
            copy={{ value: bill.id, label: 'Copy order ID', success: 'Order ID copied to clipboard' }}
          >
            {bill.id}
          </DetailRow>
        </DetailList>
        {processing ? (
          <Button className="w-full" onClick={() => onPageChange('pay')}>
            Proceed to Pay
          </Button>
        ) : null}
      </div>
    );
  }

  return (
    <div className="space-y-4">
      <BackLink onClick={() => onPageChange('details')} />
      <div className="text-center">
        <p className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">Pay amount</p>
        <p className="mt-1 font-mono text-xl font-semibold break-all text-slate-900 dark:text-white" data-testid="pay-amount">
          {payAmount}
        </p>
      </div>
      <div className="flex justify-center">
        <div className="rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-700">
          <QRCodeSVG
            value={bill.address}
            size={QR_CODE_SIZE_PX}
            marginSize={0}
            title={`Deposit address ${bill.address}`}
            data-testid="deposit-qr"
          />
        </div>
      </div>
      <div>
        <p className="mb-1 text-xs font-medium text-slate-500 dark:text-slate-400">
          Deposit address ({currencyLabel({ code: bill.pay_currency, network: bill.network })})
        </p>
        <div className="flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 dark:border-slate-700 dark:bg-slate-800/50">
          <code
            className="min-w-0 flex-1 font-mono text-[13px] break-all text-slate-900 dark:text-slate-100"
            data-testid="deposit-address"
          >
            {bill.address}
          </code>
          <CopyButton
            value={bill.address}
            label="Copy address"
            successMessage={DepositTexts.addressCopied}
            errorMessage={DepositTexts.copyFailed}
          />
        </div>
      </div>
      {bill.extra_id ? (
        <div>
          <p className="mb-1 text-xs font-medium text-slate-500 dark:text-slate-400">Memo (comment)</p>
          <div className="flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 dark:border-slate-700 dark:bg-slate-800/50">
            <code
              className="min-w-0 flex-1 font-mono text-[13px] break-all text-slate-900 dark:text-slate-100"
              data-testid="deposit-memo"
            >
              {bill.extra_id}
            </code>
            <CopyButton
              value={bill.extra_id}
              label="Copy memo"
              successMessage={DepositTexts.memoCopied}
              errorMessage={DepositTexts.memoCopyFailed}
            />
          </div>
          <p
            className="mt-2 flex gap-2 rounded-lg bg-red-50 px-3 py-2 text-xs text-red-900 dark:bg-red-500/10 dark:text-red-200"
            role="note"
            data-testid="deposit-memo-warning"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>{DepositTexts.memoWarning}</span>
          </p>
        </div>
      ) : null}
      <p className="flex gap-2 rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          Send only {symbol} on the {networkLabel(bill.network)} network to this address. Any other asset or network will be lost.
        </span>
      </p>
      <DetailList>
        <DetailRow label="Network">{currencyLabel({ code: bill.pay_currency, network: bill.network })}</DetailRow>
        <DetailRow
          label="Order ID"
          mono
          copy={{ value: bill.id, label: 'Copy order ID', success: 'Order ID copied to clipboard' }}
        >
          {bill.id}
        </DetailRow>
      </DetailList>
      <div className="flex flex-col-reverse gap-2 sm:flex-row [&>*]:sm:flex-1">
        {sandbox && processing ? (
          <Button variant="outline" onClick={() => void simulate()} isLoading={simulating} disabled={checking}>
            <FlaskConical className="size-4" aria-hidden="true" />
            Simulate payment
          </Button>
        ) : null}
        {confirmed ? (
          <Button
            className={cn('bg-emerald-600 hover:bg-emerald-600 disabled:opacity-100 dark:bg-emerald-600')}
            disabled
            aria-live="polite"
          >
            <CircleCheck className="size-4" aria-hidden="true" />
            Payment Confirmed
          </Button>
        ) : processing ? (
          <Button onClick={() => void checkStatus()} isLoading={checking} disabled={simulating}>
            Check Payment Status
          </Button>
        ) : null}
      </div>
    </div>
  );
}

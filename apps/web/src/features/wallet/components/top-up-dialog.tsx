/**
 * The top-up modal (product §2, §4, §5): step 1 picks a network (tab strip), a token (default USDT,
 * else the first; default network the first) and an amount in that token, showing 'You will get:
 * N points' (2 decimals, points = amount x min points / min crypto). Continue creates the bill
 * (`deposit` with the points, 2 decimals) and step 2 shows {@link DepositOrderView}. Back goes from
 * Scan to Pay to Order Details, then to step 1; closing resets the order. The incoming and all
 * record lists (the page's and the balance modal's) refresh when the order is created, so its
 * Pending row shows at once, and again when the payment is confirmed (product §4 "Top-up flow").
 */
import type { Currency, DepositBill } from '@coffer/contract';
import { RecordCate, WITHDRAW_ASSET } from '@coffer/contract/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage, toastError } from '@/lib/api-client';
import { useActionKey, useSingleFlight } from '@/lib/idempotency';
import { useCreateDeposit } from '../api/create-deposit';
import { useCurrencies } from '../api/get-currencies';
import { useMinAmount } from '../api/get-min-amount';
import { usePublicConfig } from '../api/get-public-config';
import { refreshRecordLists } from '../api/get-records';
import { networkLabel } from '../utils/display';
import { parseDecimalInput, plainDecimal, topUpPoints, validateTopUpAmount } from '../utils/rules';
import { NetworkTabs, networksOf, TokenChooser } from './currency-pickers';
import { DepositOrderView, type DepositPage } from './deposit-order-view';
import { LoadError } from '@/components/ui/load-error';
import { formatPoints } from '@/lib/points';

/** product §8 "Top-up and orders". */
export const TopUpTexts = {
  created: 'Order created successfully',
  createFailed: 'Failed to create order',
} as const;

/** product §9 "Default token": USDT, else the first. */
export function defaultToken(onNetwork: Currency[]): Currency | undefined {
  return onNetwork.find((c) => c.symbol.toUpperCase() === WITHDRAW_ASSET) ?? onNetwork[0];
}

export interface TopUpDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
}

export function TopUpDialog({ open, onOpenChange, userId }: TopUpDialogProps) {
  const [title, setTitle] = useState('Top-up');
  // Closing resets the order (product §2): the flow unmounts and the next opening starts at step 1.
  const handleOpenChange = (next: boolean) => {
    if (!next) setTitle('Top-up');
    onOpenChange(next);
  };
  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      {open ? (
        <DialogContent title={title} description={title === 'Top-up' ? 'Buy points with crypto.' : undefined}>
          <TopUpFlow userId={userId} onTitle={setTitle} onClose={() => handleOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function TopUpFlow({ userId, onTitle, onClose }: { userId: string; onTitle: (t: string) => void; onClose: () => void }) {
  const [bill, setBill] = useState<DepositBill | null>(null);
  const [page, setPage] = useState<DepositPage>('details');
  const config = usePublicConfig();
  const queryClient = useQueryClient();

  useEffect(() => {
    onTitle(bill ? (page === 'details' ? 'Order Details' : 'Scan to Pay') : 'Top-up');
  }, [bill, page, onTitle]);

  if (bill) {
    return (
      <DepositOrderView
        bill={bill}
        userId={userId}
        sandbox={config.data?.sandbox}
        page={page}
        onPageChange={setPage}
        onBack={() => {
          setBill(null);
          setPage('details');
        }}
        onConfirmed={onClose}
      />
    );
  }
  return (
    <TopUpForm
      onCreated={(b) => {
        setBill(b);
        setPage('details');
        void refreshRecordLists(queryClient, userId, [RecordCate.Income, RecordCate.All]);
      }}
    />
  );
}

export function TopUpForm({ onCreated }: { onCreated: (bill: DepositBill) => void }) {
  const currencies = useCurrencies();
  const list = useMemo(() => currencies.data ?? [], [currencies.data]);
  const networks = useMemo(() => networksOf(list), [list]);
  const [network, setNetwork] = useState('');
  const [code, setCode] = useState('');
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const amountId = useId();
  const create = useCreateDeposit();
  const action = useActionKey();
  const flight = useSingleFlight();

  const activeNetwork = network || networks[0] || '';
  const onNetwork = useMemo(() => list.filter((c) => networkLabel(c.network) === activeNetwork), [list, activeNetwork]);
  const currency = onNetwork.find((c) => c.code === code) ?? defaultToken(onNetwork);
  const min = useMinAmount(currency?.code);
  const symbol = currency?.symbol.toUpperCase() ?? '';

  const error = validateTopUpAmount(amount, min.data?.currency_min_amount, symbol);
  const parsed = parseDecimalInput(amount);
  const points = error ? '0.00' : topUpPoints(parsed, min.data);
  const disabled = create.isPending || min.isLoading || !currency || !activeNetwork || Boolean(error) || !min.data;

  function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (disabled || !currency) return;
    const input = { amount: points, pay_currency: currency.code };
    // One bill per intended top-up: a double click sends once, a retry sends the same key.
    flight.run((release) =>
      create.mutate(
        { ...input, idempotencyKey: action.keyFor(input) },
        {
          onSettled: release,
          onSuccess: (bill) => {
            action.done();
            if (!bill?.id) {
              toast.error(TopUpTexts.createFailed);
              return;
            }
            toast.success(TopUpTexts.created);
            onCreated(bill);
          },
          onError: (err) => toastError(err, TopUpTexts.createFailed, 'server'),
        },
      ),
    );
  }

  if (currencies.isPending) {
    return (
      <div className="space-y-4" role="status" aria-label="Loading currencies">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-2/3" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }
  if (currencies.isError) {
    return <LoadError message={getErrorMessage(currencies.error)} onRetry={() => void currencies.refetch()} />;
  }
  if (list.length === 0) {
    return <p className="py-8 text-center text-sm text-slate-500">No currencies are available for top-up right now.</p>;
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <NetworkTabs
        networks={networks}
        value={activeNetwork}
        onChange={(n) => {
          setNetwork(n);
          setCode('');
        }}
      >
        <TokenChooser currencies={onNetwork} value={currency?.code ?? ''} onChange={setCode} />
        <Field
          label={`Amount${symbol ? ` (${symbol})` : ''}`}
          id={amountId}
          error={touched ? error : null}
          hint={
            min.data
              ? `Minimum: ${plainDecimal(min.data.currency_min_amount)} ${symbol}`
              : min.isError
                ? getErrorMessage(min.error)
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
              setTouched(true);
            }}
            onBlur={() => setTouched(true)}
            aria-invalid={touched && error ? true : undefined}
            aria-describedby={touched && error ? `${amountId}-error` : `${amountId}-hint`}
            className="text-right font-mono tabular-nums"
          />
        </Field>
        <p
          className="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-2 text-sm dark:bg-slate-800/50"
          aria-live="polite"
        >
          <span className="text-slate-600 dark:text-slate-300">You will get: {formatPoints(points)} points</span>
        </p>
        <Button type="submit" className="w-full" disabled={disabled} isLoading={create.isPending}>
          Continue
        </Button>
      </NetworkTabs>
    </form>
  );
}

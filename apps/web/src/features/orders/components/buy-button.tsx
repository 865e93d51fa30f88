/**
 * The buy flow behind one button (product §17, product.md §30): visitors see 'Log in to buy'; a
 * buyer opens a confirmation that quotes the order (collection/buy) and shows the ORDER's own
 * amount — never just the list price — with the balance and the balance after; Confirm pays that
 * order with the amount shown (order/pay `amount`). With too few points (known before, or answered
 * INSUFFICIENT_BALANCE) the dialog says 'Insufficient balance' and offers Top-up (`onTopUp`,
 * composed by the route). Owners and buyers who own it already get no button.
 *
 * What order/pay may answer instead of paying, each handled in the dialog (no toast, nothing charged):
 * - STEP_UP_REQUIRED: a password field ('password') or a two-factor code field ('code') appears with
 *   the reason; Confirm sends it with the same amount. A wrong one shows the server's msg under it.
 * - PRICE_CHANGED / ORDER_EXPIRED: the dialog quotes again and shows the new amount with a notice;
 *   the buyer confirms again (never paid without a new click).
 *
 * Discount codes (product §28): "Have a code?" opens a code field; Apply asks discount/preview and the
 * order is then quoted with the code (the dialog shows list price, discount and what the buyer pays).
 * `initialCode` (the detail page's `?code=` link) starts the dialog with that code applied.
 */
import type { Collection, EndpointData, Order } from '@coffer/contract';
import { cmp, sub, CollectionStatus, OrderStatus } from '@coffer/contract/constants';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleAlert, Coins, RefreshCw, ShieldCheck, ShoppingCart, Tag, Wallet, X } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link, useLocation } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '@/components/ui/lazy-dialog';
import { Field, Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage, toastError } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';
import { formatPoints, formatPointsLabel } from '@/lib/points';
import { useActionKey, useSingleFlight } from '@/lib/idempotency';
import { isInsufficientBalance, useQuoteOrder } from '../api/buy-collection';
import { collectionKeys } from '@/lib/market-keys';
import { payRefusal, usePayOrder } from '../api/pay-order';

/** What a discount code takes off a collection (discount/preview). */
export type DiscountPreview = EndpointData<'discountPreview'>;

/**
 * The discount feature's preview call, handed in by the route (features do not import each other):
 * the price of `collectionId` with `code`, rejecting when the code does not apply. Without it the
 * dialog offers no code field. Cached under the same key as the page's `?code=` preview.
 */
export type PreviewDiscount = (collectionId: string, code: string, signal?: AbortSignal) => Promise<DiscountPreview>;

export interface Viewer {
  /** Null for visitors. */
  id: string | null;
  /** Available points (decimal string) when known. */
  available?: string | null;
}

export const BuyTexts = {
  login: 'Log in to buy',
  buy: (amount: number) => `Buy for ${formatPointsLabel(amount)}`,
  getFree: 'Get for free',
  confirmTitle: 'Confirm purchase',
  confirm: 'Confirm purchase',
  insufficient: 'Insufficient balance',
  topUp: 'Top up',
  notForSale: 'Not for sale',
  owned: 'You own this collection',
  /** A refunded buyer cannot buy the same collection again (docs/product.md §25.1). */
  refunded: 'Refunded',
  refundedHelp: 'Your purchase of this collection was refunded. A refunded collection cannot be bought again.',
  haveCode: 'Have a code?',
  codeLabel: 'Discount code',
  apply: 'Apply',
  removeCode: 'Remove code',
  youPay: 'You pay',
  discount: 'Discount',
  buyFailed: 'Failed to buy the collection',
  tryAgain: 'Try again',
  /** product.md §30.5, the server's PRICE_CHANGED msg. */
  priceChanged: 'The price has changed. Please review the new amount and confirm again.',
  /** product §4's wording of a lapsed order (ORDER_EXPIRED). */
  expired: 'Order Expired',
  expiredHelp: 'The price was quoted too long ago. Please review the amount and confirm again.',
  /** product.md §30.4, the server's STEP_UP_REQUIRED msgs. */
  stepUpPassword: 'For your security, enter your password to confirm this purchase.',
  stepUpCode:
    'Two-factor authentication is on: enter the 6-digit code from your authenticator app (or a recovery code) to confirm this purchase.',
  passwordLabel: 'Password',
  codeFieldLabel: 'Two-factor code',
  codeHint: 'The 6-digit code from your authenticator app, or a recovery code.',
  passwordRequired: 'Please enter your password',
  codeRequired: 'Enter the 6-digit code or a recovery code',
} as const;

/** Whether `available` covers `price` (unknown balance: let the server decide). */
export function canAfford(available: string | null | undefined, price: number): boolean {
  if (available === null || available === undefined || available === '') return true;
  try {
    return cmp(available, String(price)) >= 0;
  } catch {
    return true;
  }
}

function Row({ label, value, strong, tone }: { label: string; value: ReactNode; strong?: boolean; tone?: 'red' }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2">
      <dt className="min-w-0 text-sm wrap-anywhere text-slate-600 dark:text-slate-400">{label}</dt>
      <dd
        className={`shrink-0 text-right tabular-nums ${strong ? 'font-semibold text-slate-900 dark:text-white' : 'text-slate-800 dark:text-slate-200'} ${tone === 'red' ? '!text-red-600 dark:!text-red-400' : ''}`}
      >
        {value}
      </dd>
    </div>
  );
}

/** A value still being quoted: a skeleton with a name for screen readers. */
function Quoting() {
  return (
    <span role="status" aria-label="Getting the price">
      <Skeleton className="inline-block h-5 w-24 align-middle" />
    </span>
  );
}

/** A notice above the footer: amber for a change to review, red for a failure. */
function Notice({
  tone,
  icon,
  title,
  children,
}: {
  tone: 'amber' | 'red';
  icon: ReactNode;
  title?: string;
  children: ReactNode;
}) {
  const tones = {
    amber: 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200',
    red: 'border-red-200 bg-red-50 text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300',
  };
  return (
    <div role="alert" className={`mt-4 flex items-start gap-3 rounded-xl border p-3 text-sm ${tones[tone]}`}>
      <span className="mt-0.5 shrink-0 [&>svg]:size-4">{icon}</span>
      <div>
        {title ? <p className="font-medium">{title}</p> : null}
        <p className={title ? 'mt-0.5' : undefined}>{children}</p>
      </div>
    </div>
  );
}

/**
 * The dialog's content from one opening to its close (state starts afresh each time): the quote, the
 * rows, the notices, the step-up field and the footer.
 */
function PurchaseStep({
  collection,
  viewer,
  discounted,
  codeSlot,
  onTopUp,
  onClose,
  onBusyChange,
}: {
  collection: Collection;
  viewer: Viewer;
  /** The applied discount code's preview, or null. */
  discounted: DiscountPreview | null;
  /** The "Have a code?" control, rendered under the rows. */
  codeSlot: ReactNode;
  onTopUp?: () => void;
  onClose: () => void;
  /** `busy`: a quote or a payment is out (the code controls wait); `paying`: a payment is out (the dialog stays). */
  onBusyChange: (busy: boolean, paying: boolean) => void;
}) {
  const client = useQueryClient();
  const quote = useQuoteOrder();
  const pay = usePayOrder();
  const payKey = useActionKey();
  const flight = useSingleFlight();
  const [order, setOrder] = useState<Order | null>(null);
  const [quoteError, setQuoteError] = useState<unknown>(null);
  const [serverSaysShort, setServerSaysShort] = useState(false);
  const [notice, setNotice] = useState<'changed' | 'expired' | null>(null);
  const [stepUp, setStepUp] = useState<'password' | 'code' | null>(null);
  const [proof, setProof] = useState('');
  const [proofError, setProofError] = useState<string | null>(null);
  const proofId = useId();
  // Only the latest quote counts (a code applied while one was out, a double mount).
  const latest = useRef(0);

  const code = discounted?.code;
  const listed = discounted ? discounted.amount : collection.amount;
  const knownShort = !canAfford(viewer.available, listed);
  const busy = quote.isPending || pay.isPending;

  // The code controls wait for either call; closing the dialog waits only for a payment (a quote moves
  // nothing: its order simply goes unpaid and expires).
  useEffect(() => onBusyChange(busy, pay.isPending), [busy, pay.isPending, onBusyChange]);
  useEffect(() => () => onBusyChange(false, false), [onBusyChange]);

  /** Asks collection/buy for the order at the price of now; `reason` is why it is asked again. */
  function requote(reason?: 'changed' | 'expired') {
    const n = ++latest.current;
    setOrder(null);
    setQuoteError(null);
    quote.mutateAsync({ collectionId: collection.id, ...(code ? { code } : {}) }).then(
      (o) => {
        if (n !== latest.current) return;
        if (o.status === OrderStatus.Paid) {
          // Bought already (elsewhere, or an earlier answer was lost): nothing to pay.
          toast.success(BuyTexts.owned);
          void client.invalidateQueries({ queryKey: queryKeys.collections });
          onClose();
          return;
        }
        setOrder(o);
        // The first quote may differ from the price on the button (a stale page): say so too.
        if (reason) setNotice(reason);
        else if (o.amount !== listed) setNotice('changed');
        if (reason || o.amount !== listed) void client.invalidateQueries({ queryKey: queryKeys.collections });
      },
      (err: unknown) => {
        if (n !== latest.current) return;
        if (isInsufficientBalance(err)) setServerSaysShort(true);
        else setQuoteError(err);
      },
    );
  }

  // Quote on opening and whenever the applied code changes; not while the balance is known short
  // (collection/buy would answer INSUFFICIENT_BALANCE: the Top up offer shows at once instead).
  useEffect(() => {
    if (knownShort) return;
    setNotice(null);
    requote();
  }, [code, knownShort]);

  const short = serverSaysShort || knownShort;
  // The figures shown: the order's own, or (no order when short) what the page listed.
  const price = order ? order.amount : short ? listed : null;
  const listPrice = order ? (order.list_price ?? order.amount) : (discounted?.list_price ?? listed);
  const discount = order ? (order.discount ?? 0) : (discounted?.discount ?? 0);
  const known = viewer.available !== null && viewer.available !== undefined && viewer.available !== '';
  const after = known && price !== null ? sub(viewer.available!, String(price)) : null;
  const pending = <Quoting />;

  function confirm(e?: FormEvent) {
    e?.preventDefault();
    if (!order || busy || flight.busy()) return;
    if (stepUp && !proof.trim()) {
      setProofError(stepUp === 'password' ? BuyTexts.passwordRequired : BuyTexts.codeRequired);
      return;
    }
    setProofError(null);
    // One payment per order: a double click sends once; the key is the order's and its amount's.
    flight.run((release) =>
      pay.mutate(
        {
          orderId: order.id,
          amount: order.amount,
          ...(stepUp === 'password' ? { password: proof } : {}),
          ...(stepUp === 'code' ? { code: proof } : {}),
          idempotencyKey: payKey.keyFor({ order: order.id, amount: order.amount }),
        },
        {
          onSettled: release,
          onSuccess: onClose,
          onError: (err) => {
            const refusal = payRefusal(err, Boolean(stepUp));
            if (!refusal) {
              toastError(err, BuyTexts.buyFailed);
              return;
            }
            switch (refusal.kind) {
              case 'step-up':
                if (refusal.method !== stepUp) setProof('');
                setStepUp(refusal.method);
                return;
              case 'price-changed':
              case 'expired':
                // The server checks a step-up before the price: a proof sent with this call was right
                // and the session may spend now, so the field goes away.
                setStepUp(null);
                setProof('');
                requote(refusal.kind === 'expired' ? 'expired' : 'changed');
                return;
              case 'insufficient':
                setServerSaysShort(true);
                return;
              case 'proof':
                setProofError(refusal.message);
                return;
            }
          },
        },
      ),
    );
  }

  return (
    <>
      <dl className="divide-y divide-slate-100 rounded-xl border border-slate-200 px-4 dark:divide-slate-800 dark:border-slate-800">
        {price !== null && discount > 0 ? (
          <>
            <Row label="Price" value={formatPointsLabel(listPrice)} />
            <Row label={`${BuyTexts.discount}${code ? ` (${code})` : ''}`} value={`−${formatPointsLabel(discount)}`} />
            <Row label={BuyTexts.youPay} value={formatPointsLabel(price)} strong />
          </>
        ) : (
          <Row label="Price" value={price !== null ? formatPointsLabel(price) : pending} strong />
        )}
        <Row label="Your balance" value={known ? `${formatPoints(viewer.available)} Points` : '...'} />
        <Row
          label="Balance after"
          value={after !== null ? `${formatPoints(after)} Points` : known ? pending : '...'}
          tone={short ? 'red' : undefined}
        />
      </dl>
      {codeSlot ? <div className="mt-4">{codeSlot}</div> : null}
      {notice === 'changed' ? (
        <Notice tone="amber" icon={<RefreshCw />}>
          {BuyTexts.priceChanged}
        </Notice>
      ) : notice === 'expired' ? (
        <Notice tone="amber" icon={<RefreshCw />} title={BuyTexts.expired}>
          {BuyTexts.expiredHelp}
        </Notice>
      ) : null}
      {short ? (
        <Notice tone="amber" icon={<Wallet />} title={BuyTexts.insufficient}>
          Top up your points to buy this collection.
        </Notice>
      ) : quoteError ? (
        <Notice tone="red" icon={<CircleAlert />}>
          {getErrorMessage(quoteError, BuyTexts.buyFailed)}
        </Notice>
      ) : null}
      {stepUp && !short ? (
        <form
          onSubmit={confirm}
          noValidate
          className="mt-4 space-y-3 rounded-xl border border-slate-200 p-3 dark:border-slate-800"
        >
          <p className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
            <ShieldCheck className="mt-0.5 size-4 shrink-0 text-brand-600 dark:text-brand-400" aria-hidden="true" />
            <span id={`${proofId}-why`}>{stepUp === 'password' ? BuyTexts.stepUpPassword : BuyTexts.stepUpCode}</span>
          </p>
          <Field
            label={stepUp === 'password' ? BuyTexts.passwordLabel : BuyTexts.codeFieldLabel}
            id={proofId}
            error={proofError}
            hint={stepUp === 'code' ? BuyTexts.codeHint : undefined}
          >
            <Input
              id={proofId}
              key={stepUp}
              autoFocus
              type={stepUp === 'password' ? 'password' : 'text'}
              autoComplete={stepUp === 'password' ? 'current-password' : 'one-time-code'}
              inputMode={stepUp === 'code' ? 'text' : undefined}
              maxLength={stepUp === 'code' ? 40 : undefined}
              value={proof}
              onChange={(e) => {
                setProof(e.target.value);
                if (e.target.value.trim()) setProofError(null);
              }}
              disabled={pay.isPending}
              aria-invalid={proofError ? true : undefined}
              aria-describedby={[`${proofId}-why`, proofError ? `${proofId}-error` : stepUp === 'code' ? `${proofId}-hint` : null]
                .filter(Boolean)
                .join(' ')}
              className={stepUp === 'code' ? 'font-mono tracking-widest' : undefined}
            />
          </Field>
        </form>
      ) : null}
      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        {short ? (
          <Button
            onClick={() => {
              onClose();
              onTopUp?.();
            }}
            disabled={!onTopUp}
          >
            <Coins className="size-4" aria-hidden="true" />
            {BuyTexts.topUp}
          </Button>
        ) : quoteError ? (
          <Button onClick={() => requote()}>{BuyTexts.tryAgain}</Button>
        ) : (
          <Button isLoading={pay.isPending} disabled={!order || quote.isPending} onClick={() => confirm()}>
            {BuyTexts.confirm}
          </Button>
        )}
      </DialogFooter>
    </>
  );
}

export function BuyButton({
  collection,
  viewer,
  purchased,
  refunded = false,
  onTopUp,
  className,
  initialCode,
  previewDiscount,
}: {
  collection: Collection;
  viewer: Viewer;
  purchased: boolean;
  /** The viewer's order was refunded (collection/detail `refunded`): the state shows instead of Buy. */
  refunded?: boolean;
  onTopUp?: () => void;
  className?: string;
  /** A discount code to start with (the `?code=` of a shared link). */
  initialCode?: string | null;
  /** See {@link PreviewDiscount}. */
  previewDiscount?: PreviewDiscount;
}) {
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [paying, setPaying] = useState(false);
  const onBusyChange = useCallback((quotingOrPaying: boolean, nowPaying: boolean) => {
    setBusy(quotingOrPaying);
    setPaying(nowPaying);
  }, []);
  const [code, setCode] = useState<string | null>(initialCode ? initialCode.trim().toUpperCase() : null);
  const [codeInput, setCodeInput] = useState(initialCode ?? '');
  const [showCode, setShowCode] = useState(Boolean(initialCode));
  const preview = useQuery({
    queryKey: collectionKeys.discountPreview(collection.id, (code ?? '').toUpperCase()),
    queryFn: ({ signal }) => previewDiscount!(collection.id, code ?? '', signal),
    enabled: Boolean(code) && previewDiscount !== undefined,
    retry: false,
  });
  const codeId = useId();

  if (!viewer.id) {
    return (
      <Link
        to="/login"
        state={{ from: { pathname: location.pathname, search: location.search } }}
        className={buttonVariants({ size: 'lg', className: `w-full ${className ?? ''}` })}
      >
        {BuyTexts.login}
      </Link>
    );
  }
  if (viewer.id === collection.owner_id || purchased) return null;
  if (refunded) {
    return (
      <div
        role="status"
        className={`rounded-xl border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900 dark:border-sky-500/30 dark:bg-sky-500/10 dark:text-sky-200 ${className ?? ''}`}
      >
        <p className="font-medium">{BuyTexts.refunded}</p>
        <p className="mt-0.5">{BuyTexts.refundedHelp}</p>
      </div>
    );
  }
  if (collection.status !== CollectionStatus.Published) {
    return (
      <Button size="lg" className={`w-full ${className ?? ''}`} disabled>
        {BuyTexts.notForSale}
      </Button>
    );
  }

  const discounted = code && preview.data ? preview.data : null;
  const price = discounted ? discounted.amount : collection.amount;

  const codeSlot = !previewDiscount ? null : !showCode ? (
    <button
      type="button"
      onClick={() => setShowCode(true)}
      className="text-sm font-medium text-brand-700 hover:underline focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-brand-300"
    >
      {BuyTexts.haveCode}
    </button>
  ) : discounted ? (
    <div className="flex items-center justify-between gap-3 rounded-xl border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900 dark:border-green-500/30 dark:bg-green-500/10 dark:text-green-200">
      <span className="flex min-w-0 items-center gap-2">
        <Tag className="size-4 shrink-0" aria-hidden="true" />
        <span className="min-w-0 wrap-anywhere">
          Code <span className="font-mono font-medium">{discounted.code}</span> applied
        </span>
      </span>
      <Button
        variant="ghost"
        size="sm"
        aria-label={BuyTexts.removeCode}
        onClick={() => {
          setCode(null);
          setCodeInput('');
        }}
        disabled={busy}
      >
        <X className="size-4" aria-hidden="true" />
      </Button>
    </div>
  ) : (
    <form
      className="space-y-1.5"
      onSubmit={(e) => {
        e.preventDefault();
        const next = codeInput.trim().toUpperCase();
        setCode(next || null);
      }}
    >
      <label htmlFor={codeId} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {BuyTexts.codeLabel}
      </label>
      <div className="flex gap-2">
        <Input
          id={codeId}
          value={codeInput}
          onChange={(e) => setCodeInput(e.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={32}
          className="font-mono uppercase"
          aria-invalid={code && preview.isError ? true : undefined}
          aria-describedby={code && preview.isError ? `${codeId}-error` : undefined}
        />
        <Button type="submit" variant="outline" isLoading={Boolean(code) && preview.isFetching} disabled={busy}>
          {BuyTexts.apply}
        </Button>
      </div>
      {code && preview.isError ? (
        <p id={`${codeId}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {getErrorMessage(preview.error, 'This code is not valid for this collection')}
        </p>
      ) : null}
    </form>
  );

  return (
    <>
      <Button size="lg" className={`w-full ${className ?? ''}`} onClick={() => setOpen(true)}>
        <ShoppingCart className="size-4" aria-hidden="true" />
        {price === 0 ? BuyTexts.getFree : BuyTexts.buy(price)}
      </Button>

      <Dialog open={open} onOpenChange={(o) => !paying && setOpen(o)}>
        <DialogContent title={BuyTexts.confirmTitle} description={collection.title}>
          <PurchaseStep
            collection={collection}
            viewer={viewer}
            discounted={discounted}
            codeSlot={codeSlot}
            onTopUp={onTopUp}
            onClose={() => {
              onBusyChange(false, false);
              setOpen(false);
            }}
            onBusyChange={onBusyChange}
          />
        </DialogContent>
      </Dialog>
    </>
  );
}

/**
 * The buy flow behind one button (product §17): visitors see 'Log in to buy'; a buyer opens a
 * confirmation with the price, the balance and the balance after; Confirm runs collection/buy then
 * account/order/pay. With too few points (known before, or answered INSUFFICIENT_BALANCE) the
 * dialog says 'Insufficient balance' and offers Top-up (`onTopUp`, composed by the route).
 * Owners and buyers who own it already get no button.
 *
 * Discount codes (product §28): "Have a code?" opens a code field; Apply asks discount/preview and the
 * dialog then shows the list price, the discount and what the buyer pays, and buys with the code.
 * `initialCode` (the detail page's `?code=` link) starts the dialog with that code applied.
 */
import type { Collection } from '@coffer/contract';
import { cmp, sub, CollectionStatus } from '@coffer/contract/constants';
import { Coins, ShoppingCart, Tag, Wallet, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '@/components/ui/lazy-dialog';
import { Input } from '@/components/ui/input';
import { isInsufficientBalance, useBuyCollection } from '../api/buy-collection';
import { useDiscountPreview } from '../api/discount-preview';
import { getErrorMessage } from '@/lib/api-client';
import { formatPoints, formatPointsLabel } from '@/lib/points';

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
  haveCode: 'Have a code?',
  codeLabel: 'Discount code',
  apply: 'Apply',
  removeCode: 'Remove code',
  youPay: 'You pay',
  discount: 'Discount',
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

function Row({ label, value, strong, tone }: { label: string; value: string; strong?: boolean; tone?: 'red' }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd
        className={`text-right tabular-nums ${strong ? 'font-semibold text-slate-900 dark:text-white' : 'text-slate-800 dark:text-slate-200'} ${tone === 'red' ? '!text-red-600 dark:!text-red-400' : ''}`}
      >
        {value}
      </dd>
    </div>
  );
}

export function BuyButton({
  collection,
  viewer,
  purchased,
  onTopUp,
  className,
  initialCode,
}: {
  collection: Collection;
  viewer: Viewer;
  purchased: boolean;
  onTopUp?: () => void;
  className?: string;
  /** A discount code to start with (the `?code=` of a shared link). */
  initialCode?: string | null;
}) {
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const buy = useBuyCollection();
  const [serverSaysShort, setServerSaysShort] = useState(false);
  const [code, setCode] = useState<string | null>(initialCode ? initialCode.trim().toUpperCase() : null);
  const [codeInput, setCodeInput] = useState(initialCode ?? '');
  const [showCode, setShowCode] = useState(Boolean(initialCode));
  const preview = useDiscountPreview(collection.id, code);
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
  if (collection.status !== CollectionStatus.Published) {
    return (
      <Button size="lg" className={`w-full ${className ?? ''}`} disabled>
        {BuyTexts.notForSale}
      </Button>
    );
  }

  const discounted = code && preview.data ? preview.data : null;
  const price = discounted ? discounted.amount : collection.amount;
  const known = viewer.available !== null && viewer.available !== undefined && viewer.available !== '';
  const short = serverSaysShort || !canAfford(viewer.available, price);
  const after = known ? sub(viewer.available!, String(price)) : null;

  return (
    <>
      <Button
        size="lg"
        className={`w-full ${className ?? ''}`}
        onClick={() => {
          setServerSaysShort(false);
          buy.reset();
          setOpen(true);
        }}
      >
        <ShoppingCart className="size-4" aria-hidden="true" />
        {price === 0 ? BuyTexts.getFree : BuyTexts.buy(price)}
      </Button>

      <Dialog open={open} onOpenChange={(o) => !buy.isPending && setOpen(o)}>
        <DialogContent title={BuyTexts.confirmTitle} description={collection.title}>
          <dl className="divide-y divide-slate-100 rounded-xl border border-slate-200 px-4 dark:divide-slate-800 dark:border-slate-800">
            {discounted ? (
              <>
                <Row label="Price" value={formatPointsLabel(discounted.list_price)} />
                <Row label={`${BuyTexts.discount} (${discounted.code})`} value={`−${formatPointsLabel(discounted.discount)}`} />
                <Row label={BuyTexts.youPay} value={formatPointsLabel(price)} strong />
              </>
            ) : (
              <Row label="Price" value={formatPointsLabel(price)} strong />
            )}
            <Row label="Your balance" value={known ? `${formatPoints(viewer.available)} Points` : '...'} />
            <Row
              label="Balance after"
              value={after !== null ? `${formatPoints(after)} Points` : '...'}
              tone={short ? 'red' : undefined}
            />
          </dl>
          <div className="mt-4">
            {!showCode ? (
              <button
                type="button"
                onClick={() => setShowCode(true)}
                className="text-sm font-medium text-brand-700 hover:underline focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-brand-300"
              >
                {BuyTexts.haveCode}
              </button>
            ) : discounted ? (
              <div className="flex items-center justify-between gap-3 rounded-xl border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900 dark:border-green-500/30 dark:bg-green-500/10 dark:text-green-200">
                <span className="flex items-center gap-2">
                  <Tag className="size-4" aria-hidden="true" />
                  Code <span className="font-mono font-medium">{discounted.code}</span> applied
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={BuyTexts.removeCode}
                  onClick={() => {
                    setCode(null);
                    setCodeInput('');
                  }}
                  disabled={buy.isPending}
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
                  <Button type="submit" variant="outline" isLoading={Boolean(code) && preview.isFetching}>
                    {BuyTexts.apply}
                  </Button>
                </div>
                {code && preview.isError ? (
                  <p id={`${codeId}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
                    {getErrorMessage(preview.error, 'This code is not valid for this collection')}
                  </p>
                ) : null}
              </form>
            )}
          </div>
          {short ? (
            <div
              role="alert"
              className="mt-4 flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200"
            >
              <Wallet className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <div>
                <p className="font-medium">{BuyTexts.insufficient}</p>
                <p className="mt-0.5">Top up your points to buy this collection.</p>
              </div>
            </div>
          ) : null}
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={buy.isPending}>
              Cancel
            </Button>
            {short ? (
              <Button
                onClick={() => {
                  setOpen(false);
                  onTopUp?.();
                }}
                disabled={!onTopUp}
              >
                <Coins className="size-4" aria-hidden="true" />
                {BuyTexts.topUp}
              </Button>
            ) : (
              <Button
                isLoading={buy.isPending}
                onClick={() =>
                  buy.mutate(
                    { collectionId: collection.id, ...(discounted ? { code: discounted.code } : {}) },
                    {
                      onSuccess: () => setOpen(false),
                      onError: (err) => {
                        if (isInsufficientBalance(err)) setServerSaysShort(true);
                      },
                    },
                  )
                }
              >
                {BuyTexts.confirm}
              </Button>
            )}
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}

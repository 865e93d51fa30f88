/**
 * The buy flow behind one button (product §17): visitors see 'Log in to buy'; a buyer opens a
 * confirmation with the price, the balance and the balance after; Confirm runs collection/buy then
 * account/order/pay. With too few points (known before, or answered INSUFFICIENT_BALANCE) the
 * dialog says 'Insufficient balance' and offers Top-up (`onTopUp`, composed by the route).
 * Owners and buyers who own it already get no button.
 */
import type { Collection } from '@coffer/contract';
import { cmp, sub, CollectionStatus } from '@coffer/contract/constants';
import { Coins, ShoppingCart, Wallet } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '@/components/ui/dialog';
import { isInsufficientBalance, useBuyCollection } from '../api/buy-collection';
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
}: {
  collection: Collection;
  viewer: Viewer;
  purchased: boolean;
  onTopUp?: () => void;
  className?: string;
}) {
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const buy = useBuyCollection();
  const [serverSaysShort, setServerSaysShort] = useState(false);

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

  const price = collection.amount;
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
            <Row label="Price" value={formatPointsLabel(price)} strong />
            <Row label="Your balance" value={known ? `${formatPoints(viewer.available)} Points` : '...'} />
            <Row
              label="Balance after"
              value={after !== null ? `${formatPoints(after)} Points` : '...'}
              tone={short ? 'red' : undefined}
            />
          </dl>
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
                  buy.mutate(collection.id, {
                    onSuccess: () => setOpen(false),
                    onError: (err) => {
                      if (isInsufficientBalance(err)) setServerSaysShort(true);
                    },
                  })
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

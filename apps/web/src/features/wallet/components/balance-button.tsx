/**
 * The top bar's balance button (product §2): shows the available points of the signed-in user from
 * POST /api/uc/v1/account/assets {user_id} -> {asset} (stale after 1 min, product §9 "Assets query"),
 * falling back to get/me's asset.available until that answers. It opens the balance modal, and
 * from there the top-up and cash-out modals (one at a time).
 */
import { useQuery } from '@tanstack/react-query';
import { Coins } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { getAssetsQueryOptions } from '../api/get-assets';
import type { WalletView } from './wallet-dialogs';
import { formatAmount, formatPoints } from '@/lib/points';

// The modals (QR code, forms) load on first open, not with every page.
const WalletDialogs = lazy(() => import('./wallet-dialogs').then((m) => ({ default: m.WalletDialogs })));

/** Re-exported: the assets query lives in api/get-assets.ts. */
export { getAssetsQueryOptions };

export interface BalanceButtonProps {
  userId: string;
  /** get/me's asset.available, shown until the assets call answers. */
  fallbackAvailable?: string;
  className?: string;
}

export function BalanceButton({ userId, fallbackAvailable, className }: BalanceButtonProps) {
  const assets = useQuery(getAssetsQueryOptions(userId));
  useEffect(() => {
    if (assets.error && !(assets.error instanceof ApiError && assets.error.sessionExpired)) {
      toast.error('Failed to load your points balance.', { id: 'balance-error' });
    }
  }, [assets.error]);
  const available = assets.data?.available ?? fallbackAvailable ?? '0';
  const [view, setView] = useState<WalletView>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  // The top-up and cash-out modals open from inside the balance modal, whose button is gone when
  // they close: give focus back to the balance button (after the dialog's own focus restore).
  useEffect(() => {
    if (view) {
      wasOpen.current = true;
      return;
    }
    if (!wasOpen.current) return;
    wasOpen.current = false;
    const id = window.setTimeout(() => {
      if (!document.activeElement || document.activeElement === document.body) buttonRef.current?.focus();
    }, 0);
    return () => window.clearTimeout(id);
  }, [view]);
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={cn(
          'inline-flex h-9 items-center gap-2 rounded-full border border-slate-200 bg-white px-3 text-sm font-medium text-slate-900 tabular-nums transition-colors',
          'hover:border-brand-300 hover:bg-brand-50 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
          'dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:border-brand-500/50 dark:hover:bg-slate-800',
          className,
        )}
        aria-label={`Balance: ${formatAmount(available, { unit: 'points' })}`}
        aria-haspopup="dialog"
        onClick={() => setView('balance')}
      >
        <Coins className="size-4 text-brand-600 dark:text-brand-400" aria-hidden="true" />
        <span>{formatPoints(available)}</span>
        <span className="text-xs font-normal text-slate-500 dark:text-slate-400">P</span>
      </button>
      {view ? (
        <Suspense fallback={null}>
          <WalletDialogs userId={userId} view={view} onViewChange={setView} fallbackAvailable={fallbackAvailable} />
        </Suspense>
      ) : null}
    </>
  );
}

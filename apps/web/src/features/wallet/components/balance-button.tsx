/**
 * The top bar's balance button (SPEC 2): shows the available points of the signed-in user from
 * POST /api/uc/v1/account/assets {user_id} -> {asset} (stale after 1 min, SPEC 9 "Assets query"),
 * falling back to get/me's asset.available until that answers. The balance modal opens from here.
 */
import type { Asset } from '@coffer/contract';
import { useQuery } from '@tanstack/react-query';
import { Coins } from 'lucide-react';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { ApiError, apiPost, ucPath } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { formatPoints } from '../../../lib/format';
import { queryKeys } from '../../../lib/query-client';

export function getAssetsQueryOptions(userId: string) {
  return {
    queryKey: [...queryKeys.assets, userId] as const,
    queryFn: async ({ signal }: { signal?: AbortSignal }) => (await apiPost<{ asset: Asset }>(ucPath('/assets'), { user_id: userId }, { signal })).asset,
    staleTime: 60_000,
  };
}

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
  return (
    <button
      type="button"
      className={cn(
        'inline-flex h-9 items-center gap-2 rounded-full border border-slate-200 bg-white px-3 text-sm font-medium text-slate-900 tabular-nums transition-colors',
        'hover:border-brand-300 hover:bg-brand-50 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
        'dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:border-brand-500/50 dark:hover:bg-slate-800',
        className,
      )}
      aria-label={`Balance: ${formatPoints(available)} points`}
    >
      <Coins className="size-4 text-brand-600 dark:text-brand-400" aria-hidden="true" />
      <span>{formatPoints(available)}</span>
      <span className="text-xs font-normal text-slate-500 dark:text-slate-400">P</span>
    </button>
  );
}

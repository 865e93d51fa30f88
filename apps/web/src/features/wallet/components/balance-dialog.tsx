/**
 * The balance modal (product §2): the available balance, Top-up and Cash out buttons, tabs All
 * transactions / Incoming / Outgoing over the infinitely scrolling record list; a row opens its
 * bill detail. Under the available balance, when not zero: the frozen points and the pending sale
 * proceeds with the date the next amount clears (product.md §30 "Clearance"): pending points can be
 * neither spent nor cashed out yet.
 */
import type { TransactionRecord } from '@coffer/contract';
import { cmp, RecordCate } from '@coffer/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { ArrowDownToLine, ArrowUpFromLine, Hourglass } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { getAssetsQueryOptions } from '../api/get-assets';
import { RecordDetailDialog } from './record-detail-dialog';
import { TransactionList } from './transaction-list';
import { formatDate } from '@/lib/format';
import { formatPoints } from '@/lib/points';

/** product §2 tab labels, in order. */
export const RECORD_TABS: { cate: RecordCate; label: string }[] = [
  { cate: RecordCate.All, label: 'All transactions' },
  { cate: RecordCate.Income, label: 'Incoming' },
  { cate: RecordCate.Outgoing, label: 'Outgoing' },
];

export const BalanceTexts = {
  frozen: 'Frozen',
  pending: 'Pending',
  clears: (date: string) => `clears ${date}`,
  pendingHelp: 'Sale proceeds become available after a holding period.',
} as const;

/** True for a points string above zero (a missing or unreadable one counts as zero). */
function positive(value: string | undefined | null): value is string {
  if (!value) return false;
  try {
    return cmp(value, '0') > 0;
  } catch {
    return false;
  }
}

/**
 * The frozen and pending lines under the available balance, each only when above zero (most
 * balances have neither, and the card stays one figure).
 */
export function HeldBalances({ freeze, pending, pendingClearsAt }: { freeze?: string; pending?: string; pendingClearsAt?: number | null }) {
  const showFrozen = positive(freeze);
  const showPending = positive(pending);
  if (!showFrozen && !showPending) return null;
  const clears = pendingClearsAt ? formatDate(pendingClearsAt) : '';
  return (
    <div className="mt-3 border-t border-white/20 pt-3 text-sm">
      <dl className="space-y-1">
        {showFrozen ? (
          <div className="flex items-baseline justify-between gap-3">
            <dt className="text-brand-100">{BalanceTexts.frozen}</dt>
            <dd className="tabular-nums" data-testid="frozen-balance">
              {formatPoints(freeze)} <span className="text-brand-100">P-coin</span>
            </dd>
          </div>
        ) : null}
        {showPending ? (
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <dt className="flex items-center gap-1.5 text-brand-100">
              <Hourglass className="size-3.5" aria-hidden="true" />
              {BalanceTexts.pending}
            </dt>
            <dd className="text-right tabular-nums" data-testid="pending-balance">
              {formatPoints(pending)} <span className="text-brand-100">P-coin</span>
              {clears ? <span className="text-brand-100"> · {BalanceTexts.clears(clears)}</span> : null}
            </dd>
          </div>
        ) : null}
      </dl>
      {showPending ? <p className="mt-1.5 text-xs text-brand-100">{BalanceTexts.pendingHelp}</p> : null}
    </div>
  );
}

export interface BalanceDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
  fallbackAvailable?: string;
  onTopUp: () => void;
  onCashOut: () => void;
}

export function BalanceDialog({ open, onOpenChange, userId, fallbackAvailable, onTopUp, onCashOut }: BalanceDialogProps) {
  const assets = useQuery({ ...getAssetsQueryOptions(userId), enabled: open });
  const [cate, setCate] = useState<RecordCate>(RecordCate.All);
  const [detail, setDetail] = useState<TransactionRecord | null>(null);
  const available = assets.data?.available ?? fallbackAvailable;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent title="Balance" className="max-w-xl">
          <div className="rounded-xl bg-linear-to-br from-brand-600 to-brand-700 px-5 py-5 text-white shadow-sm">
            <p className="text-xs font-medium tracking-wide text-brand-100 uppercase">Available balance</p>
            <p className="mt-1 text-3xl font-semibold tabular-nums" data-testid="available-balance">
              {available === undefined ? (
                <span aria-label="Loading" className="inline-block h-8 w-32 animate-pulse rounded-md bg-white/30 align-middle" />
              ) : (
                `${formatPoints(available)}`
              )}
              <span className="ml-1.5 text-base font-medium text-brand-100">P-coin</span>
            </p>
            <HeldBalances
              freeze={assets.data?.freeze}
              pending={assets.data?.pending}
              pendingClearsAt={assets.data?.pending_clears_at}
            />
            <div className="mt-4 grid grid-cols-2 gap-2">
              <Button
                variant="secondary"
                className="bg-white text-brand-700 hover:bg-brand-50 dark:bg-white dark:text-brand-700 dark:hover:bg-brand-50"
                onClick={onTopUp}
              >
                <ArrowDownToLine className="size-4" aria-hidden="true" />
                Top-up
              </Button>
              <Button
                variant="outline"
                className="border-white/40 bg-transparent text-white hover:bg-white/10 dark:border-white/40 dark:bg-transparent dark:text-white dark:hover:bg-white/10"
                onClick={onCashOut}
              >
                <ArrowUpFromLine className="size-4" aria-hidden="true" />
                Cash out
              </Button>
            </div>
          </div>
          <Tabs value={cate} onValueChange={(v) => setCate(v as RecordCate)} className="mt-5">
            <TabsList className="grid w-full grid-cols-3">
              {RECORD_TABS.map((t) => (
                <TabsTrigger key={t.cate} value={t.cate}>
                  {t.label}
                </TabsTrigger>
              ))}
            </TabsList>
            {RECORD_TABS.map((t) => (
              <TabsContent key={t.cate} value={t.cate} className="mt-2" tabIndex={-1}>
                {cate === t.cate ? <TransactionList userId={userId} cate={t.cate} onOpenRecord={setDetail} /> : null}
              </TabsContent>
            ))}
          </Tabs>
          <div className="mt-3 text-center">
            <Link
              to="/transactions"
              onClick={() => onOpenChange(false)}
              className="text-sm font-medium text-brand-600 hover:underline dark:text-brand-400"
            >
              Open the transactions page
            </Link>
          </div>
          <RecordDetailDialog userId={userId} record={detail} onClose={() => setDetail(null)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

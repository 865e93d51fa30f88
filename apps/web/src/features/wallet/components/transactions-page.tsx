/**
 * The transactions page (/transactions, product §2): the balance modal's three filters (All
 * transactions, Incoming, Outgoing) and record list as a full page scrolled by the window, with
 * status filter chips (sent as `filter.status_list`) and the Top-up and Cash out modals at hand.
 */
import type { TransactionRecord } from '@coffer/contract';
import { RecordCate, RecordStatus } from '@coffer/contract/constants';
import { ArrowDownToLine, ArrowUpFromLine } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageContainer, PageHeader } from '@/components/ui/page';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { cn } from '@/lib/cn';
import { RECORD_TABS } from './balance-dialog';
import { RecordDetailDialog } from './record-detail-dialog';
import { TransactionList } from './transaction-list';
import { WalletDialogs, type WalletView } from './wallet-dialogs';

/** The status chips, in product §4's order. */
export const STATUS_CHIPS: { status: RecordStatus; label: string }[] = [
  { status: RecordStatus.Pending, label: 'Pending' },
  { status: RecordStatus.Success, label: 'Success' },
  { status: RecordStatus.Failure, label: 'Failed' },
  { status: RecordStatus.Refunded, label: 'Refunded' },
];

const chipClasses = (active: boolean) =>
  cn(
    'inline-flex h-8 items-center rounded-full border px-3 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
    active
      ? 'border-brand-500 bg-brand-50 text-brand-800 dark:border-brand-400 dark:bg-brand-500/15 dark:text-brand-200'
      : 'border-slate-200 bg-white text-slate-600 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300 dark:hover:bg-slate-800',
  );

export function TransactionsPage({ userId }: { userId: string }) {
  const [cate, setCate] = useState<RecordCate>(RecordCate.All);
  const [statuses, setStatuses] = useState<RecordStatus[]>([]);
  const [detail, setDetail] = useState<TransactionRecord | null>(null);
  const [view, setView] = useState<WalletView>(null);

  function toggle(status: RecordStatus) {
    setStatuses((current) => {
      const next = current.includes(status) ? current.filter((s) => s !== status) : [...current, status];
      return STATUS_CHIPS.map((c) => c.status).filter((s) => next.includes(s));
    });
  }

  return (
    <PageContainer className="max-w-3xl">
      <PageHeader
        title="Transactions"
        description="Your top-ups, cash-outs, purchases and sales."
        actions={
          <>
            <Button variant="outline" onClick={() => setView('topup')}>
              <ArrowDownToLine className="size-4" aria-hidden="true" />
              Top-up
            </Button>
            <Button variant="outline" onClick={() => setView('cashout')}>
              <ArrowUpFromLine className="size-4" aria-hidden="true" />
              Cash out
            </Button>
          </>
        }
      />
      <Tabs value={cate} onValueChange={(v) => setCate(v as RecordCate)}>
        <TabsList className="grid w-full grid-cols-3 sm:inline-flex sm:w-auto" aria-label="Direction">
          {RECORD_TABS.map((t) => (
            <TabsTrigger key={t.cate} value={t.cate}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <div className="mt-3 flex flex-wrap items-center gap-2" role="group" aria-label="Status">
          <button
            type="button"
            className={chipClasses(statuses.length === 0)}
            aria-pressed={statuses.length === 0}
            onClick={() => setStatuses([])}
          >
            All statuses
          </button>
          {STATUS_CHIPS.map((c) => (
            <button
              key={c.status}
              type="button"
              className={chipClasses(statuses.includes(c.status))}
              aria-pressed={statuses.includes(c.status)}
              onClick={() => toggle(c.status)}
            >
              {c.label}
            </button>
          ))}
        </div>
        {RECORD_TABS.map((t) => (
          <TabsContent key={t.cate} value={t.cate} tabIndex={-1}>
            {cate === t.cate ? (
              <Card className="p-2">
                <TransactionList
                  key={statuses.join(',')}
                  userId={userId}
                  cate={t.cate}
                  statusList={statuses}
                  scroll="window"
                  onOpenRecord={setDetail}
                />
              </Card>
            ) : null}
          </TabsContent>
        ))}
      </Tabs>
      <RecordDetailDialog userId={userId} record={detail} onClose={() => setDetail(null)} />
      <WalletDialogs userId={userId} view={view} onViewChange={setView} />
    </PageContainer>
  );
}

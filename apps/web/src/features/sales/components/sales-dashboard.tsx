/**
 * The seller's sales dashboard (product §29), a tab of My Collections: a 7 / 30 / 90 day switcher,
 * totals, a chart of points earned and sales per UTC day (uPlot, loaded lazily with its own chunk)
 * with the same numbers as a table for screen readers and keyboard users, the top collections, the
 * downloads per collection and the refunds, and (when the server sends them) the proceeds still in
 * their holding period with the next clearance and those cleared in the period (product.md §30).
 * Every number is the server's (`my/sales/dashboard`, exact sums from the orders table); days are UTC.
 */
import { SALES_DASHBOARD_DAYS, type SalesDashboardDays } from '@coffer/contract/constants';
import { ChartNoAxesColumn } from 'lucide-react';
import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { STACK_TABLE_CLASS, useStackedLabels } from '@/components/ui/stacked-table';
import { LoadError } from '@/components/ui/load-error';
import { getErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { formatAmount, formatPointsLabel } from '@/lib/points';
import { useSalesDashboard, type SalesDashboard as Dashboard } from '../api/get-sales-dashboard';

const SalesChart = lazy(() => import('./sales-chart'));

export const DashboardTexts = {
  heading: 'Sales dashboard',
  subtitle: 'Earnings, sales, refunds and downloads of your collections. Days are UTC.',
  emptyTitle: 'No sales in this period',
  emptyBody: 'When buyers purchase your collections, earnings and sales per day show here.',
  loadFailed: 'Failed to load the sales dashboard',
  pending: 'Pending proceeds',
  nextClears: (date: string) => `next clears ${date}`,
  cleared: 'Cleared in this period',
  clearanceHelp: 'Sale proceeds become available after a holding period.',
} as const;

function Total({ label, children, tone, note }: { label: string; children: ReactNode; tone?: 'red'; note?: ReactNode }) {
  return (
    <Card className="p-4">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd
        className={cn(
          'mt-1 text-xl font-semibold text-slate-900 tabular-nums sm:text-2xl dark:text-white',
          tone === 'red' && 'text-red-700 dark:text-red-400',
        )}
      >
        {children}
      </dd>
      {note ? <dd className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{note}</dd> : null}
    </Card>
  );
}

function DaySwitcher({ days, onChange }: { days: SalesDashboardDays; onChange: (d: SalesDashboardDays) => void }) {
  return (
    <div
      role="group"
      aria-label="Period"
      className="inline-flex self-start items-center gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800/70"
    >
      {SALES_DASHBOARD_DAYS.map((d) => (
        <button
          key={d}
          type="button"
          aria-pressed={days === d}
          onClick={() => onChange(d)}
          className={cn(
            'rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-slate-400',
            days === d && 'bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white',
          )}
        >
          {d} days
        </button>
      ))}
    </div>
  );
}

const th = 'px-3 py-2 text-left text-xs font-medium text-slate-500 dark:text-slate-400';
const thNum = cn(th, 'text-right');
const td = 'px-3 py-2 text-sm text-slate-700 dark:text-slate-300';
const tdNum = cn(td, 'text-right whitespace-nowrap tabular-nums');

/** A table whose first column names the row (a `th`) and whose other columns are numbers. */
function Table({ caption, columns, rows }: { caption: string; columns: string[]; rows: { key: string; cells: ReactNode[] }[] }) {
  const ref = useRef<HTMLTableElement>(null);
  useStackedLabels(ref, columns);
  return (
    <div className="overflow-x-auto">
      <table ref={ref} className={cn('w-full', STACK_TABLE_CLASS)}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-100 dark:border-slate-800">
          <tr>
            {columns.map((c, i) => (
              <th key={c} scope="col" className={i ? thNum : th}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((r) => (
            <tr key={r.key}>
              {r.cells.map((cell, i) =>
                i ? (
                  <td key={i} className={tdNum}>
                    {cell}
                  </td>
                ) : (
                  <th key={i} scope="row" className={cn(td, 'text-left font-normal')}>
                    {cell}
                  </th>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A row header linking to the collection. */
function CollectionLink({ id, title }: { id: string; title: string }) {
  return (
    <Link to={`/collection/${id}`} className="block max-w-36 truncate hover:underline sm:max-w-64" title={title}>
      {title}
    </Link>
  );
}

function DayTable({ data }: { data: Dashboard }) {
  return (
    <Table
      caption={`Sales, earnings and refunds per UTC day, last ${data.days} days`}
      columns={['Day (UTC)', 'Sales', 'Earned', 'Refunds', 'Refunded']}
      rows={[...data.series].reverse().map((d) => ({
        key: d.day,
        cells: [d.day, d.sales, formatPointsLabel(d.earned), d.refunds, formatPointsLabel(d.refunded)],
      }))}
    />
  );
}

function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="min-w-0 space-y-3">
      <h3 id={id} className="font-semibold text-slate-900 dark:text-white">
        {title}
      </h3>
      {children}
    </section>
  );
}

export function SalesDashboardSkeleton() {
  return (
    <div role="status" aria-label="Loading the sales dashboard" className="space-y-6">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-20 rounded-2xl" />
        ))}
      </div>
      <Skeleton className="h-72 w-full rounded-2xl" />
    </div>
  );
}

export function SalesDashboard({ userId }: { userId: string | null | undefined }) {
  const [days, setDays] = useState<SalesDashboardDays>(30);
  const query = useSalesDashboard(Boolean(userId), days);
  const data = query.data;
  const quiet = data && data.totals.sales === 0 && data.totals.refunds === 0;

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{DashboardTexts.heading}</h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{DashboardTexts.subtitle}</p>
        </div>
        <DaySwitcher days={days} onChange={setDays} />
      </div>

      {query.isError ? (
        <LoadError message={getErrorMessage(query.error, DashboardTexts.loadFailed)} onRetry={() => void query.refetch()} />
      ) : !data ? (
        <SalesDashboardSkeleton />
      ) : (
        <div
          className={cn('space-y-8 transition-opacity', query.isPlaceholderData && 'opacity-60')}
          aria-busy={query.isPlaceholderData}
        >
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Total label="Sales">{data.totals.sales}</Total>
            <Total label="Earned">{formatPointsLabel(data.totals.earned)}</Total>
            <Total label="Refunds">
              {data.totals.refunds}
              <span className="ml-1 text-sm font-normal text-slate-500 dark:text-slate-400">
                ({formatPointsLabel(data.totals.refunded)})
              </span>
            </Total>
            <Total label="Net" tone={data.totals.net.startsWith('-') ? 'red' : undefined}>
              {formatAmount(data.totals.net, { unit: 'Points', decimals: 'auto' })}
            </Total>
          </dl>
          {data.clearance ? (
            <div className="-mt-5 space-y-2">
              <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
                <Total
                  label={DashboardTexts.pending}
                  note={
                    data.clearance.next_clears_at ? DashboardTexts.nextClears(formatDate(data.clearance.next_clears_at)) : undefined
                  }
                >
                  {formatPointsLabel(data.clearance.pending)}
                </Total>
                <Total label={DashboardTexts.cleared}>{formatPointsLabel(data.clearance.cleared)}</Total>
              </dl>
              <p className="text-xs text-slate-500 dark:text-slate-400">{DashboardTexts.clearanceHelp}</p>
            </div>
          ) : null}

          {quiet ? (
            <EmptyState
              icon={<ChartNoAxesColumn />}
              title={DashboardTexts.emptyTitle}
              description={DashboardTexts.emptyBody}
              action={
                <Link to="/mycollections" className={buttonVariants({ variant: 'outline' })}>
                  Your collections
                </Link>
              }
            />
          ) : (
            <Card className="p-4 sm:p-5">
              <h3 className="mb-3 font-semibold text-slate-900 dark:text-white">Earnings and sales per day</h3>
              <Suspense fallback={<Skeleton className="h-[260px] w-full" />}>
                <SalesChart series={data.series} />
              </Suspense>
              <details className="mt-4">
                <summary className="cursor-pointer text-sm font-medium text-brand-700 dark:text-brand-300">
                  Show the numbers as a table
                </summary>
                <div
                  className="mt-3 max-h-96 overflow-y-auto rounded-md focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
                  tabIndex={0}
                  role="region"
                  aria-label="Sales per day (scrollable)"
                >
                  <DayTable data={data} />
                </div>
              </details>
            </Card>
          )}

          <div className="grid grid-cols-1 gap-8 lg:grid-cols-2">
            <Section title="Top collections" id="top-collections">
              {data.top_collections.length ? (
                <Card>
                  <Table
                    caption={`Top collections by points earned, last ${data.days} days`}
                    columns={['Collection', 'Sales', 'Earned']}
                    rows={data.top_collections.map((c) => ({
                      key: c.collection_id,
                      cells: [<CollectionLink id={c.collection_id} title={c.title} />, c.sales, formatPointsLabel(c.earned)],
                    }))}
                  />
                </Card>
              ) : (
                <p className="text-sm text-slate-500 dark:text-slate-400">No sales in this period.</p>
              )}
            </Section>
            <Section title="Downloads per collection" id="downloads-per-collection">
              {data.downloads.length ? (
                <Card>
                  <Table
                    caption="Files downloaded by buyers per collection, all time"
                    columns={['Collection', 'Buyers', 'Downloads']}
                    rows={data.downloads.map((c) => ({
                      key: c.collection_id,
                      cells: [<CollectionLink id={c.collection_id} title={c.title} />, c.buyers, c.downloads],
                    }))}
                  />
                  <p className="px-3 pb-3 text-xs text-slate-500 dark:text-slate-400">
                    All time; a download is one file handed out to a buyer.
                  </p>
                </Card>
              ) : (
                <p className="text-sm text-slate-500 dark:text-slate-400">No downloads yet.</p>
              )}
            </Section>
          </div>
        </div>
      )}
    </div>
  );
}

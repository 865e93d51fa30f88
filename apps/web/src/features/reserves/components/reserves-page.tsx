/**
 * The proof-of-liabilities page (product §22): the latest publication's total liabilities next to
 * the reserves read on chain (each address, its balance or why it could not be read), the Merkle
 * root, and for a signed-in user "Check my balance", which fetches the user's proof and verifies
 * it in the browser. A skeleton while loading, an empty state before the first publication; one
 * column at 390 px (long hashes and addresses wrap).
 */
import type { Publication } from '@coffer/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageContainer, PageHeader } from '@/components/ui/page';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadError } from '@/components/ui/load-error';
import { ApiError, getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { formatAmount, groupThousands } from '@/lib/points';
import { useCheckProof, type ProofCheck } from '../api/check-proof';
import { useReservesLatest } from '../api/get-latest';

/** The exact texts of product §22. */
export const ReservesTexts = {
  title: 'Proof of liabilities',
  description:
    "Every user's balance (available and frozen points) is committed to a Merkle sum tree. Its root and total are published here, next to the reserves read on chain at the same time.",
  emptyTitle: 'Nothing published yet',
  emptyDescription: 'No proof of liabilities has been published yet.',
  liabilities: 'Total liabilities',
  reserves: 'Reserves',
  noReserves: 'No reserve addresses are configured.',
  unreadable: 'Could not be read',
  check: 'Check my balance',
  checkHint: 'Your proof is checked in your browser against the published root and total.',
  logInToCheck: 'Log in to check that your balance is included.',
  included: 'Your balance is included in the published total',
  notVerified: 'Your balance could not be verified against the published total.',
  loadFailed: 'Failed to load the proof of liabilities',
  proofFailed: 'Failed to load your proof',
} as const;

function LoadingSkeleton() {
  return (
    <div className="grid gap-6 md:grid-cols-2" data-testid="reserves-skeleton">
      {[0, 1].map((i) => (
        <Card key={i} className="space-y-3 p-6">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-8 w-48" />
          <Skeleton className="h-4 w-full" />
        </Card>
      ))}
    </div>
  );
}

function Figure({ label, points, sub }: { label: string; points: string; sub: string }) {
  return (
    <div>
      <h2 className="text-sm font-medium text-slate-600 dark:text-slate-400">{label}</h2>
      <p className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums sm:text-3xl dark:text-white">
        {formatAmount(points, { unit: 'points' })}
      </p>
      <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{sub}</p>
    </div>
  );
}

function ReserveList({ publication }: { publication: Publication }) {
  if (!publication.reserves.length)
    return <p className="text-sm text-slate-500 dark:text-slate-400">{ReservesTexts.noReserves}</p>;
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800">
      {publication.reserves.map((r) => (
        <li key={`${r.network}:${r.currency}:${r.address}`} className="py-3 text-sm">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className="font-medium text-slate-900 dark:text-white">
              {r.network} · {r.currency}
            </span>
            {r.error ? (
              <span className="text-red-600 dark:text-red-400">{ReservesTexts.unreadable}</span>
            ) : (
              <span className="text-slate-900 tabular-nums dark:text-white">
                {groupThousands(r.balance ?? '0')} (${formatAmount(r.balance_usd)})
              </span>
            )}
          </div>
          <p className="mt-1 font-mono text-xs break-all text-slate-500 dark:text-slate-400">{r.address}</p>
          {r.error ? <p className="mt-1 text-xs text-red-600 dark:text-red-400">{r.error}</p> : null}
        </li>
      ))}
    </ul>
  );
}

function CheckResult({ result, error }: { result: ProofCheck | undefined; error: unknown }) {
  if (error) {
    const text =
      error instanceof ApiError && error.reason === 'NOT_FOUND' && error.msg
        ? error.msg
        : getErrorMessage(error, ReservesTexts.proofFailed);
    return (
      <p role="alert" className="text-sm text-red-600 dark:text-red-400">
        {text}
      </p>
    );
  }
  if (!result) return null;
  if (!result.included) {
    return (
      <p role="alert" className="text-sm text-red-600 dark:text-red-400">
        {ReservesTexts.notVerified}
      </p>
    );
  }
  return (
    <div role="status" className="text-sm">
      <p className="font-medium text-emerald-700 dark:text-emerald-400">{ReservesTexts.included}</p>
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        Your balance at publication: {formatAmount(result.balance, { unit: 'points' })}
      </p>
      <p className="mt-1 text-slate-500 dark:text-slate-400">
        Checked in your browser: its {result.shares} shares add up to it, and each leads to the published root.
      </p>
    </div>
  );
}

function CheckBalance({ publication, userId }: { publication: Publication; userId: string | null }) {
  const check = useCheckProof();
  // A result belongs to the publication it was checked against.
  const [checkedId, setCheckedId] = useState<string | null>(null);
  const fresh = checkedId === publication.id;
  if (!userId) {
    return (
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600 dark:text-slate-400">{ReservesTexts.logInToCheck}</p>
        <Link to="/login" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          Log in
        </Link>
      </div>
    );
  }
  return (
    <div className="space-y-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600 dark:text-slate-400">{ReservesTexts.checkHint}</p>
        <Button
          size="sm"
          isLoading={check.isPending}
          onClick={() => {
            setCheckedId(publication.id);
            check.mutate({ publication, userId });
          }}
        >
          {ReservesTexts.check}
        </Button>
      </div>
      {fresh && !check.isPending ? <CheckResult result={check.data} error={check.error} /> : null}
    </div>
  );
}

/** @param userId the signed-in user's id, or null for a visitor (the route reads it from the auth store) */
export function ReservesPage({ userId }: { userId: string | null }) {
  const latest = useReservesLatest();
  const publication = latest.data?.publication ?? null;
  return (
    <PageContainer className="max-w-4xl">
      <PageHeader title={ReservesTexts.title} description={ReservesTexts.description} />
      {latest.isPending ? (
        <LoadingSkeleton />
      ) : latest.isError ? (
        <LoadError message={getErrorMessage(latest.error, ReservesTexts.loadFailed)} onRetry={() => void latest.refetch()} />
      ) : !publication ? (
        <EmptyState title={ReservesTexts.emptyTitle} description={ReservesTexts.emptyDescription} />
      ) : (
        <div className="space-y-6">
          <div className="grid gap-6 md:grid-cols-2">
            <Card className="p-6">
              <Figure
                label={ReservesTexts.liabilities}
                points={publication.total}
                sub={`${publication.user_count.toLocaleString('en-US')} users · published ${formatDateTime(publication.published_at)}`}
              />
            </Card>
            <Card className="p-6">
              <Figure
                label={ReservesTexts.reserves}
                points={publication.reserves_points}
                sub={`$${formatAmount(publication.reserves_usd)} at publication`}
              />
              <div className="mt-4">
                <ReserveList publication={publication} />
              </div>
            </Card>
          </div>
          <Card className="space-y-4 p-6">
            <div>
              <h2 className="text-sm font-medium text-slate-600 dark:text-slate-400">Merkle root</h2>
              <p className="mt-1 font-mono text-xs break-all text-slate-900 dark:text-white">{publication.root_hash}</p>
            </div>
            <CheckBalance publication={publication} userId={userId} />
          </Card>
        </div>
      )}
    </PageContainer>
  );
}

/**
 * Where you are signed in (product §26): each live session with its device, address, sign-in time
 * and last seen; Revoke on every other session and "Sign out other sessions". This device is
 * marked and has no Revoke (Sign out in the user menu ends it).
 */
import type { SessionInfo } from '@coffer/contract';
import { Laptop, Smartphone } from 'lucide-react';
import toast from 'react-hot-toast';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadError } from '@/components/ui/load-error';
import { getErrorMessage, toastError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { formatRelative } from '@/lib/format-relative';
import { useRevokeOtherSessions, useRevokeSession, useSessions } from '../api/sessions';
import { SecurityTexts as T } from './security-texts';

const isPhone = (device: string) => /iPhone|Android|iPad/.test(device);

function SessionRow({ session }: { session: SessionInfo }) {
  const revoke = useRevokeSession();
  const Icon = isPhone(session.device) ? Smartphone : Laptop;
  return (
    <li className="flex flex-wrap items-center gap-3 py-4 sm:flex-nowrap">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900 dark:text-white">
          {session.device}
          {session.current ? <Badge tone="brand">{T.thisDevice}</Badge> : null}
        </p>
        <p className="mt-0.5 text-xs wrap-anywhere text-slate-500 dark:text-slate-400">
          {session.address ? <span className="font-mono">{session.address}</span> : null}
          {session.address ? ' · ' : null}
          {T.created} {formatDateTime(session.created_at)} · {T.lastSeen}{' '}
          <time dateTime={new Date(session.last_seen_at).toISOString()}>{formatRelative(session.last_seen_at)}</time>
        </p>
      </div>
      {session.current ? null : (
        <Button
          variant="outline"
          size="sm"
          isLoading={revoke.isPending}
          aria-label={`${T.revoke} ${session.device}`}
          onClick={() =>
            revoke.mutate(session.id, {
              onSuccess: () => toast.success(T.revoked),
              onError: (err) => toastError(err, 'Failed to sign out the session'),
            })
          }
        >
          {T.revoke}
        </Button>
      )}
    </li>
  );
}

export function SessionsCard() {
  const sessions = useSessions();
  const revokeOthers = useRevokeOtherSessions();
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((s) => !s.current).length;

  return (
    <Card className="p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-base font-semibold text-slate-900 dark:text-white">{T.sessionsTitle}</h2>
        <Button
          variant="outline"
          disabled={!others}
          isLoading={revokeOthers.isPending}
          onClick={() =>
            revokeOthers.mutate(undefined, {
              onSuccess: (data) => toast.success(T.revokedOthers(data.revoked)),
              onError: (err) => toastError(err, 'Failed to sign out the other sessions'),
            })
          }
        >
          {T.revokeOthers}
        </Button>
      </div>
      {sessions.isPending ? (
        <ul aria-label="Loading sessions" className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
          {[0, 1].map((i) => (
            <li key={i} className="flex items-center gap-3 py-4">
              <Skeleton className="size-10 rounded-full" />
              <div className="flex-1 space-y-2">
                <Skeleton className="h-4 w-40" />
                <Skeleton className="h-3 w-64 max-w-full" />
              </div>
            </li>
          ))}
        </ul>
      ) : sessions.isError ? (
        <LoadError className="mt-4" message={getErrorMessage(sessions.error, T.sessionsError)} onRetry={() => void sessions.refetch()} />
      ) : (
        <>
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
            {list.map((s) => (
              <SessionRow key={s.id} session={s} />
            ))}
          </ul>
          {others ? null : <p className="text-sm text-slate-500 dark:text-slate-400">{T.noOthers}</p>}
        </>
      )}
    </Card>
  );
}

/**
 * Your Profile > Developer (ADR 0058): the signed-in user's personal access tokens — name, scopes,
 * created, last used and expiry — with Create (the dialog shows the new token once) and Revoke
 * (after a confirmation). Loading, empty and failed states; long names wrap at 390 px.
 */
import type { TokenInfo } from '@coffer/contract';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog, DialogContent, DialogFooter } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage, toastError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { formatRelative } from '@/lib/format-relative';
import { useRevokeToken, useTokens } from '../api/tokens';
import { CreateTokenDialog } from './create-token-dialog';
import { DeveloperTexts as T } from './developer-texts';

function TokenRow({ token, onRevoke }: { token: TokenInfo; onRevoke: (t: TokenInfo) => void }) {
  return (
    <li className="flex flex-wrap items-start gap-3 py-4 sm:flex-nowrap">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
        <KeyRound className="size-5" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium wrap-anywhere text-slate-900 dark:text-white">{token.name}</p>
        <ul aria-label={`Scopes of ${token.name}`} className="mt-1 flex flex-wrap gap-1">
          {token.scopes.map((s) => (
            <li key={s}>
              <Badge className="font-mono">{s}</Badge>
            </li>
          ))}
        </ul>
        <p className="mt-1 text-xs wrap-anywhere text-slate-500 dark:text-slate-400">
          {T.created} {formatDate(token.created_at)} · {T.lastUsed}{' '}
          {token.last_used_at ? (
            <time dateTime={new Date(token.last_used_at).toISOString()}>{formatRelative(token.last_used_at)}</time>
          ) : (
            T.never
          )}{' '}
          · {T.expires} <time dateTime={new Date(token.expires_at).toISOString()}>{formatDate(token.expires_at)}</time>
        </p>
      </div>
      <Button variant="outline" size="sm" aria-label={`${T.revoke} ${token.name}`} onClick={() => onRevoke(token)}>
        {T.revoke}
      </Button>
    </li>
  );
}

function RevokeTokenDialog({ token, onClose }: { token: TokenInfo | null; onClose: () => void }) {
  const revoke = useRevokeToken();
  return (
    <Dialog
      open={token !== null}
      onOpenChange={(open) => {
        if (!open && !revoke.isPending) {
          revoke.reset();
          onClose();
        }
      }}
    >
      {token ? (
        <DialogContent title={T.revokeTitle(token.name)} description={T.revokeDescription}>
          <DialogFooter>
            <Button variant="ghost" onClick={onClose} disabled={revoke.isPending}>
              {T.cancel}
            </Button>
            <Button
              variant="danger"
              isLoading={revoke.isPending}
              onClick={() =>
                revoke.mutate(token.id, {
                  onSuccess: () => {
                    toast.success(T.revoked);
                    onClose();
                  },
                  onError: (err) => toastError(err, 'Failed to revoke the token'),
                })
              }
            >
              {T.revoke}
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

export function DeveloperPage() {
  const tokens = useTokens();
  const [revoking, setRevoking] = useState<TokenInfo | null>(null);
  const list = tokens.data?.tokens ?? [];

  return (
    <Card className="p-4 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold text-slate-900 dark:text-white">{T.title}</h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600 dark:text-slate-400">
            {T.intro}{' '}
            <a href="/api/docs" className="font-medium text-brand-600 underline-offset-2 hover:underline dark:text-brand-400">
              {T.docs}
            </a>
          </p>
        </div>
        <CreateTokenDialog />
      </div>
      {tokens.isPending ? (
        <ul aria-label={T.loading} className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
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
      ) : tokens.isError ? (
        <LoadError message={getErrorMessage(tokens.error, T.loadError)} onRetry={() => void tokens.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState className="mt-4" icon={<KeyRound />} title={T.empty} description={T.emptyHint} />
      ) : (
        <ul aria-label={T.title} className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
          {list.map((t) => (
            <TokenRow key={t.id} token={t} onRevoke={setRevoking} />
          ))}
        </ul>
      )}
      <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

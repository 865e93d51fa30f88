/**
 * 'Update mails' in Your Profile (product §24): a switch for the mails sent when a collection the
 * user bought gets a new, updated or removed file. The in-app Updates on My Purchases stay either way.
 */
import { useId } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadError } from '@/components/ui/load-error';
import { getErrorMessage } from '@/lib/api-client';
import { useNotifications, useSetUpdateMails } from '../api/notifications';

export function UpdateMailsToggle() {
  const id = useId();
  const query = useNotifications();
  const save = useSetUpdateMails();
  if (query.isPending) return <Skeleton className="h-6 w-64" />;
  if (query.isError)
    return (
      <LoadError
        className="items-start py-0 text-left"
        message={getErrorMessage(query.error, 'Failed to load your notification settings')}
        onRetry={() => void query.refetch()}
      />
    );
  const on = query.data.update_mails;
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-checked={on}
        checked={on}
        disabled={save.isPending}
        onChange={(e) => save.mutate(e.target.checked)}
        className="mt-0.5 size-4 rounded border-slate-300 text-brand-600 focus-visible:ring-2 focus-visible:ring-brand-500"
      />
      <label htmlFor={id} className="text-sm">
        <span className="font-medium text-slate-900 dark:text-white">Update mails</span>
        <span className="block text-slate-500 dark:text-slate-400">
          Email me when a collection I bought gets new or updated files.
        </span>
      </label>
    </div>
  );
}

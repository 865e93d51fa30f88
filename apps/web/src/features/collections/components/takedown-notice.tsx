/**
 * The notice the owner of a collection taken down by Coffer sees (product §27), on the detail page
 * (`full`) and on the My Collections card (compact): "Hidden by Coffer: <reason>" and what it means.
 */
import type { CollectionModeration } from '@coffer/contract';
import { ShieldAlert } from 'lucide-react';
import { cn } from '@/lib/cn';

export const TakedownTexts = {
  heading: (reason: string) => `Hidden by Coffer: ${reason}`,
  meaning:
    'This collection is no longer shown in the market or search and cannot be bought. People who already bought it keep it.',
  filesRemoved: 'Its files cannot be downloaded by anyone, including you. Nothing you uploaded has been deleted.',
  contact: 'If you think this is a mistake, contact Coffer support.',
};

export function TakedownNotice({ moderation, compact }: { moderation: CollectionModeration; compact?: boolean }) {
  return (
    <div
      role="status"
      className={cn(
        'flex gap-3 rounded-xl border border-red-200 bg-red-50 text-red-900 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200',
        compact ? 'p-3 text-xs' : 'p-4 text-sm',
      )}
      data-testid="takedown-notice"
    >
      <ShieldAlert className={cn('shrink-0 text-red-600 dark:text-red-400', compact ? 'size-4' : 'size-5')} aria-hidden="true" />
      <div className="min-w-0 space-y-1">
        <p className={cn('font-semibold', compact && 'line-clamp-2')}>{TakedownTexts.heading(moderation.reason)}</p>
        {compact ? (
          <p>{moderation.files_removed ? 'Not for sale; downloads are off.' : 'Not for sale; buyers keep access.'}</p>
        ) : (
          <>
            <p>{TakedownTexts.meaning}</p>
            {moderation.files_removed ? <p>{TakedownTexts.filesRemoved}</p> : null}
            <p className="text-red-800/80 dark:text-red-200/80">{TakedownTexts.contact}</p>
          </>
        )}
      </div>
    </div>
  );
}

/**
 * The notice the owner of a collection taken down by Coffer sees (product §27), on the detail page
 * (`full`) and on the My Collections card (compact): "Hidden by Coffer: <reason>" and what it means.
 */
import type { CollectionModeration } from '@coffer/contract';
import { ShieldAlert } from 'lucide-react';

export const TakedownTexts = {
  heading: (reason: string) => `Hidden by Coffer: ${reason}`,
  meaning:
    'This collection is no longer shown in the market or search and cannot be bought. People who already bought it keep it.',
  filesRemoved: 'Its files cannot be downloaded by anyone, including you. Nothing you uploaded has been deleted.',
  contact: 'If you think this is a mistake, contact Coffer support.',
};

export function TakedownNotice({ moderation, compact }: { moderation: CollectionModeration; compact?: boolean }) {
  const heading = TakedownTexts.heading(moderation.reason);
  if (compact) {
    // A strip over the card's banner, so the card keeps the grid's height.
    return (
      <div
        role="status"
        className="flex gap-2 bg-red-700/95 px-3 py-2 text-xs text-white backdrop-blur dark:bg-red-800/95"
        data-testid="takedown-notice"
      >
        <ShieldAlert className="mt-px size-4 shrink-0" aria-hidden="true" />
        <div className="min-w-0">
          <p className="line-clamp-1 font-semibold wrap-anywhere" title={heading}>
            {heading}
          </p>
          <p className="text-red-50">
            {moderation.files_removed ? 'Not for sale; downloads are off.' : 'Not for sale; buyers keep access.'}
          </p>
        </div>
      </div>
    );
  }
  return (
    <div
      role="status"
      className="flex gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200"
      data-testid="takedown-notice"
    >
      <ShieldAlert className="size-5 shrink-0 text-red-600 dark:text-red-400" aria-hidden="true" />
      <div className="min-w-0 space-y-1">
        <p className="font-semibold wrap-anywhere">{heading}</p>
        <p>{TakedownTexts.meaning}</p>
        {moderation.files_removed ? <p>{TakedownTexts.filesRemoved}</p> : null}
        <p className="text-red-800/80 dark:text-red-200/80">{TakedownTexts.contact}</p>
      </div>
    </div>
  );
}

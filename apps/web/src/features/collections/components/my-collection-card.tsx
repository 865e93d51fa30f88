/**
 * A card of the My Collections grid (product §2): banner or 'No Banner', status badge top right,
 * title, description, 'Price' and 'Earned Points' as 'N Points', 'Sold', relative creation time,
 * 'View Details' -> /collection/{id}. A collection Coffer took down shows why (product §27).
 */
import type { Collection } from '@coffer/contract';
import { ArrowRight, Clock } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { formatRelative } from '@/lib/format-relative';
import { soldCount } from '../lib/format';
import { BannerImage } from '@/components/ui/banner-image';
import { CollectionStatusBadge } from './status-badge';
import { TakedownNotice } from './takedown-notice';
import { formatPointsLabel } from '@/lib/points';

/** `eager`: the card is in the first screenful (its banner may be the LCP element): load it at once, high priority. */
export function MyCollectionCard({ collection, eager }: { collection: Collection; eager?: boolean }) {
  return (
    <Card className="flex flex-col overflow-hidden" data-testid="collection-card">
      <div className="relative">
        <BannerImage src={collection.banner} alt={collection.title} eager={eager} />
        <CollectionStatusBadge status={collection.status} className="absolute top-3 right-3 shadow-sm backdrop-blur" />
        {collection.moderation ? (
          <div className="absolute inset-x-0 bottom-0">
            <TakedownNotice moderation={collection.moderation} compact />
          </div>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col p-4">
        <h3 className="line-clamp-2 font-semibold wrap-anywhere text-slate-900 dark:text-white" title={collection.title}>
          {collection.title}
        </h3>
        <p className="mt-1 line-clamp-2 min-h-10 text-sm wrap-anywhere text-slate-500 dark:text-slate-400">{collection.desc}</p>

        <dl className="mt-4 grid grid-cols-3 gap-2 text-sm">
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Price</dt>
            <dd className="font-medium text-slate-900 tabular-nums dark:text-white">{formatPointsLabel(collection.amount)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Earned Points</dt>
            <dd className="font-medium text-emerald-700 tabular-nums dark:text-emerald-400">
              {formatPointsLabel(collection.earned)}
            </dd>
          </div>
          <div className="text-right">
            <dt className="text-xs text-slate-500 dark:text-slate-400">Sold</dt>
            <dd className="font-medium text-slate-900 tabular-nums dark:text-white">{soldCount(collection.sold_count)}</dd>
          </div>
        </dl>
        <div className="mt-4 flex items-center justify-between gap-2 border-t border-slate-100 pt-3 dark:border-slate-800">
          <span className="inline-flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
            <Clock className="size-3.5" aria-hidden="true" />
            {formatRelative(collection.created_at)}
          </span>
          <Link
            to={`/collection/${collection.id}`}
            className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-brand-600 hover:text-brand-700 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-brand-400"
          >
            View Details
            <ArrowRight className="size-3.5" aria-hidden="true" />
          </Link>
        </div>
      </div>
    </Card>
  );
}

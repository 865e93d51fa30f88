import type { Collection } from '@coffer/contract';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { soldCount } from '../lib/format';
import { BannerImage } from '@/components/ui/banner-image';
import { RatingSummary } from '@/components/ui/star-rating';
import { formatPointsLabel } from '@/lib/points';

/**
 * A storefront card: banner, title, seller, price and sold count; the whole card links to the
 * collection, the seller's name to their page (/creator/{id}).
 */
export function MarketCard({ collection, eager }: { collection: Collection; eager?: boolean }) {
  const seller = collection.seller ? { id: collection.seller.id, name: collection.seller.nickname || collection.seller.username } : null;
  return (
    <Card className="group relative flex h-full flex-col overflow-hidden transition-shadow focus-within:ring-2 focus-within:ring-brand-500 hover:shadow-md" data-testid="market-card">
      <BannerImage src={collection.banner} alt="" eager={eager} className="transition-transform duration-300 group-hover:scale-[1.02] motion-reduce:transform-none" />
      <div className="flex flex-1 flex-col p-4">
        <h3 className="line-clamp-2 font-semibold wrap-anywhere text-slate-900 dark:text-white" title={collection.title}>
          <Link to={`/collection/${collection.id}`} className="focus:outline-none after:absolute after:inset-0">
            {collection.title}
          </Link>
        </h3>
        {seller ? (
          <p className="mt-0.5 truncate text-sm text-slate-500 dark:text-slate-400" title={seller.name}>
            by{' '}
            {/* Above the card's stretched title link: the name opens the creator's page. */}
            <Link
              to={`/creator/${seller.id}`}
              className="relative z-10 rounded-sm hover:text-brand-700 hover:underline focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:hover:text-brand-300"
            >
              {seller.name}
            </Link>
          </p>
        ) : null}
        <RatingSummary sum={collection.rating_sum} count={collection.rating_count} compact className="mt-1 text-xs" />
        <div className="mt-auto flex items-end justify-between gap-2 pt-4">
          <span className="text-base font-semibold text-slate-900 tabular-nums dark:text-white">{collection.amount === 0 ? 'Free' : formatPointsLabel(collection.amount)}</span>
          <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{soldCount(collection.sold_count)} sold</span>
        </div>
      </div>
    </Card>
  );
}

/** The loading placeholder of a storefront card, the same size as the card. */
export function MarketCardSkeleton() {
  return (
    <Card className="overflow-hidden" data-testid="market-card-skeleton">
      <Skeleton className="aspect-[16/9] w-full rounded-none" />
      <div className="p-4">
        <Skeleton className="h-6 w-2/3" />
        <Skeleton className="mt-0.5 h-5 w-1/3" />
        <div className="flex items-end justify-between pt-4">
          <Skeleton className="h-6 w-20" />
          <Skeleton className="h-4 w-12" />
        </div>
      </div>
    </Card>
  );
}

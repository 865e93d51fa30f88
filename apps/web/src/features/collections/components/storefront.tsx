/**
 * Home (/): a hero with the tagline and Start Now for visitors, then the published collections
 * (market/collections) with search, sort (newest, popular, price) and pagination; skeletons while
 * loading and an empty state. Search and sort live in the URL (?q=&sort=&page=) so results can be
 * shared and the back button works.
 */
import { MARKET_PAGE_SIZES, MARKET_SORTS, MarketSort, SKELETON_CARD_COUNT } from '@coffer/contract/constants';
import { ArrowRight, PackageOpen, Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { PageContainer } from '@/components/ui/page';
import { clampPage, Pagination, pagingOf } from '@/components/ui/pagination';
import { LoadError } from '@/components/ui/load-error';
import { getErrorMessage } from '@/lib/api-client';
import { useMarketCollections } from '../api/get-market-collections';
import { CollectionGrid, CollectionGridSkeleton } from './collection-grid';
import { MarketCard, MarketCardSkeleton } from './market-card';

const TAGLINE = 'Trade digital resources with ease. Upload, buy, and sell your digital assets.';

const SORT_LABELS: Record<MarketSort, string> = {
  newest: 'Newest',
  popular: 'Most popular',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  rating: 'Rating',
};

function Hero({ signedIn }: { signedIn: boolean }) {
  return (
    <section className="border-b border-slate-200 bg-gradient-to-b from-brand-50/70 to-white dark:border-slate-800 dark:from-brand-500/10 dark:to-slate-950">
      <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8">
        <p className="text-sm font-medium text-brand-700 dark:text-brand-300">Coffer marketplace</p>
        <h1 className="mt-2 max-w-3xl text-4xl font-semibold tracking-tight text-slate-900 sm:text-5xl dark:text-white">
          Discover digital resources
        </h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-600 dark:text-slate-400">{TAGLINE}</p>
        <p className="mt-2 max-w-2xl text-sm text-slate-500 dark:text-slate-400">
          Collections of files from independent creators, paid with points you top up in crypto.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          {signedIn ? (
            <Link to="/upload" className={buttonVariants({ size: 'lg' })}>
              Create a collection
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
          ) : (
            <Link to="/login" className={buttonVariants({ size: 'lg' })}>
              Start Now
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
          )}
          <a href="#browse" className={buttonVariants({ size: 'lg', variant: 'outline' })}>
            Browse collections
          </a>
        </div>
      </div>
    </section>
  );
}

export function Storefront({ signedIn }: { signedIn: boolean }) {
  const searchId = useId();
  const sortId = useId();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const sortParam = params.get('sort');
  const sort: MarketSort = (MARKET_SORTS as readonly string[]).includes(sortParam ?? '')
    ? (sortParam as MarketSort)
    : MarketSort.Newest;
  const page = Math.max(0, Number.parseInt(params.get('page') ?? '0', 10) || 0);
  const sizeParam = Number(params.get('size'));
  const size = (MARKET_PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : MARKET_PAGE_SIZES[0];
  const [draft, setDraft] = useState(q);
  useEffect(() => setDraft(q), [q]);

  const query = useMarketCollections({ page, size, q, sort });
  const paging = pagingOf(query.data);
  const { totalCount: count, totalPages } = paging;

  const update = (change: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    setParams(next, { preventScrollReset: true });
  };

  return (
    <>
      {signedIn ? null : <Hero signedIn={signedIn} />}
      <PageContainer>
        <div id="browse" className="mb-6 flex scroll-mt-24 flex-col gap-4 md:flex-row md:items-end md:justify-between">
          <div>
            <h2 className="text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl dark:text-white">
              {signedIn ? 'Discover collections' : 'Latest collections'}
            </h2>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              {query.data ? `${count} collection${count === 1 ? '' : 's'} on sale` : 'Published by creators on Coffer'}
            </p>
          </div>
          <form
            role="search"
            className="flex flex-col gap-2 sm:flex-row sm:items-center"
            onSubmit={(e) => {
              e.preventDefault();
              update({ q: draft.trim() || null, page: null });
            }}
          >
            <label htmlFor={searchId} className="sr-only">
              Search collections
            </label>
            <div className="relative">
              <Search
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
                aria-hidden="true"
              />
              <Input
                id={searchId}
                type="search"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                placeholder="Search collections"
                className="pl-9 sm:w-64"
                maxLength={100}
              />
            </div>
            <div className="flex gap-2">
              <label htmlFor={sortId} className="sr-only">
                Sort by
              </label>
              <select
                id={sortId}
                value={sort}
                onChange={(e) => update({ sort: e.target.value === MarketSort.Newest ? null : e.target.value, page: null })}
                className="h-10 flex-1 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none sm:flex-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
              >
                {MARKET_SORTS.map((s) => (
                  <option key={s} value={s}>
                    {SORT_LABELS[s]}
                  </option>
                ))}
              </select>
              <Button type="submit" variant="secondary">
                Search
              </Button>
            </div>
          </form>
        </div>

        {query.isPending ? (
          <CollectionGridSkeleton count={SKELETON_CARD_COUNT} card={MarketCardSkeleton} />
        ) : query.isError ? (
          <LoadError message={getErrorMessage(query.error, 'Failed to load collections')} onRetry={() => void query.refetch()} />
        ) : query.data.collections.length === 0 ? (
          <EmptyState
            icon={<PackageOpen />}
            title={q ? 'No collections match your search' : 'No collections yet'}
            description={q ? 'Try other words, or clear the search.' : 'Be the first to publish a collection on Coffer.'}
            action={
              q ? (
                <Button variant="outline" onClick={() => update({ q: null, page: null })}>
                  Clear search
                </Button>
              ) : (
                <Link to="/upload" className={buttonVariants()}>
                  Create a collection
                </Link>
              )
            }
          />
        ) : (
          <CollectionGrid label="Collections">
            {query.data.collections.map((c, i) => (
              // Only the first banner is eager: on a phone it is the only one on the first screen (ADR 0044);
              // the others are lazy, and those in view on a wide screen start at the first layout.
              <li key={c.id}>
                <MarketCard collection={c} eager={i === 0} />
              </li>
            ))}
          </CollectionGrid>
        )}

        {totalPages > 1 ? (
          <Pagination
            className="mt-8"
            page={clampPage(page, totalPages)}
            size={size}
            {...paging}
            sizes={MARKET_PAGE_SIZES}
            onPageChange={(p) => update({ page: p > 0 ? String(clampPage(p, totalPages)) : null })}
            onSizeChange={(s) => update({ size: s === MARKET_PAGE_SIZES[0] ? null : String(s), page: null })}
          />
        ) : null}
      </PageContainer>
    </>
  );
}

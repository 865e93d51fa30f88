import { SKELETON_CARD_COUNT } from '@coffer/contract/constants';
import type { ComponentType, ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { CollectionCardSkeleton } from './collection-card-skeleton';

/** The grid of product §21 / §9: 1 column on phones, 2 from sm, 3 from lg, 4 from xl. */
export const gridClasses = 'grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4';

export function CollectionGrid({ children, className, label }: { children: ReactNode; className?: string; label?: string }) {
  return (
    <ul className={cn(gridClasses, className)} aria-label={label}>
      {children}
    </ul>
  );
}

/** product §2: 8 skeleton cards while loading. */
export function CollectionGridSkeleton({
  count = SKELETON_CARD_COUNT,
  label = 'Loading collections',
  card: CardSkeleton = CollectionCardSkeleton,
}: {
  count?: number;
  label?: string;
  /** The placeholder card (default: the My Collections card's). */
  card?: ComponentType;
}) {
  return (
    <div role="status" aria-label={label} aria-busy="true" className={gridClasses}>
      {Array.from({ length: count }, (_, i) => (
        <CardSkeleton key={i} />
      ))}
    </div>
  );
}

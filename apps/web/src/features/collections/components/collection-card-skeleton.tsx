/**
 * The placeholder of a collection card while its grid loads (product §2: 8 skeleton cards). Its own
 * module, so that the storefront's grid does not bring the My Collections card (and its date
 * formatting) into the storefront's first screen (docs/decisions/0044-first-screen-before-the-font.md).
 */
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

export function CollectionCardSkeleton() {
  return (
    <Card className="overflow-hidden" data-testid="collection-card-skeleton">
      <Skeleton className="aspect-[16/9] w-full rounded-none" />
      <div className="space-y-3 p-4">
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-4/5" />
        <div className="grid grid-cols-3 gap-2 pt-2">
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      </div>
    </Card>
  );
}

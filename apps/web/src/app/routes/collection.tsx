/**
 * /collection/:id — collection detail (features/collections), composed here with what other
 * features own (features may not import each other): the price of a `?code=` link and the code's
 * preview (features/discounts), the Buy button (features/orders), the reviews section
 * (features/reviews) and the wallet's Top-up modal: the buy dialog's 'Top up' opens it, and the
 * balance shown in the confirmation comes from the wallet's assets query. The owner's 'Add files'
 * and per-file 'Replace' (features/uploads) load only when an owner's page shows them.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { useParams } from 'react-router';
import { CollectionDetailView, CollectionNotFound } from '@/features/collections/components/collection-detail';
import type { ReplaceFileSlot } from '@/features/collections/components/resource-list';
import { getDiscountPreview } from '@/features/discounts/api/discount-preview';
import { DiscountedPrice, useLinkedDiscount } from '@/features/discounts/components/discounted-price';
import { BuyButton, type Viewer } from '@/features/orders/components/buy-button';
import { ReviewsSection } from '@/features/reviews/components/reviews-section';
import { useViewerWallet } from './collection-wallet';

const AddFiles = lazy(() => import('./collection-uploads').then((m) => ({ default: m.AddFiles })));
const addFiles = (collectionId: string) => <AddFiles collectionId={collectionId} />;
const ReplaceFile = lazy(() => import('./collection-uploads').then((m) => ({ default: m.ReplaceFile })));
const replaceFile: ReplaceFileSlot = (target) => (
  <Suspense fallback={<Skeleton className="h-32 w-full rounded-xl" />}>
    <ReplaceFile {...target} />
  </Suspense>
);

/**
 * The collection page with its slots filled: a `?code=` link's discounted price (the buy dialog
 * starts with the code), Buy, and the reviews.
 */
export function CollectionPage({
  id,
  viewer,
  onTopUp,
  addFiles,
  replaceFile,
}: {
  id: string;
  viewer: Viewer;
  onTopUp?: () => void;
  addFiles?: (collectionId: string) => ReactNode;
  replaceFile?: ReplaceFileSlot;
}) {
  // The buy dialog starts with the linked code once its preview is in (a re-render gives Buy the code).
  const linked = useLinkedDiscount(id).preview.data;
  const code = linked ? linked.code : null;
  return (
    <CollectionDetailView
      id={id}
      viewer={viewer}
      addFiles={addFiles}
      replaceFile={replaceFile}
      price={({ collection, purchased, isOwner }) =>
        purchased || isOwner ? null : <DiscountedPrice collectionId={collection.id} amount={collection.amount} />
      }
      buy={({ collection, purchased, refunded }) => (
        <BuyButton
          collection={collection}
          viewer={viewer}
          purchased={purchased}
          refunded={refunded}
          onTopUp={onTopUp}
          initialCode={code}
          previewDiscount={getDiscountPreview}
          key={code ?? 'no-code'}
        />
      )}
      reviews={({ collection, viewerId, isOwner }) => (
        <ReviewsSection collection={collection} viewerId={viewerId} isOwner={isOwner} />
      )}
    />
  );
}

export default function CollectionRoute() {
  const { id } = useParams();
  const { viewer, openTopUp, topUp } = useViewerWallet();
  if (!id) return <CollectionNotFound />;
  return (
    <>
      <CollectionPage
        id={id}
        viewer={viewer}
        onTopUp={viewer.id ? openTopUp : undefined}
        addFiles={addFiles}
        replaceFile={replaceFile}
      />
      {topUp}
    </>
  );
}

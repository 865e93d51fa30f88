/**
 * /resource/:id — resource detail (features/collections) with the orders feature's Buy button (a
 * discount code applied through the discounts feature's preview) and the wallet's Top-up modal.
 */
import { useParams } from 'react-router';
import { ResourceDetailView } from '@/features/collections/components/resource-detail';
import { getDiscountPreview } from '@/features/discounts/api/discount-preview';
import { BuyButton } from '@/features/orders/components/buy-button';
import { useViewerWallet } from './collection-wallet';

export default function ResourceRoute() {
  const { id } = useParams();
  const { viewer, openTopUp, topUp } = useViewerWallet();
  return (
    <>
      <ResourceDetailView
        id={id ?? ''}
        viewer={viewer}
        buy={({ collection, purchased }) => (
          <BuyButton
            collection={collection}
            viewer={viewer}
            purchased={purchased}
            onTopUp={viewer.id ? openTopUp : undefined}
            previewDiscount={getDiscountPreview}
          />
        )}
      />
      {topUp}
    </>
  );
}

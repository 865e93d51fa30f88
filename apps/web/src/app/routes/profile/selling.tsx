import { ProfileSelling } from '@/features/collections/components/profile-selling';
import { SaleRefundButton } from '@/features/orders/components/refund-dialog';
import { ProfileSales, type SaleActionSlot } from '@/features/sales/components/profile-sales';
import { useProfileContext } from './context';

/** A paid sale's Refund (features/orders) in the seller's sales list (features/sales). */
export const saleAction: SaleActionSlot = (order) => <SaleRefundButton order={order} />;

/**
 * /profile/:id?/selling — the user's published collections and, on their own tab, their sales;
 * `userId` and `isOwn` come from the profile frame.
 */
export default function ProfileSellingRoute() {
  const { userId, isOwn } = useProfileContext();
  return <ProfileSelling userId={userId} isOwn={isOwn} sales={<ProfileSales action={saleAction} />} />;
}

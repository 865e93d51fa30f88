import { useAuthStore } from '@/features/auth/stores/auth-store';
import { DiscountCodes } from '@/features/collections/components/discount-codes';

/** /mycollections/discounts — the seller's discount codes (product §28; guarded by the route table). */
export default function DiscountCodesRoute() {
  const userId = useAuthStore((s) => s.user?.id);
  return <DiscountCodes userId={userId} />;
}

import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useMyCollections } from '@/features/collections/api/get-my-collections';
import { DiscountCodes } from '@/features/discounts/components/discount-codes';

/**
 * The seller's discount codes with their collections (the first 100, deleted ones left out), read
 * from the collections feature for the new-code dialog and the codes' titles.
 */
export function SellerDiscountCodes({ userId }: { userId: string | null | undefined }) {
  const mine = useMyCollections(userId, { page: 0, size: 100 });
  const collections = (mine.data?.collections ?? []).filter((c) => c.status !== 'Deleted');
  return <DiscountCodes userId={userId} collections={collections} />;
}

/** /mycollections/discounts — the seller's discount codes (product §28; guarded by the route table). */
export default function DiscountCodesRoute() {
  const userId = useAuthStore((s) => s.user?.id);
  return <SellerDiscountCodes userId={userId} />;
}

import { MyCollections } from '@/features/collections/components/my-collections';
import { useAuthStore } from '@/features/auth/stores/auth-store';

/** /mycollections — My Collections (product §2; guarded by the route table). */
export default function MyCollectionsRoute() {
  const userId = useAuthStore((s) => s.user?.id);
  return <MyCollections userId={userId} />;
}

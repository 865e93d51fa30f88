import { MyCollectionsTabs } from '@/features/collections/components/my-collections-tabs';
import { MyCollectionsTexts } from '@/features/collections/components/my-collections';
import { SalesDashboard } from '@/features/sales/components/sales-dashboard';
import { PageContainer } from '@/components/ui/page';
import { useAuthStore } from '@/features/auth/stores/auth-store';

/** /mycollections/dashboard — the sales dashboard tab of My Collections (product §29; guarded by the route table). */
export default function MyCollectionsDashboardRoute() {
  const userId = useAuthStore((s) => s.user?.id);
  return (
    <PageContainer>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl dark:text-white">
        {MyCollectionsTexts.heading}
      </h1>
      <p className="mt-2 mb-6 text-sm text-slate-600 dark:text-slate-400">{MyCollectionsTexts.subtitle}</p>
      <MyCollectionsTabs />
      <SalesDashboard userId={userId} />
    </PageContainer>
  );
}

/**
 * App-layer glue between the marketplace screens (features/collections) and the wallet
 * (features/wallet), which may not import each other: the signed-in viewer with the available
 * balance from the wallet's assets query, and the wallet's Top-up modal with an opener.
 */
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import type { Viewer } from '@/features/orders/components/buy-button';
import { getAssetsQueryOptions } from '@/features/wallet/api/get-assets';

// The Top-up modal's code loads the first time it opens.
const TopUpDialog = lazy(() => import('@/features/wallet/components/top-up-dialog').then((m) => ({ default: m.TopUpDialog })));

export function useViewerWallet(): { viewer: Viewer; openTopUp: () => void; topUp: ReactNode } {
  const user = useAuthStore((s) => (s.isAuthenticated ? s.user : null));
  const storeAvailable = useAuthStore((s) => s.assets?.available);
  const assets = useQuery({ ...getAssetsQueryOptions(user?.id ?? ''), enabled: Boolean(user) });
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const viewer: Viewer = { id: user?.id ?? null, available: assets.data?.available ?? storeAvailable ?? null };
  return {
    viewer,
    openTopUp: () => {
      setWanted(true);
      setOpen(true);
    },
    topUp:
      user && wanted ? (
        <Suspense fallback={null}>
          <TopUpDialog open={open} onOpenChange={setOpen} userId={user.id} />
        </Suspense>
      ) : null,
  };
}

/**
 * App-layer glue between the marketplace screens (features/collections) and the wallet
 * (features/wallet), which may not import each other: the signed-in viewer with the available
 * balance from the wallet's assets query, and the wallet's Top-up modal with an opener.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useAuthStore } from '../../features/auth/stores/auth-store';
import type { Viewer } from '../../features/collections/components/buy-button';
import { getAssetsQueryOptions } from '../../features/wallet/api/get-assets';
import { TopUpDialog } from '../../features/wallet/components/top-up-dialog';

export function useViewerWallet(): { viewer: Viewer; openTopUp: () => void; topUp: ReactNode } {
  const user = useAuthStore((s) => (s.isAuthenticated ? s.user : null));
  const storeAvailable = useAuthStore((s) => s.assets?.available);
  const assets = useQuery({ ...getAssetsQueryOptions(user?.id ?? ''), enabled: Boolean(user) });
  const [open, setOpen] = useState(false);
  const viewer: Viewer = { id: user?.id ?? null, available: assets.data?.available ?? storeAvailable ?? null };
  return {
    viewer,
    openTopUp: () => setOpen(true),
    topUp: user ? <TopUpDialog open={open} onOpenChange={setOpen} userId={user.id} /> : null,
  };
}

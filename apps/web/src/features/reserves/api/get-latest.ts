/**
 * POST /api/uc/v1/reserves/latest (product §22, public): the latest proof-of-liabilities
 * publication (root, total, users, reserves), or `publication: null` before the first one.
 */
import type { ReservesLatestData } from '@coffer/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { queryPresets } from '@/lib/query-client';

export const reservesLatestQueryKey = ['reserves', 'latest'] as const;

export function getReservesLatest(signal?: AbortSignal): Promise<ReservesLatestData> {
  return callApi('reservesLatest', {}, { signal });
}

/** The latest publication, cached like user data (a publication changes at most a few times a day). */
export function useReservesLatest() {
  return useQuery({ ...queryPresets.user, queryKey: reservesLatestQueryKey, queryFn: ({ signal }) => getReservesLatest(signal) });
}

/**
 * The current user (POST /api/uc/v1/account/get/me, product §7). Never stale (product §9 "Current-user
 * query"): it is refetched explicitly by the layout on load and by the guard on entry.
 * A 'Record does not exist' answer ends the session with 'User record does not exist. Please log
 * in again.' (product §8).
 */
import type { User } from '@coffer/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { ApiError, callApi, ErrorMessages, expireSession } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';
import { useAuthStore } from '../stores/auth-store';

export const meQueryKey = [...queryKeys.user, 'me'] as const;

/** Fetches the user and stores it (with its asset pair) in the auth store. */
export async function getMe(signal?: AbortSignal): Promise<User> {
  try {
    const user = await callApi('getMe', {}, { signal });
    useAuthStore.getState().setUser(user);
    useAuthStore.getState().setError(null);
    return user;
  } catch (err) {
    if (err instanceof ApiError && !err.sessionExpired) {
      if (err.msg === 'Record does not exist') {
        expireSession(ErrorMessages.recordMissing);
      } else {
        useAuthStore.getState().setError('Failed to fetch current user');
        toast.error('Failed to fetch current user', { id: 'fetch-current-user' });
      }
    }
    throw err;
  }
}

export function getMeQueryOptions() {
  return queryOptions({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => getMe(signal),
    staleTime: Infinity,
  });
}

/**
 * The current user while signed in. `refetchOnMount: 'always'` gives the product §2 refetches
 * (layout on load, guard on entry); concurrent refetches are deduplicated by TanStack Query.
 */
export function useMe({ refetchOnMount = false }: { refetchOnMount?: boolean } = {}) {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  return useQuery({ ...getMeQueryOptions(), enabled: isAuthenticated, refetchOnMount: refetchOnMount ? 'always' : false });
}

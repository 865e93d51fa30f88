/** A user's public profile (POST /api/uc/v1/account/profile {user_id} -> {id, username, nickname, avatar, created_at}). */
import type { PublicUser } from '@coffer/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { queryKeys, queryPresets } from '@/lib/query-client';

export function getProfile(userId: string, signal?: AbortSignal): Promise<PublicUser> {
  return callApi('profile', { user_id: userId }, { signal });
}

export function getProfileQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...queryKeys.user, 'profile', userId],
    queryFn: ({ signal }) => getProfile(userId, signal),
    ...queryPresets.user,
  });
}

/** The public profile of `userId`; disabled while `userId` is undefined. */
export function useProfile(userId: string | undefined) {
  return useQuery({ ...getProfileQueryOptions(userId ?? ''), enabled: Boolean(userId) });
}

/**
 * Session calls (product §26): `session/list` {} -> {sessions}, `session/revoke` {session_id} -> {},
 * `session/revoke/others` {} -> {revoked}. Revoking refreshes the list.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: [...queryKeys.user, 'sessions'] as const,
    queryFn: ({ signal }) => callApi('sessionList', {}, { signal }),
  });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

export function useRevokeSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => callApi('sessionRevoke', { session_id: sessionId }),
    onSettled: () => client.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}

export function useRevokeOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callApi('sessionRevokeOthers', {}),
    onSettled: () => client.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}

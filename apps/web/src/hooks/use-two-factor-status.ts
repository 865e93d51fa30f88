/**
 * POST /api/uc/v1/account/2fa/status {} -> {enabled, recovery_codes_left} (product §26). Shared by
 * the Security page and the cash-out confirm step (which asks for a code when it is on); under the
 * user's query root, so it is dropped on logout and session expiry.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';

export const twoFactorStatusQueryOptions = () =>
  queryOptions({
    queryKey: [...queryKeys.user, 'two-factor'] as const,
    queryFn: ({ signal }) => callApi('twoFactorStatus', {}, { signal }),
  });

export function useTwoFactorStatus({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...twoFactorStatusQueryOptions(), enabled });
}

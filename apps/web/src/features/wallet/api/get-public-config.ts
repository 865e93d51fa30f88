/**
 * POST /api/uc/v1/config: the public settings (payment provider, sandbox mode, points per USD,
 * deposit lifetime). Static for the life of the server, so cached with the static preset.
 */
import type { PublicConfig } from '@coffer/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { queryPresets } from '@/lib/query-client';

export const publicConfigQueryKey = ['config', 'public'] as const;

export function getPublicConfig(signal?: AbortSignal): Promise<PublicConfig> {
  return callApi('publicConfig', {}, { signal });
}

export function usePublicConfig() {
  return useQuery({ ...queryPresets.static, queryKey: publicConfigQueryKey, queryFn: ({ signal }) => getPublicConfig(signal) });
}

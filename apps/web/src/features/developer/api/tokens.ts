/**
 * Personal access token calls (docs/decisions/0058, 0059): `token/list` {} -> {tokens},
 * `token/create` {name, scopes, expires_in_days, password (MD5) | code} -> the token once with its
 * metadata, `token/revoke` {token_id} -> {}. Creating and revoking refresh the list. Under the
 * user's query root, so the list is dropped on logout and session expiry.
 */
import type { TokenScope } from '@coffer/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { hashPassword } from '@/lib/md5';
import { queryKeys } from '@/lib/query-client';

export const tokensQueryOptions = () =>
  queryOptions({
    queryKey: [...queryKeys.user, 'access-tokens'] as const,
    queryFn: ({ signal }) => callApi('tokenList', {}, { signal }),
  });

export function useTokens() {
  return useQuery(tokensQueryOptions());
}

/** What the create dialog sends: the clear password is hashed here (product §5), a code is trimmed. */
export interface CreateTokenInput {
  name: string;
  scopes: TokenScope[];
  expiresInDays: number;
  password?: string;
  code?: string;
}

export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateTokenInput) =>
      callApi('tokenCreate', {
        name: input.name.trim(),
        scopes: input.scopes,
        expires_in_days: input.expiresInDays,
        ...(input.password ? { password: await hashPassword(input.password) } : {}),
        ...(input.code?.trim() ? { code: input.code.trim() } : {}),
      }),
    onSettled: () => client.invalidateQueries({ queryKey: tokensQueryOptions().queryKey }),
  });
}

export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) => callApi('tokenRevoke', { token_id: tokenId }),
    onSettled: () => client.invalidateQueries({ queryKey: tokensQueryOptions().queryKey }),
  });
}

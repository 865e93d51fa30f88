/**
 * Two-factor calls (product §26): `2fa/setup` {} -> {otpauth_uri, secret} (not active yet),
 * `2fa/enable` {code} -> {recovery_codes} (shown once), `2fa/disable` {password (MD5), code} -> {}.
 * Enable and disable refresh the shared status query.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { twoFactorStatusQueryOptions } from '@/hooks/use-two-factor-status';
import { callApi } from '@/lib/api-client';
import { hashPassword } from '@/lib/md5';

export function useTwoFactorSetup() {
  return useMutation({ mutationFn: () => callApi('twoFactorSetup', {}) });
}

export function useTwoFactorEnable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => callApi('twoFactorEnable', { code: code.trim() }),
    onSuccess: () => client.invalidateQueries({ queryKey: twoFactorStatusQueryOptions().queryKey }),
  });
}

export function useTwoFactorDisable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { password: string; code: string }) =>
      callApi('twoFactorDisable', { password: await hashPassword(input.password), code: input.code.trim() }),
    onSuccess: () => client.invalidateQueries({ queryKey: twoFactorStatusQueryOptions().queryKey }),
  });
}

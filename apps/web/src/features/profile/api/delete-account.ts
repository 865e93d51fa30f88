/**
 * Account deletion (POST /api/uc/v1/account/delete {password: md5}). The server refuses while a
 * balance remains or a withdrawal is in flight; its msg is shown as is.
 */
import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { hashPassword } from '@/lib/md5';

export async function deleteAccount(password: string): Promise<unknown> {
  return callApi('accountDelete', { password: await hashPassword(password) });
}

export function useDeleteAccount({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useMutation({ mutationFn: deleteAccount, onSuccess: () => onSuccess?.() });
}

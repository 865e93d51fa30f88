/**
 * Password change (POST /api/uc/v1/account/password/change, body {password_old, password_new}
 * as MD5 digests). The server revokes every session and answers a fresh access_token, which
 * replaces the stored one.
 */
import { ErrorReason, type AccessTokenData } from '@coffer/contract';
import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { ApiError, callApi, toastError } from '@/lib/api-client';
import { hashPassword } from '@/lib/md5';
import { useAuthStore } from '../stores/auth-store';

export async function changePassword(input: { current: string; next: string }): Promise<AccessTokenData> {
  const [password_old, password_new] = await Promise.all([hashPassword(input.current), hashPassword(input.next)]);
  return callApi('passwordChange', { password_old, password_new });
}

/**
 * @param onWrongPassword called with the server's message when the current password was wrong
 *   (INVALID_CREDENTIALS), so the form can show it at the field
 */
export function useChangePassword({
  onSuccess,
  onWrongPassword,
}: { onSuccess?: () => void; onWrongPassword?: (message: string) => void } = {}) {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (data) => {
      if (data?.access_token) useAuthStore.getState().setToken(data.access_token);
      toast.success('Password changed successfully');
      onSuccess?.();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.reason === ErrorReason.INVALID_CREDENTIALS) onWrongPassword?.(err.message);
      toastError(err, 'Failed to change password');
    },
  });
}

/**
 * Forgot password (product §12/§17): `send_mail {email, type: 'reset_password'}` mails a 6-digit
 * code; `password/forget {email, code, password: md5}` sets the new password and revokes every
 * session.
 */
import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { hashPassword } from '@/lib/md5';

export function sendResetCode(email: string): Promise<unknown> {
  return callApi('sendMail', { email: email.trim(), type: 'reset_password' });
}

export async function resetPassword(input: { email: string; code: string; password: string }): Promise<unknown> {
  const password = await hashPassword(input.password);
  return callApi('passwordForget', { email: input.email.trim(), code: input.code.trim(), password });
}

export function useSendResetCode({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useMutation({
    mutationFn: sendResetCode,
    onSuccess: () => {
      toast.success('If an account uses this email, a reset code is on its way.');
      onSuccess?.();
    },
    onError: (err) => toastError(err, 'Failed to send the reset code'),
  });
}

export function useResetPassword({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => {
      toast.success('Password reset. Please log in with your new password.');
      onSuccess?.();
    },
    onError: (err) => toastError(err, 'Failed to reset password'),
  });
}

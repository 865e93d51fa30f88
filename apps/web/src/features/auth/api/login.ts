/** Login (POST /api/uc/v1/account/login, body {account, password: md5}, data {access_token}). */
import type { AccessTokenData } from '@coffer/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { hashPassword } from '@/lib/md5';
import { startSession } from './session';

export interface LoginInput {
  /** Username or email. */
  account: string;
  /** Clear text; only its MD5 digest is sent. */
  password: string;
}

export async function login(input: LoginInput): Promise<AccessTokenData> {
  const password = await hashPassword(input.password);
  return callApi('login', { account: input.account.trim(), password });
}

/** Signs in; toasts 'Login successful!' or the failure ('Failed to login' when no message). */
export function useLogin({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: LoginInput) =>
      startSession(queryClient, await login(input), 'Login failed: Invalid response from server.'),
    onSuccess: () => {
      toast.success('Login successful!');
      onSuccess?.();
    },
    onError: (err) => toastError(err, 'Failed to login'),
  });
}

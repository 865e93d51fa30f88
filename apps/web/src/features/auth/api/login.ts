/** Login (POST /api/uc/v1/account/login, body {account, password: md5}, data {access_token}). */
import type { AccessTokenData } from '@coffer/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { ErrorReason } from '@coffer/contract/constants';
import { ApiError, callApi, toastError } from '@/lib/api-client';
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

/**
 * Signs in; toasts 'Login successful!' or the failure ('Failed to login' when no message). A
 * suspended account (403 ACCOUNT_SUSPENDED, product §27) reads as the server's message, which says
 * why: the form shows it too ({@link suspendedMessage}).
 */
export function useLogin({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: LoginInput) =>
      startSession(queryClient, await login(input), 'Login failed: Invalid response from server.'),
    onSuccess: () => {
      toast.success('Login successful!');
      onSuccess?.();
    },
    onError: (err) => {
      const suspended = suspendedMessage(err);
      if (suspended) toast.error(suspended, { id: 'account-suspended' });
      else toastError(err, 'Failed to login');
    },
  });
}

/** The server's message when `err` refuses a suspended account (product §27), else null. */
export function suspendedMessage(err: unknown): string | null {
  return err instanceof ApiError && err.reason === ErrorReason.ACCOUNT_SUSPENDED && err.msg ? err.msg : null;
}

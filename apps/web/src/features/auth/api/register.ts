/** Registration (POST /api/uc/v1/account/register, body {username, email, password: md5, nickname?}, data {access_token}). */
import type { AccessTokenData } from '@coffer/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { hashPassword } from '@/lib/md5';
import { startSession } from './session';

export interface RegisterInput {
  username: string;
  email: string;
  nickname?: string;
  /** Clear text; only its MD5 digest is sent. */
  password: string;
}

export async function register(input: RegisterInput): Promise<AccessTokenData> {
  const password = await hashPassword(input.password);
  const nickname = input.nickname?.trim();
  return callApi('register', {
    username: input.username.trim(),
    email: input.email.trim(),
    password,
    ...(nickname ? { nickname } : {}),
  });
}

/** Creates the account and signs in; toasts 'Registration successful!' or the failure. */
export function useRegister({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: RegisterInput) =>
      startSession(queryClient, await register(input), 'Registration failed: Invalid response from server.'),
    onSuccess: () => {
      toast.success('Registration successful!');
      onSuccess?.();
    },
    onError: (err) => toastError(err, 'Failed to register'),
  });
}

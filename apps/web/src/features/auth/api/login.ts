/**
 * Login (POST /api/uc/v1/account/login, body {account, password: md5}, data {access_token}). With
 * two-factor sign-in on (product §26) a right password answers reason TWO_FACTOR_REQUIRED with
 * `data {challenge, expires_at}`; the form then asks for a code and sends it with the challenge to
 * `login/2fa` ({@link useLoginTwoFactor}).
 */
import type { AccessTokenData } from '@coffer/contract';
import { ErrorReason } from '@coffer/contract/constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { ApiError, callApi, toastError } from '@/lib/api-client';
import { hashPassword } from '@/lib/md5';
import { startSession } from './session';

export interface LoginInput {
  /** Username or email. */
  account: string;
  /** Clear text; only its MD5 digest is sent. */
  password: string;
}

/** What a login led to: a session, or a two-factor challenge to answer with a code. */
export type LoginOutcome = { kind: 'signed-in' } | { kind: 'two-factor'; challenge: string };

export async function login(input: LoginInput): Promise<AccessTokenData> {
  const password = await hashPassword(input.password);
  return callApi('login', { account: input.account.trim(), password });
}

/** The challenge of a TWO_FACTOR_REQUIRED answer, or null for any other failure. */
export function twoFactorChallenge(err: unknown): string | null {
  if (!(err instanceof ApiError) || err.reason !== ErrorReason.TWO_FACTOR_REQUIRED) return null;
  const challenge = (err.data as { challenge?: unknown } | null | undefined)?.challenge;
  return typeof challenge === 'string' && challenge ? challenge : null;
}

const INVALID_RESPONSE = 'Login failed: Invalid response from server.';

/**
 * Signs in; toasts 'Login successful!' or the failure ('Failed to login' when no message). A
 * two-factor challenge is no failure: it resolves `{kind: 'two-factor', challenge}` without a toast.
 * A suspended account (403 ACCOUNT_SUSPENDED, product §27) reads as the server's message, which
 * says why: the form shows it too ({@link suspendedMessage}).
 */
export function useLogin({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: LoginInput): Promise<LoginOutcome> => {
      let data: AccessTokenData;
      try {
        data = await login(input);
      } catch (err) {
        const challenge = twoFactorChallenge(err);
        if (challenge) return { kind: 'two-factor', challenge };
        throw err;
      }
      await startSession(queryClient, data, INVALID_RESPONSE);
      return { kind: 'signed-in' };
    },
    onSuccess: (outcome) => {
      if (outcome.kind !== 'signed-in') return;
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

/** POST /api/uc/v1/account/login/2fa {challenge, code} -> {access_token}; then as a login. */
export function useLoginTwoFactor({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { challenge: string; code: string }) =>
      startSession(
        queryClient,
        await callApi('loginTwoFactor', { challenge: input.challenge, code: input.code.trim() }),
        INVALID_RESPONSE,
      ),
    onSuccess: () => {
      toast.success('Login successful!');
      onSuccess?.();
    },
  });
}

/** The server's message when `err` refuses a suspended account (product §27), else null. */
export function suspendedMessage(err: unknown): string | null {
  return err instanceof ApiError && err.reason === ErrorReason.ACCOUNT_SUSPENDED && err.msg ? err.msg : null;
}

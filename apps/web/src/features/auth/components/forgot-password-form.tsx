/**
 * Forgot password in two steps: the email to mail a 6-digit code to (send_mail), then the code
 * with the new password and its confirmation (password/forget). On success, back to /login.
 */
import { RESET_CODE_LENGTH } from '@coffer/contract/constants';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/input';
import { useResetPassword, useSendResetCode } from '../api/reset-password';
import { PasswordField } from './password-field';
import { confirmPasswordError, emailError, isValid, passwordError } from './validation';

const codeError = (code: string) =>
  !code.trim()
    ? 'Code is required'
    : new RegExp(`^\\d{${RESET_CODE_LENGTH}}$`).test(code.trim())
      ? null
      : `Code must be ${RESET_CODE_LENGTH} digits`;

export function ForgotPasswordForm({ onSuccess }: { onSuccess?: () => void }) {
  const [step, setStep] = useState<'email' | 'reset'>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const send = useSendResetCode({ onSuccess: () => setStep('reset') });
  const reset = useResetPassword({ onSuccess });

  function requestCode(e: FormEvent) {
    e.preventDefault();
    const next = { email: emailError(email) };
    setErrors(next);
    if (isValid(next)) send.mutate(email);
  }

  function submitReset(e: FormEvent) {
    e.preventDefault();
    const next = { code: codeError(code), password: passwordError(password), confirm: confirmPasswordError(password, confirm) };
    setErrors(next);
    if (isValid(next)) reset.mutate({ email, code, password });
  }

  if (step === 'email') {
    return (
      <form onSubmit={requestCode} noValidate className="space-y-5">
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
          autoFocus
        />
        <Button type="submit" className="w-full" isLoading={send.isPending}>
          Send reset code
        </Button>
      </form>
    );
  }

  return (
    <form onSubmit={submitReset} noValidate className="space-y-4">
      <p className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-800 dark:bg-brand-500/10 dark:text-brand-200">
        {/* As neutral as the toast: the page never tells whether an account uses this address (docs/abuse.md). */}
        If an account uses <strong className="font-medium wrap-anywhere">{email}</strong>, we sent a {RESET_CODE_LENGTH}-digit code to it.
        It is valid for 10 minutes.
      </p>
      <TextField
        label="Reset code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={RESET_CODE_LENGTH}
        value={code}
        onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
        error={errors.code}
        autoFocus
      />
      <PasswordField
        label="New password"
        name="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password}
        hint="8-16 characters with uppercase, lowercase, numbers and special characters"
      />
      <PasswordField
        label="Confirm new password"
        name="confirm"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={errors.confirm}
      />
      <Button type="submit" className="w-full" isLoading={reset.isPending}>
        Reset password
      </Button>
      <div className="flex justify-between text-sm">
        <button
          type="button"
          className="font-medium text-slate-600 hover:underline dark:text-slate-400"
          onClick={() => setStep('email')}
        >
          Use another email
        </button>
        <button
          type="button"
          className="font-medium text-brand-600 hover:underline disabled:opacity-50 dark:text-brand-400"
          disabled={send.isPending}
          onClick={() => send.mutate(email)}
        >
          Resend code
        </button>
      </div>
    </form>
  );
}

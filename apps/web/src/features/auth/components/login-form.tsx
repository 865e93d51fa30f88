/**
 * The login form: username or email + password (sent as its MD5 digest). When two-factor sign-in is
 * on (product §26) the server answers with a challenge and the form asks for the 6-digit code from
 * the authenticator app, or a recovery code, and sends it with the challenge. An expired challenge
 * (5 minutes) brings the password step back.
 */
import { PasswordMessages } from '@coffer/contract';
import { ErrorReason } from '@coffer/contract/constants';
import { ShieldCheck } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/input';
import { ApiError, getErrorMessage } from '@/lib/api-client';
import { suspendedMessage, useLogin, useLoginTwoFactor } from '../api/login';
import { PasswordField } from './password-field';
import { isValid } from './validation';

export const LoginTexts = {
  codeTitle: 'Two-factor sign-in',
  codeHint: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  codeLabel: 'Code',
  codeRequired: 'Enter the 6-digit code or a recovery code',
  verify: 'Verify',
  back: 'Back',
} as const;

export function LoginForm({ onSuccess }: { onSuccess?: () => void }) {
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const passwordId = useId();
  const [errors, setErrors] = useState<{ account?: string | null; password?: string | null }>({});
  // The server's 'wrong credentials' answer, shown at the password field until either field changes.
  const [wrongPassword, setWrongPassword] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<string | null>(null);
  const login = useLogin({ onSuccess });
  const suspended = login.isError ? suspendedMessage(login.error) : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    const next = {
      account: account.trim() ? null : 'Username or email is required',
      password: password ? null : PasswordMessages.required,
    };
    setErrors(next);
    setWrongPassword(null);
    if (isValid(next)) {
      login.mutate(
        { account, password },
        {
          onSuccess: (outcome) => outcome.kind === 'two-factor' && setChallenge(outcome.challenge),
          // A wrong password shows at the field too (the toast alone leaves it unclear what to fix), focused to retype.
          onError: (err) => {
            if (err instanceof ApiError && err.reason === ErrorReason.INVALID_CREDENTIALS) {
              setWrongPassword(err.message);
              document.getElementById(passwordId)?.focus();
            }
          },
        },
      );
    }
  }

  if (challenge) {
    return (
      <TwoFactorStep
        challenge={challenge}
        onSuccess={onSuccess}
        onRestart={(message) => {
          setChallenge(null);
          setPassword('');
          setErrors({});
          setWrongPassword(message || null);
        }}
      />
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {suspended ? (
        <p
          role="alert"
          className="rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-900 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200"
        >
          {suspended}
        </p>
      ) : null}
      <TextField
        label="Username or email"
        name="account"
        autoComplete="username"
        value={account}
        onChange={(e) => {
          setAccount(e.target.value);
          setWrongPassword(null);
        }}
        error={errors.account}
        autoFocus
      />
      <div className="space-y-2">
        <PasswordField
          id={passwordId}
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setWrongPassword(null);
          }}
          error={errors.password ?? wrongPassword}
        />
        <div className="text-right">
          <Link to="/forgot-password" className="text-sm font-medium text-brand-600 hover:underline dark:text-brand-400">
            Forgot password?
          </Link>
        </div>
      </div>
      <Button type="submit" className="w-full" isLoading={login.isPending}>
        Log in
      </Button>
    </form>
  );
}

function TwoFactorStep({
  challenge,
  onSuccess,
  onRestart,
}: {
  challenge: string;
  onSuccess?: () => void;
  onRestart: (message: string) => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const codeId = useId();
  const verify = useLoginTwoFactor({ onSuccess });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) {
      setError(LoginTexts.codeRequired);
      return;
    }
    setError(null);
    verify.mutate(
      { challenge, code },
      {
        onError: (err) => {
          // An expired or used challenge: back to the password (the server says why).
          if (err instanceof ApiError && err.reason === ErrorReason.CONFLICT) onRestart(getErrorMessage(err));
          else {
            // A wrong code shows at the field, focused to retype.
            setError(getErrorMessage(err, 'Failed to login'));
            document.getElementById(codeId)?.focus();
          }
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <div className="flex items-start gap-3 rounded-xl bg-brand-50 p-4 dark:bg-brand-500/10">
        <ShieldCheck className="mt-0.5 size-5 shrink-0 text-brand-600 dark:text-brand-400" aria-hidden="true" />
        <div>
          <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{LoginTexts.codeTitle}</h2>
          <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">{LoginTexts.codeHint}</p>
        </div>
      </div>
      <TextField
        id={codeId}
        label={LoginTexts.codeLabel}
        name="code"
        inputMode="text"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => {
          setCode(e.target.value);
          setError(null);
        }}
        error={error}
        className="font-mono tracking-widest"
        maxLength={40}
        autoFocus
      />
      <Button type="submit" className="w-full" isLoading={verify.isPending}>
        {LoginTexts.verify}
      </Button>
      <Button variant="ghost" className="w-full" onClick={() => onRestart('')}>
        {LoginTexts.back}
      </Button>
    </form>
  );
}

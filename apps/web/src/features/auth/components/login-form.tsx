/** The login form: username or email + password (sent as its MD5 digest). */
import { PasswordMessages } from '@coffer/contract';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/input';
import { suspendedMessage, useLogin } from '../api/login';
import { PasswordField } from './password-field';
import { isValid } from './validation';

export function LoginForm({ onSuccess }: { onSuccess?: () => void }) {
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ account?: string | null; password?: string | null }>({});
  const login = useLogin({ onSuccess });
  const suspended = login.isError ? suspendedMessage(login.error) : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    const next = {
      account: account.trim() ? null : 'Username or email is required',
      password: password ? null : PasswordMessages.required,
    };
    setErrors(next);
    if (isValid(next)) login.mutate({ account, password });
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
        onChange={(e) => setAccount(e.target.value)}
        error={errors.account}
        autoFocus
      />
      <div className="space-y-2">
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
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

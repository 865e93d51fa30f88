/**
 * The sign-up form: username, email, optional nickname, password and its confirmation, checked
 * with the product §5 rules and messages (checked on blur and on submit).
 */
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/input';
import { useRegister } from '../api/register';
import { PasswordField } from './password-field';
import { confirmPasswordError, emailError, isValid, passwordError, usernameError } from './validation';

type Fields = 'username' | 'email' | 'nickname' | 'password' | 'confirm';

export function RegisterForm({ onSuccess }: { onSuccess?: () => void }) {
  const [values, setValues] = useState<Record<Fields, string>>({ username: '', email: '', nickname: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Fields, string | null>>>({});
  const register = useRegister({ onSuccess });

  const check = (field: Fields, v = values): string | null => {
    switch (field) {
      case 'username':
        return usernameError(v.username);
      case 'email':
        return emailError(v.email);
      case 'nickname':
        return v.nickname.length > 64 ? 'Nickname is too long' : null;
      case 'password':
        return passwordError(v.password);
      case 'confirm':
        return confirmPasswordError(v.password, v.confirm);
    }
  };

  const bind = (field: Fields) => ({
    name: field,
    value: values[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [field]: e.target.value };
      setValues(next);
      if (errors[field]) setErrors((prev) => ({ ...prev, [field]: check(field, next) }));
    },
    onBlur: () => {
      if (values[field]) setErrors((prev) => ({ ...prev, [field]: check(field) }));
    },
    error: errors[field],
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const next = Object.fromEntries((['username', 'email', 'nickname', 'password', 'confirm'] as Fields[]).map((f) => [f, check(f)]));
    setErrors(next);
    if (isValid(next)) register.mutate({ username: values.username, email: values.email, nickname: values.nickname, password: values.password });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <TextField label="Username" autoComplete="username" hint="3-32 letters, digits or underscores" autoFocus {...bind('username')} />
      <TextField label="Email" type="email" autoComplete="email" {...bind('email')} />
      <TextField label="Nickname (optional)" autoComplete="nickname" hint="Shown to other users; defaults to your username" {...bind('nickname')} />
      <PasswordField label="Password" autoComplete="new-password" hint="8-16 characters with uppercase, lowercase, numbers and special characters" {...bind('password')} />
      <PasswordField label="Confirm password" autoComplete="new-password" {...bind('confirm')} />
      <Button type="submit" className="w-full" isLoading={register.isPending}>
        Create account
      </Button>
    </form>
  );
}

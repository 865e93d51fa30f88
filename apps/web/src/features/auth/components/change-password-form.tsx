/**
 * Change password: current + new + confirmation (product §5 rules and messages). The fresh token the
 * server answers replaces the stored one (all other sessions are revoked).
 */
import { SAME_PASSWORD_MESSAGE } from '@coffer/contract';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { useChangePassword } from '../api/change-password';
import { PasswordField } from './password-field';
import { confirmPasswordError, currentPasswordError, isValid, passwordError } from './validation';

export function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const change = useChangePassword({
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setConfirm('');
      setErrors({});
    },
    // A wrong current password is shown at its field too, not only in the toast.
    onWrongPassword: (message) => setErrors((e) => ({ ...e, current: message })),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const found = {
      current: currentPasswordError(current),
      next: passwordError(next) ?? (next && next === current ? SAME_PASSWORD_MESSAGE : null),
      confirm: confirmPasswordError(next, confirm),
    };
    setErrors(found);
    if (isValid(found)) change.mutate({ current, next });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <PasswordField label="Current password" name="password_old" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} error={errors.current} />
      <PasswordField
        label="New password"
        name="password_new"
        autoComplete="new-password"
        value={next}
        onChange={(e) => setNext(e.target.value)}
        error={errors.next}
        hint="8-16 characters with uppercase, lowercase, numbers and special characters"
      />
      <PasswordField label="Confirm new password" name="password_confirm" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={errors.confirm} />
      <div className="flex justify-end">
        <Button type="submit" isLoading={change.isPending}>
          Change password
        </Button>
      </div>
    </form>
  );
}

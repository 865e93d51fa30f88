/** Turn off two-factor sign-in: a dialog asking the password and a code (product §26); errors shown in the dialog. */
import { PasswordMessages } from '@coffer/contract';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/input';
import { getErrorMessage } from '@/lib/api-client';
import { useTwoFactorDisable } from '../api/two-factor';
import { SecurityTexts as T } from './security-texts';

export function DisableTwoFactorDialog() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string | null; code?: string | null; form?: string | null }>({});
  const disable = useTwoFactorDisable();

  function submit(e: FormEvent) {
    e.preventDefault();
    const next = { password: password ? null : PasswordMessages.required, code: code.trim() ? null : T.codeRequired, form: null };
    setErrors(next);
    if (next.password || next.code) return;
    disable.mutate(
      { password, code },
      {
        onSuccess: () => {
          setOpen(false);
          toast.success(T.disabled);
        },
        onError: (err) => setErrors({ form: getErrorMessage(err, 'Failed to turn off two-factor sign-in') }),
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setPassword('');
          setCode('');
          setErrors({});
          disable.reset();
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">{T.disable}</Button>
      </DialogTrigger>
      <DialogContent title={T.disableTitle} description={T.disableDescription}>
        <form onSubmit={submit} noValidate className="space-y-4">
          <Field label={T.passwordLabel} id="disable-2fa-password" error={errors.password}>
            <Input
              id="disable-2fa-password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? 'disable-2fa-password-error' : undefined}
              autoFocus
            />
          </Field>
          <Field label={T.codeOrRecoveryLabel} id="disable-2fa-code" error={errors.code ?? errors.form}>
            <Input
              id="disable-2fa-code"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              aria-invalid={errors.code || errors.form ? true : undefined}
              aria-describedby={errors.code || errors.form ? 'disable-2fa-code-error' : undefined}
              className="font-mono"
            />
          </Field>
          <DialogFooter>
            <Button variant="ghost" onClick={() => setOpen(false)}>
              {T.cancel}
            </Button>
            <Button type="submit" variant="danger" isLoading={disable.isPending}>
              {T.disable}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

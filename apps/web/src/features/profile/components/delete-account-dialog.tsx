/**
 * Delete account: a dialog asking for the password. The server's refusal (a balance remains, a
 * withdrawal is in flight, a wrong password) is shown in the dialog as it says it.
 */
import { PasswordMessages } from '@coffer/contract';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/input';
import { getErrorMessage } from '@/lib/api-client';
import { useDeleteAccount } from '../api/delete-account';

export function DeleteAccountDialog({ onDeleted }: { onDeleted: () => void }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteAccount({ onSuccess: onDeleted });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!password) {
      setError(PasswordMessages.required);
      return;
    }
    setError(null);
    remove.mutate(password, { onError: (err) => setError(getErrorMessage(err, 'Failed to delete account')) });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setPassword('');
          setError(null);
          remove.reset();
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="danger">Delete account</Button>
      </DialogTrigger>
      <DialogContent
        title="Delete your account?"
        description="This cannot be undone. Your published collections are archived; buyers keep access to what they bought. Your balance must be empty first."
      >
        <form onSubmit={submit} noValidate>
          <Field label="Password" id="delete-password" error={error}>
            <Input
              id="delete-password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'delete-password-error' : undefined}
              autoFocus
            />
          </Field>
          <DialogFooter>
            <Button variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" isLoading={remove.isPending}>
              Delete account
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

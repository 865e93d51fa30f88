/**
 * The create dialog of the Developer tab (ADR 0058): name, expiry, scope checkboxes and the
 * re-authentication (the password, or a two-factor code when it is on; a STEP_UP_REQUIRED answer
 * switches to the method it names). On success the dialog shows the new token once, with a copy
 * button and the warning that it will not be shown again. Errors are shown in the dialog.
 */
import {
  ErrorReason,
  TOKEN_EXPIRY_DAYS,
  TOKEN_NAME_MAX,
  TOKEN_SCOPE_KEYS,
  TOKEN_SCOPES,
  type TokenScope,
} from '@coffer/contract/constants';
import type { TokenCreated } from '@coffer/contract';
import { TriangleAlert } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '@/components/ui/dialog';
import { Field, Input, inputClasses } from '@/components/ui/input';
import { ApiError, getErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useTwoFactorStatus } from '@/hooks/use-two-factor-status';
import { useCreateToken } from '../api/tokens';
import { DeveloperTexts as T } from './developer-texts';

type Errors = { name?: string | null; scopes?: string | null; proof?: string | null; form?: string | null };

export function CreateTokenDialog() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [days, setDays] = useState<number>(30);
  const [scopes, setScopes] = useState<TokenScope[]>([]);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [asked, setAsked] = useState<'password' | 'code' | null>(null);
  const [created, setCreated] = useState<TokenCreated | null>(null);
  const twoFactor = useTwoFactorStatus({ enabled: open });
  const create = useCreateToken();
  const method = asked ?? (twoFactor.data?.enabled ? 'code' : 'password');

  function reset() {
    setName('');
    setDays(30);
    setScopes([]);
    setPassword('');
    setCode('');
    setErrors({});
    setAsked(null);
    setCreated(null);
    create.reset();
  }

  function toggle(scope: TokenScope, on: boolean) {
    setScopes((list) => (on ? [...list, scope] : list.filter((s) => s !== scope)));
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const proof = method === 'code' ? code.trim() : password;
    const next: Errors = {
      name: name.trim() ? null : T.nameRequired,
      scopes: scopes.length ? null : T.scopesRequired,
      proof: proof ? null : method === 'code' ? T.codeRequired : T.passwordHint,
      form: null,
    };
    setErrors(next);
    if (next.name || next.scopes || next.proof) return;
    create.mutate(
      { name, scopes, expiresInDays: days, ...(method === 'code' ? { code } : { password }) },
      {
        onSuccess: (data) => {
          setCreated(data);
          setPassword('');
          setCode('');
          toast.success(T.tokenCreated);
        },
        onError: (err) => {
          if (err instanceof ApiError && err.reason === ErrorReason.STEP_UP_REQUIRED) {
            const wanted = (err.data as { method?: string } | undefined)?.method === 'code' ? 'code' : 'password';
            setAsked(wanted);
          }
          setErrors({ proof: getErrorMessage(err, 'Failed to create the token') });
        },
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button>{T.create}</Button>
      </DialogTrigger>
      <DialogContent
        title={created ? T.newTitle : T.createTitle}
        description={created ? undefined : T.createDescription}
        // Closing by a click outside would lose a token not yet copied.
        onInteractOutside={(e) => e.preventDefault()}
      >
        {created ? (
          <div className="space-y-4">
            <p
              role="alert"
              className="flex gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200"
            >
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {T.newWarning}
            </p>
            <div className="flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-2 dark:border-slate-700 dark:bg-slate-800/70">
              <code
                aria-label="New token"
                className="min-w-0 flex-1 font-mono text-sm break-all text-slate-900 dark:text-slate-100"
              >
                {created.token}
              </code>
              <CopyButton value={created.token} label={T.copy} successMessage={T.copied} errorMessage={T.copyFailed} />
            </div>
            <DialogFooter>
              <Button onClick={() => setOpen(false)}>{T.done}</Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={submit} noValidate className="space-y-4">
            <Field label={T.nameLabel} id="token-name" error={errors.name} hint={T.nameHint}>
              <Input
                id="token-name"
                value={name}
                maxLength={TOKEN_NAME_MAX}
                onChange={(e) => setName(e.target.value)}
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={errors.name ? 'token-name-error' : 'token-name-hint'}
                autoFocus
              />
            </Field>
            <Field label={T.expiryLabel} id="token-expiry">
              <select
                id="token-expiry"
                className={cn(inputClasses)}
                value={days}
                onChange={(e) => setDays(Number(e.target.value))}
              >
                {TOKEN_EXPIRY_DAYS.map((d) => (
                  <option key={d} value={d}>
                    {T.days(d)}
                  </option>
                ))}
              </select>
            </Field>
            <fieldset aria-describedby={errors.scopes ? 'token-scopes-error' : undefined}>
              <legend className="block text-sm font-medium text-slate-700 dark:text-slate-300">{T.scopesLabel}</legend>
              <ul className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
                {TOKEN_SCOPE_KEYS.map((scope) => (
                  <li key={scope}>
                    <label className="flex cursor-pointer gap-2 rounded-lg border border-slate-200 p-2 text-sm dark:border-slate-700">
                      <input
                        type="checkbox"
                        className="mt-0.5 size-4 shrink-0 accent-brand-600"
                        checked={scopes.includes(scope)}
                        onChange={(e) => toggle(scope, e.target.checked)}
                      />
                      <span className="min-w-0">
                        <span className="block font-mono text-xs font-medium text-slate-900 dark:text-white">{scope}</span>
                        <span className="block text-xs text-slate-500 dark:text-slate-400">{TOKEN_SCOPES[scope]}</span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
              {errors.scopes ? (
                <p id="token-scopes-error" role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
                  {errors.scopes}
                </p>
              ) : null}
            </fieldset>
            {method === 'code' ? (
              <Field label={T.codeLabel} id="token-code" error={errors.proof} hint={T.codeHint}>
                <Input
                  id="token-code"
                  autoComplete="one-time-code"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  aria-invalid={errors.proof ? true : undefined}
                  aria-describedby={errors.proof ? 'token-code-error' : 'token-code-hint'}
                  className="font-mono"
                />
              </Field>
            ) : (
              <Field label={T.passwordLabel} id="token-password" error={errors.proof} hint={T.passwordHint}>
                <Input
                  id="token-password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  aria-invalid={errors.proof ? true : undefined}
                  aria-describedby={errors.proof ? 'token-password-error' : 'token-password-hint'}
                />
              </Field>
            )}
            <DialogFooter>
              <Button variant="ghost" onClick={() => setOpen(false)} disabled={create.isPending}>
                {T.cancel}
              </Button>
              <Button type="submit" isLoading={create.isPending}>
                {T.submit}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

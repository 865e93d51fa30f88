/**
 * Two-factor sign-in (product §26): off -> "Turn on" asks the server for a secret (2fa/setup) and
 * shows it as a QR code (qrcode.react, as the top-up's Scan to Pay) and as text, then a typed code
 * turns it on (2fa/enable) and the ten recovery codes are shown once, with copy and download.
 * On -> the recovery codes left and "Turn off" (a dialog asking password and code).
 */
import type { TwoFactorSetup } from '@coffer/contract';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadError } from '@/components/ui/load-error';
import { useTwoFactorStatus } from '@/hooks/use-two-factor-status';
import { getErrorMessage, toastError } from '@/lib/api-client';
import { useTwoFactorEnable, useTwoFactorSetup } from '../api/two-factor';
import { DisableTwoFactorDialog } from './disable-two-factor-dialog';
import { RecoveryCodes } from './recovery-codes';
import { SecurityTexts as T } from './security-texts';

export function TwoFactorCard() {
  const status = useTwoFactorStatus();
  const setup = useTwoFactorSetup();
  const [pending, setPending] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  const enabled = status.data?.enabled ?? false;
  return (
    <Card className="p-4 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900 dark:text-white">
            {T.twoFactorTitle}
            {status.data ? (
              enabled ? (
                <Badge tone="green" icon={<ShieldCheck className="size-3.5" aria-hidden="true" />}>
                  On
                </Badge>
              ) : (
                <Badge tone="slate" icon={<ShieldOff className="size-3.5" aria-hidden="true" />}>
                  Off
                </Badge>
              )
            ) : null}
          </h2>
          {status.isPending ? (
            <Skeleton className="mt-2 h-4 w-72 max-w-full" />
          ) : status.isError ? (
            <LoadError
              className="mt-1 items-start py-0 text-left"
              message={getErrorMessage(status.error, 'Could not load the setting.')}
              onRetry={() => void status.refetch()}
            />
          ) : (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              {enabled ? T.twoFactorOn : T.twoFactorOff}
              {enabled && status.data ? ` ${T.recoveryLeft(status.data.recovery_codes_left)}.` : null}
            </p>
          )}
        </div>
        {status.data && !pending && !codes ? (
          enabled ? (
            <DisableTwoFactorDialog />
          ) : (
            <Button
              isLoading={setup.isPending}
              onClick={() => setup.mutate(undefined, { onSuccess: setPending, onError: (err) => toastError(err, 'Failed to start setup') })}
            >
              {T.enable}
            </Button>
          )
        ) : null}
      </div>
      {pending ? (
        <EnrolStep
          setup={pending}
          onCancel={() => setPending(null)}
          onEnabled={(recovery) => {
            setPending(null);
            setCodes(recovery);
            toast.success(T.enabled);
          }}
        />
      ) : null}
      {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}
    </Card>
  );
}

function EnrolStep({ setup, onCancel, onEnabled }: { setup: TwoFactorSetup; onCancel: () => void; onEnabled: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const codeId = useId();
  const enable = useTwoFactorEnable();

  function submit(e: FormEvent) {
    e.preventDefault();
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError(T.codeRequired);
      return;
    }
    setError(null);
    enable.mutate(digits, {
      onSuccess: (data) => onEnabled(data.recovery_codes),
      onError: (err) => setError(getErrorMessage(err, 'Failed to turn on two-factor sign-in')),
    });
  }

  return (
    <form onSubmit={submit} noValidate className="mt-6 grid gap-6 border-t border-slate-200 pt-6 sm:grid-cols-[auto_1fr] dark:border-slate-800">
      <div className="mx-auto rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-700">
        <QRCodeSVG value={setup.otpauth_uri} size={160} aria-label="QR code of the two-factor setup key" role="img" />
      </div>
      <div className="min-w-0 space-y-4">
        <p className="text-sm text-slate-600 dark:text-slate-400">{T.scan}</p>
        <div>
          <p className="text-sm font-medium text-slate-700 dark:text-slate-300">{T.secretLabel}</p>
          <div className="mt-1 flex items-center gap-1 rounded-lg bg-slate-50 px-3 py-1.5 dark:bg-slate-800/70">
            <code className="min-w-0 flex-1 font-mono text-sm break-all text-slate-900 dark:text-slate-100">{setup.secret}</code>
            <CopyButton value={setup.secret} label="Copy setup key" successMessage={T.secretCopied} />
          </div>
        </div>
        <Field label={T.codeLabel} id={codeId} error={error}>
          <Input
            id={codeId}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${codeId}-error` : undefined}
            className="max-w-40 font-mono tracking-widest"
            autoFocus
          />
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" isLoading={enable.isPending}>
            {T.verify}
          </Button>
          <Button variant="ghost" onClick={onCancel}>
            {T.cancel}
          </Button>
        </div>
      </div>
    </form>
  );
}

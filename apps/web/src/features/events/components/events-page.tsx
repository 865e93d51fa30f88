/**
 * Your Profile > Events & webhooks (product §23): the event feed (oldest first, "Load more" from
 * the last cursor), the webhook URL form, the signing secret (rotated and shown once, with a copy
 * button), the signature scheme (HMAC, Ed25519 or both, ADR 0061) with the Ed25519 public key
 * (copy button, rotation) and the delivery log with a Redeliver button per delivery. Each block has its skeleton,
 * empty and error state; every control is a button or a labelled input (keyboard-usable); one
 * column at 390 px.
 */
import type { SellerEvent, WebhookDelivery, WebhookSigningScheme } from '@coffer/contract';
import { Activity, Send } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog, DialogContent, DialogFooter, useReturnFocus } from '@/components/ui/lazy-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { EmptyState } from '@/components/ui/empty-state';
import { TextField } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadError } from '@/components/ui/load-error';
import { getErrorMessage, toastError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { formatPoints } from '@/lib/points';
import {
  useDeliveries,
  useEventFeed,
  useRedeliver,
  useRotateSecret,
  useRotateSigningKey,
  useSetSigning,
  useSetWebhook,
  useWebhook,
} from '../api/events';

/** product §23 texts. */
export const EventTexts = {
  feedTitle: 'Event feed',
  feedEmptyTitle: 'No events yet',
  feedEmptyDescription: 'Sales and cash-out updates will appear here.',
  feedError: 'Could not load your events.',
  loadMore: 'Load more',
  retry: 'Try again',
  webhookTitle: 'Webhook',
  urlLabel: 'Endpoint URL',
  urlHint: 'Coffer POSTs each event to this URL, signed with your secret (Standard Webhooks).',
  save: 'Save',
  remove: 'Remove',
  saved: 'Webhook URL saved',
  removed: 'Webhook URL removed',
  secretLabel: 'Signing secret',
  rotate: 'Rotate secret',
  rotateConfirmTitle: 'Rotate the signing secret?',
  rotateConfirmBody:
    'A new secret is made and shown once. The current one stops working at once: deliveries signed with the new secret fail verification until your receiver uses it.',
  rotateConfirm: 'Rotate secret',
  cancel: 'Cancel',
  secretOnce: 'Copy this secret now. It will not be shown again.',
  secretCopied: 'Secret copied to clipboard',
  secretNone: 'A secret is created when you save a URL.',
  secretSet: 'A secret is set. Rotate it to get a new one; the old one stops working at once.',
  deliveriesTitle: 'Deliveries',
  deliveriesEmptyTitle: 'No deliveries yet',
  deliveriesEmptyDescription: 'Events are delivered here once a webhook URL is set.',
  deliveriesError: 'Could not load the deliveries.',
  redeliver: 'Redeliver',
  redelivered: 'Event queued for delivery',
  schemeLabel: 'Signature scheme',
  schemeHmac: 'HMAC-SHA256 with the signing secret (v1)',
  schemeEd25519: 'Ed25519, verified with the public key (v1a)',
  schemeBoth: 'Both signatures',
  schemeSaved: 'Signature scheme saved',
  publicKeyLabel: 'Public key',
  publicKeyHint: 'Receivers verify v1a signatures with this key. It is not secret.',
  publicKeyCopied: 'Public key copied to clipboard',
  rotateKey: 'Rotate key',
  rotateKeyConfirmTitle: 'Rotate the signing key?',
  rotateKeyConfirmBody:
    'A new key pair is made. The current public key stops verifying at once: give your receiver the new public key.',
  disabled: 'Deliveries are turned off: every delivery to this URL failed for 24 hours. Fix the endpoint, then save the URL to turn them on again.',
} as const;

/** A one-line summary of an event. */
export function describeEvent(e: SellerEvent): string {
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case 'sale':
      return d.clears_at
        ? `Sale: ${formatPoints(String(d.earned ?? '0'))} points earned (pending)`
        : `Sale: ${formatPoints(String(d.earned ?? '0'))} points earned`;
    case 'sale.cleared':
      return `Cleared: ${formatPoints(String(d.earned ?? '0'))} points now available`;
    case 'payout.status':
      return `Cash-out ${
        d.tx_status === 'broadcast'
          ? 'broadcast'
          : String(d.status ?? '')
              .replace('WithdrawStatus', '')
              .toLowerCase()
      }: ${formatPoints(String(d.amount ?? '0'))} points${d.network ? ` on ${String(d.network)}` : ''}`;
    case 'refund':
      return `Refund: ${formatPoints(String(d.earned ?? '0'))} points returned`;
    case 'review':
      return `Review ${String(d.action ?? '')}: ${String(d.rating ?? '?')} of 5 stars`;
    case 'collection.hidden':
      return `Collection hidden by Coffer: ${String(d.reason ?? '')}`;
  }
}

const deliveryTone: Record<WebhookDelivery['status'], BadgeTone> = { pending: 'amber', delivered: 'green', failed: 'red' };
const deliveryLabel: Record<WebhookDelivery['status'], string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="p-4 sm:p-6">
      <h2 className="mb-4 text-base font-semibold text-slate-900 dark:text-white">{title}</h2>
      {children}
    </Card>
  );
}

function RowsSkeleton() {
  return (
    <div className="space-y-3" data-testid="rows-skeleton">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-10 w-full" />
      ))}
    </div>
  );
}

function ErrorBlock({ error, fallback, retry }: { error: unknown; fallback: string; retry: () => void }) {
  return <LoadError message={getErrorMessage(error, fallback)} onRetry={retry} />;
}

function EventFeed() {
  const feed = useEventFeed();
  const events = feed.data?.pages.flatMap((p) => p.events) ?? [];
  if (feed.isPending) return <RowsSkeleton />;
  if (feed.isError) return <ErrorBlock error={feed.error} fallback={EventTexts.feedError} retry={() => void feed.refetch()} />;
  if (!events.length)
    return <EmptyState icon={<Activity />} title={EventTexts.feedEmptyTitle} description={EventTexts.feedEmptyDescription} />;
  return (
    <div>
      <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Events">
        {events.map((e) => (
          <li key={e.id} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0">
              <p className="text-sm font-medium wrap-anywhere text-slate-900 dark:text-white">{describeEvent(e)}</p>
              <p className="truncate font-mono text-xs text-slate-500">{e.id}</p>
            </div>
            <div className="flex shrink-0 items-center gap-2">
              <Badge tone="slate">{e.type}</Badge>
              <time className="text-xs text-slate-500" dateTime={new Date(e.created_at).toISOString()}>
                {formatDateTime(e.created_at)}
              </time>
            </div>
          </li>
        ))}
      </ul>
      {feed.hasNextPage ? (
        <Button
          variant="outline"
          className="mt-4 w-full sm:w-auto"
          isLoading={feed.isFetchingNextPage}
          onClick={() => void feed.fetchNextPage()}
        >
          {EventTexts.loadMore}
        </Button>
      ) : null}
    </div>
  );
}

function WebhookSettings() {
  const webhook = useWebhook();
  const setUrl = useSetWebhook();
  const rotate = useRotateSecret();
  const [draft, setDraft] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);
  // Opened without a trigger: focus goes back to 'Rotate secret' when it closes.
  const returnFocus = useReturnFocus();
  if (webhook.isPending) return <RowsSkeleton />;
  if (webhook.isError)
    return <ErrorBlock error={webhook.error} fallback={EventTexts.feedError} retry={() => void webhook.refetch()} />;
  const endpoint = webhook.data.endpoint;
  const value = draft ?? endpoint.url ?? '';

  function save(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setUrl.mutate(value.trim() || null, {
      onSuccess: (data) => {
        setDraft(null);
        if (data.secret) setSecret(data.secret);
        toast.success(data.endpoint.url ? EventTexts.saved : EventTexts.removed);
      },
      onError: (err) => setError(getErrorMessage(err, undefined, 'server')),
    });
  }

  return (
    <div className="space-y-6">
      {endpoint.disabled_at ? (
        <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-200">
          {EventTexts.disabled}
        </p>
      ) : null}
      <form onSubmit={save} className="space-y-3" noValidate>
        <TextField
          label={EventTexts.urlLabel}
          type="url"
          inputMode="url"
          placeholder="https://example.com/webhooks/coffer"
          value={value}
          onChange={(e) => setDraft(e.target.value)}
          hint={EventTexts.urlHint}
          error={error}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" isLoading={setUrl.isPending}>
            {EventTexts.save}
          </Button>
          {endpoint.url ? (
            <Button
              variant="outline"
              disabled={setUrl.isPending}
              onClick={() =>
                setUrl.mutate(null, {
                  onSuccess: () => {
                    setDraft(null);
                    toast.success(EventTexts.removed);
                  },
                  onError: (err) => toastError(err),
                })
              }
            >
              {EventTexts.remove}
            </Button>
          ) : null}
        </div>
      </form>
      <div className="space-y-2">
        <p className="text-sm font-medium text-slate-900 dark:text-white">{EventTexts.secretLabel}</p>
        {secret ? (
          <div className="rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-500/40 dark:bg-amber-500/10">
            <p className="text-sm text-amber-900 dark:text-amber-200">{EventTexts.secretOnce}</p>
            <div className="mt-2 flex items-center gap-2">
              <code className="min-w-0 flex-1 font-mono text-xs break-all" data-testid="webhook-secret">
                {secret}
              </code>
              <CopyButton value={secret} label="Copy secret" successMessage={EventTexts.secretCopied} />
            </div>
          </div>
        ) : (
          <p className="text-sm text-slate-500">{endpoint.has_secret ? EventTexts.secretSet : EventTexts.secretNone}</p>
        )}
        {endpoint.has_secret ? (
          <Button variant="outline" size="sm" isLoading={rotate.isPending} onClick={() => setConfirmRotate(true)}>
            {EventTexts.rotate}
          </Button>
        ) : null}
        <Dialog open={confirmRotate} onOpenChange={(open) => !rotate.isPending && setConfirmRotate(open)}>
          <DialogContent {...returnFocus} title={EventTexts.rotateConfirmTitle} description={EventTexts.rotateConfirmBody}>
            <DialogFooter>
              <Button variant="outline" onClick={() => setConfirmRotate(false)} disabled={rotate.isPending}>
                {EventTexts.cancel}
              </Button>
              <Button
                variant="danger"
                isLoading={rotate.isPending}
                onClick={() =>
                  rotate.mutate(undefined, {
                    onSuccess: (d) => {
                      setSecret(d.secret);
                      setConfirmRotate(false);
                    },
                    onError: (err) => toastError(err),
                  })
                }
              >
                {EventTexts.rotateConfirm}
              </Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>
      </div>
      <SigningSettings endpoint={endpoint} onSecret={setSecret} />
    </div>
  );
}

const schemes: { value: WebhookSigningScheme; label: string }[] = [
  { value: 'hmac', label: EventTexts.schemeHmac },
  { value: 'ed25519', label: EventTexts.schemeEd25519 },
  { value: 'both', label: EventTexts.schemeBoth },
];

/** The signature scheme choice and the Ed25519 public key (copy, rotate). */
function SigningSettings({
  endpoint,
  onSecret,
}: {
  endpoint: { url: string | null; signing?: WebhookSigningScheme | undefined; public_key?: string | null | undefined };
  onSecret: (secret: string) => void;
}) {
  const setSigning = useSetSigning();
  const rotateKey = useRotateSigningKey();
  const [confirmRotate, setConfirmRotate] = useState(false);
  const returnFocus = useReturnFocus();
  const current = endpoint.signing ?? 'hmac';
  return (
    <div className="space-y-3">
      <fieldset className="space-y-2" disabled={setSigning.isPending}>
        <legend className="text-sm font-medium text-slate-900 dark:text-white">{EventTexts.schemeLabel}</legend>
        {schemes.map((s) => (
          <label key={s.value} className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
            <input
              type="radio"
              name="webhook-signing"
              value={s.value}
              checked={current === s.value}
              onChange={() =>
                setSigning.mutate(
                  { url: endpoint.url, signing: s.value },
                  {
                    onSuccess: (d) => {
                      if (d.secret) onSecret(d.secret);
                      toast.success(EventTexts.schemeSaved);
                    },
                    onError: (err) => toastError(err),
                  },
                )
              }
            />
            {s.label}
          </label>
        ))}
      </fieldset>
      {endpoint.public_key && current !== 'hmac' ? (
        <div className="space-y-2">
          <p className="text-sm font-medium text-slate-900 dark:text-white">{EventTexts.publicKeyLabel}</p>
          <div className="flex items-center gap-2">
            <code className="min-w-0 flex-1 font-mono text-xs break-all" data-testid="webhook-public-key">
              {endpoint.public_key}
            </code>
            <CopyButton value={endpoint.public_key} label="Copy public key" successMessage={EventTexts.publicKeyCopied} />
          </div>
          <p className="text-xs text-slate-500">{EventTexts.publicKeyHint}</p>
          <Button variant="outline" size="sm" isLoading={rotateKey.isPending} onClick={() => setConfirmRotate(true)}>
            {EventTexts.rotateKey}
          </Button>
          <Dialog open={confirmRotate} onOpenChange={(open) => !rotateKey.isPending && setConfirmRotate(open)}>
            <DialogContent {...returnFocus} title={EventTexts.rotateKeyConfirmTitle} description={EventTexts.rotateKeyConfirmBody}>
              <DialogFooter>
                <Button variant="outline" onClick={() => setConfirmRotate(false)} disabled={rotateKey.isPending}>
                  {EventTexts.cancel}
                </Button>
                <Button
                  variant="danger"
                  isLoading={rotateKey.isPending}
                  onClick={() =>
                    rotateKey.mutate(undefined, {
                      onSuccess: () => setConfirmRotate(false),
                      onError: (err) => toastError(err),
                    })
                  }
                >
                  {EventTexts.rotateKey}
                </Button>
              </DialogFooter>
            </DialogContent>
          </Dialog>
        </div>
      ) : null}
    </div>
  );
}

function DeliveryLog() {
  const deliveries = useDeliveries();
  const redeliver = useRedeliver();
  const rows = deliveries.data?.pages.flatMap((p) => p.deliveries) ?? [];
  if (deliveries.isPending) return <RowsSkeleton />;
  if (deliveries.isError)
    return <ErrorBlock error={deliveries.error} fallback={EventTexts.deliveriesError} retry={() => void deliveries.refetch()} />;
  if (!rows.length)
    return (
      <EmptyState icon={<Send />} title={EventTexts.deliveriesEmptyTitle} description={EventTexts.deliveriesEmptyDescription} />
    );
  return (
    <div>
      <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Deliveries">
        {rows.map((d) => (
          <li key={d.event_id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0 space-y-1">
              <div className="flex items-center gap-2">
                <Badge tone={deliveryTone[d.status]}>{deliveryLabel[d.status]}</Badge>
                <span className="text-sm text-slate-900 dark:text-white">{d.event_type}</span>
              </div>
              <p className="truncate font-mono text-xs text-slate-500">{d.event_id}</p>
              <p className="text-xs wrap-anywhere text-slate-500">
                {`Attempts: ${d.attempts}`}
                {d.last_response_code !== null ? ` · Last response: ${d.last_response_code}` : ''}
                {d.last_error && d.last_response_code === null ? ` · ${d.last_error}` : ''}
                {d.next_attempt_at !== null ? ` · Next attempt: ${formatDateTime(d.next_attempt_at)}` : ''}
              </p>
            </div>
            <Button
              variant="outline"
              size="sm"
              aria-label={`${EventTexts.redeliver} ${d.event_id}`}
              isLoading={redeliver.isPending && redeliver.variables === d.event_id}
              onClick={() =>
                redeliver.mutate(d.event_id, {
                  onSuccess: () => toast.success(EventTexts.redelivered),
                  onError: (err) => toastError(err),
                })
              }
            >
              {EventTexts.redeliver}
            </Button>
          </li>
        ))}
      </ul>
      {deliveries.hasNextPage ? (
        <Button
          variant="outline"
          className="mt-4 w-full sm:w-auto"
          isLoading={deliveries.isFetchingNextPage}
          onClick={() => void deliveries.fetchNextPage()}
        >
          {EventTexts.loadMore}
        </Button>
      ) : null}
    </div>
  );
}

/** The whole page (own profile only; the route guards it). */
export function EventsPage() {
  return (
    <div className="grid gap-6">
      <Section title={EventTexts.feedTitle}>
        <EventFeed />
      </Section>
      <Section title={EventTexts.webhookTitle}>
        <WebhookSettings />
      </Section>
      <Section title={EventTexts.deliveriesTitle}>
        <DeliveryLog />
      </Section>
    </div>
  );
}

/**
 * The seller's Discount codes screen (/mycollections/discounts, product §28): a table of the codes
 * (code, discount, what it applies to, uses, expiry, status, a shareable `?code=` link for codes of
 * one collection, Disable) and a "New code" modal (Radix dialog: focus trap, Escape, labelled
 * fields). Percent codes take floor(price × percent / 100) off; fixed codes take whole points off;
 * a use counts when an order is paid.
 */
import { DISCOUNT_CODE_MAX, DiscountCreateRequestSchema, type Collection } from '@coffer/contract';
import { Plus, TicketPercent } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { STACK_TABLE_CLASS, useStackedLabels } from '@/components/ui/stacked-table';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog, DialogContent, DialogFooter } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Field, inputClasses, TextField } from '@/components/ui/input';
import { PageContainer, PageHeader } from '@/components/ui/page';
import { Pagination } from '@/components/ui/pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadError } from '@/components/ui/load-error';
import { usePagedQuery } from '@/hooks/use-paged-query';
import { getErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { formatPointsLabel } from '@/lib/points';
import { useCreateDiscountCode, useDiscountCodes, useDisableDiscountCode, type DiscountCode } from '../api/discount-codes';

export const DiscountTexts = {
  heading: 'Discount codes',
  subtitle: 'Codes buyers type in the buy dialog, or open from a shared link. A use counts when an order is paid.',
  newCode: 'New code',
  create: 'Create code',
  emptyTitle: 'No discount codes yet',
  emptyBody: 'Create a code to give buyers a percent or a number of points off.',
  allCollections: 'All your collections',
} as const;

/** What the code takes off, e.g. '15%' or '10 Points'. */
export function discountLabel(c: Pick<DiscountCode, 'kind' | 'value'>): string {
  return c.kind === 'percent' ? `${c.value}%` : formatPointsLabel(c.value);
}

function statusOf(c: DiscountCode, now: number): { label: string; tone: 'green' | 'zinc' | 'amber' } {
  if (c.disabled_at !== null) return { label: 'Disabled', tone: 'zinc' };
  if (c.expires_at !== null && c.expires_at <= now) return { label: 'Expired', tone: 'zinc' };
  if (c.max_uses !== null && c.uses >= c.max_uses) return { label: 'Used up', tone: 'amber' };
  return { label: 'Active', tone: 'green' };
}

/** The codes table's columns; the last (actions) has no visible name. */
const CODE_COLUMNS = ['Code', 'Discount', 'Applies to', 'Uses', 'Expires', 'Status', ''];

function CodesTable({ codes, titles }: { codes: DiscountCode[]; titles: Map<string, string> }) {
  const disable = useDisableDiscountCode();
  const now = Date.now();
  const table = useRef<HTMLTableElement>(null);
  useStackedLabels(table, CODE_COLUMNS);
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 dark:border-slate-800">
      <table ref={table} className={`w-full min-w-[48rem] text-sm ${STACK_TABLE_CLASS}`}>
        <thead className="bg-slate-50 text-left text-xs text-slate-500 dark:bg-slate-900 dark:text-slate-400">
          <tr>
            {CODE_COLUMNS.slice(0, -1).map((h) => (
              <th key={h} scope="col" className="px-4 py-2 font-medium">
                {h}
              </th>
            ))}
            <th scope="col" className="px-4 py-2 text-right font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {codes.map((c) => {
            const status = statusOf(c, now);
            const link = c.collection_id
              ? `${window.location.origin}/collection/${c.collection_id}?code=${encodeURIComponent(c.code)}`
              : null;
            return (
              <tr key={c.id} data-testid="discount-row">
                <td className="px-4 py-2.5 whitespace-nowrap">
                  <span className="inline-flex items-center gap-1">
                    <code className="font-mono font-medium text-slate-900 dark:text-white">{c.code}</code>
                    {link ? (
                      <CopyButton
                        value={link}
                        label={`Copy link with code ${c.code}`}
                        successMessage="Link copied to clipboard"
                        errorMessage="Failed to copy link"
                      />
                    ) : null}
                  </span>
                </td>
                <td className="px-4 py-2.5 tabular-nums">{discountLabel(c)}</td>
                <td className="px-4 py-2.5 text-slate-700 dark:text-slate-300">
                  {c.collection_id ? (
                    <Link
                      to={`/collection/${c.collection_id}`}
                      className="block max-w-48 truncate hover:underline sm:max-w-64"
                      title={titles.get(c.collection_id)}
                    >
                      {titles.get(c.collection_id) ?? 'Collection'}
                    </Link>
                  ) : (
                    DiscountTexts.allCollections
                  )}
                  {c.once_per_buyer ? (
                    <span className="block text-xs text-slate-500 dark:text-slate-400">Once per buyer</span>
                  ) : null}
                </td>
                <td className="px-4 py-2.5 tabular-nums">{c.max_uses !== null ? `${c.uses} / ${c.max_uses}` : c.uses}</td>
                <td className="px-4 py-2.5 whitespace-nowrap text-slate-600 dark:text-slate-400">
                  {c.expires_at !== null ? formatDate(c.expires_at) : 'Never'}
                </td>
                <td className="px-4 py-2.5">
                  <Badge tone={status.tone}>{status.label}</Badge>
                </td>
                <td className="px-4 py-2.5 text-right">
                  {c.disabled_at === null ? (
                    <Button
                      variant="outline"
                      size="sm"
                      isLoading={disable.isPending && disable.variables === c.id}
                      onClick={() => disable.mutate(c.id)}
                      aria-label={`Disable code ${c.code}`}
                    >
                      Disable
                    </Button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The end of the chosen day (local time) in milliseconds, or null for an empty date. */
function endOfDay(date: string): number | null {
  if (!date) return null;
  const d = new Date(`${date}T23:59:59`);
  return Number.isNaN(d.getTime()) ? null : d.getTime();
}

export function NewCodeDialog({
  open,
  onOpenChange,
  collections,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  collections: Pick<Collection, 'id' | 'title'>[];
}) {
  const ids = { kind: useId(), collection: useId(), expires: useId(), once: useId() };
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<'percent' | 'fixed'>('percent');
  const [value, setValue] = useState('');
  const [collectionId, setCollectionId] = useState('');
  const [expires, setExpires] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [once, setOnce] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateDiscountCode();

  function reset() {
    setCode('');
    setKind('percent');
    setValue('');
    setCollectionId('');
    setExpires('');
    setMaxUses('');
    setOnce(false);
    setErrors({});
    create.reset();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const body = {
      code,
      kind,
      value: value.trim(),
      collection_id: collectionId || null,
      expires_at: endOfDay(expires),
      max_uses: maxUses.trim() === '' ? null : maxUses.trim(),
      once_per_buyer: once,
    };
    const parsed = DiscountCreateRequestSchema.safeParse(body);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form');
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: () => {
        reset();
        onOpenChange(false);
      },
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (create.isPending) return;
        if (!o) reset();
        onOpenChange(o);
      }}
    >
      <DialogContent
        title={DiscountTexts.newCode}
        description="Buyers type the code in the buy dialog; letters are not case-sensitive."
      >
        <form onSubmit={submit} noValidate className="space-y-4">
          <TextField
            label="Code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={errors.code}
            maxLength={DISCOUNT_CODE_MAX}
            placeholder="SPRING25"
            autoComplete="off"
            className="font-mono uppercase"
            hint="Letters, digits, - and _."
          />
          <fieldset>
            <legend className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">Type</legend>
            <div className="inline-flex rounded-lg border border-slate-200 p-0.5 dark:border-slate-800">
              {(
                [
                  ['percent', 'Percent off'],
                  ['fixed', 'Points off'],
                ] as const
              ).map(([k, label]) => (
                <label
                  key={k}
                  className={cn(
                    'cursor-pointer rounded-md px-3 py-1 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
                    kind === k
                      ? 'bg-slate-900 text-white dark:bg-white dark:text-slate-900'
                      : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white',
                  )}
                >
                  <input
                    type="radio"
                    name={ids.kind}
                    value={k}
                    checked={kind === k}
                    onChange={() => setKind(k)}
                    className="sr-only"
                  />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <TextField
            label={kind === 'percent' ? 'Percent off (1-100)' : 'Points off (whole points)'}
            inputMode="numeric"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={errors.value}
            hint={kind === 'percent' ? 'The discount is rounded down to whole points.' : 'A price never goes below 0.'}
            containerClassName="max-w-xs"
          />
          <Field label="Applies to" id={ids.collection} error={errors.collection_id}>
            <select
              id={ids.collection}
              value={collectionId}
              onChange={(e) => setCollectionId(e.target.value)}
              className={cn(inputClasses, 'h-10')}
            >
              <option value="">{DiscountTexts.allCollections}</option>
              {collections.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </select>
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Expires after (optional)" id={ids.expires} error={errors.expires_at}>
              <input
                id={ids.expires}
                type="date"
                value={expires}
                onChange={(e) => setExpires(e.target.value)}
                className={cn(inputClasses, 'h-10')}
              />
            </Field>
            <TextField
              label="Total uses (optional)"
              inputMode="numeric"
              placeholder="No limit"
              value={maxUses}
              onChange={(e) => setMaxUses(e.target.value)}
              error={errors.max_uses}
            />
          </div>
          <div className="flex items-center gap-2">
            <input
              id={ids.once}
              type="checkbox"
              checked={once}
              onChange={(e) => setOnce(e.target.checked)}
              className="size-4 rounded border-slate-300 focus-visible:ring-2 focus-visible:ring-brand-500"
            />
            <label htmlFor={ids.once} className="text-sm text-slate-700 dark:text-slate-300">
              One use per buyer
            </label>
          </div>
          {create.isError ? (
            <p
              role="alert"
              className="rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
            >
              {getErrorMessage(create.error, 'Failed to create the code')}
            </p>
          ) : null}
          <DialogFooter>
            <Button
              variant="outline"
              onClick={() => {
                reset();
                onOpenChange(false);
              }}
              disabled={create.isPending}
            >
              Cancel
            </Button>
            <Button type="submit" isLoading={create.isPending}>
              {DiscountTexts.create}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * @param collections the seller's collections a code can be for (and whose titles the list shows),
 *   read by the route from the collections feature (features do not import each other)
 */
export function DiscountCodes({
  userId,
  collections,
}: {
  userId: string | null | undefined;
  collections: Pick<Collection, 'id' | 'title'>[];
}) {
  const enabled = Boolean(userId);
  const [open, setOpen] = useState(false);
  const { query, pagination } = usePagedQuery((p) => useDiscountCodes(enabled, p));
  const titles = new Map(collections.map((c) => [c.id, c.title]));

  return (
    <PageContainer>
      <nav aria-label="Breadcrumb" className="mb-4 text-sm text-slate-500 dark:text-slate-400">
        <Link to="/mycollections" className="hover:text-slate-900 dark:hover:text-white">
          My Collections
        </Link>
        <span aria-hidden="true"> / </span>
        <span className="text-slate-700 dark:text-slate-300">{DiscountTexts.heading}</span>
      </nav>
      <PageHeader
        title={DiscountTexts.heading}
        description={DiscountTexts.subtitle}
        actions={
          <Button onClick={() => setOpen(true)}>
            <Plus className="size-4" aria-hidden="true" />
            {DiscountTexts.newCode}
          </Button>
        }
      />
      {query.isPending ? (
        <Skeleton className="h-40 w-full rounded-xl" />
      ) : query.isError ? (
        <LoadError message={getErrorMessage(query.error, 'Failed to load discount codes')} onRetry={() => void query.refetch()} />
      ) : query.data.codes.length === 0 ? (
        <EmptyState
          icon={<TicketPercent />}
          title={DiscountTexts.emptyTitle}
          description={DiscountTexts.emptyBody}
          action={
            <Button onClick={() => setOpen(true)}>
              <Plus className="size-4" aria-hidden="true" />
              {DiscountTexts.newCode}
            </Button>
          }
        />
      ) : (
        <div className="space-y-4">
          <CodesTable codes={query.data.codes} titles={titles} />
          {pagination ? <Pagination {...pagination} noun="codes" /> : null}
        </div>
      )}
      <NewCodeDialog open={open} onOpenChange={setOpen} collections={collections} />
    </PageContainer>
  );
}

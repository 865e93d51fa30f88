/**
 * "Report" on a collection's page (product §27), for signed-in users who do not own it: a button
 * opening a keyboard-usable modal (Radix Dialog: focus trap, Escape, focus back to the button) with
 * the reason as radio buttons (arrow keys move between them), optional details and Send report.
 */
import { REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason } from '@coffer/contract/constants';
import { Flag } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, useReturnFocus } from '@/components/ui/lazy-dialog';
import { Field, inputClasses } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { useReportCollection } from '../api/report-collection';

export const ReportTexts = {
  button: 'Report',
  title: 'Report this collection',
  help: 'Tell Coffer what is wrong. Reports are reviewed by people at Coffer; the seller does not see who sent them.',
  reasonLegend: 'Reason',
  reasonRequired: 'Please choose a reason',
  submit: 'Send report',
};

/** The label and the short explanation of each reason. */
export const REPORT_REASON_LABELS: Record<ReportReason, { label: string; hint: string }> = {
  copyright: { label: 'Copyright', hint: 'It uses work that belongs to someone else.' },
  illegal: { label: 'Illegal content', hint: 'It breaks the law or puts people at risk.' },
  spam: { label: 'Spam or scam', hint: 'Misleading, empty or not what it claims to be.' },
  other: { label: 'Something else', hint: 'Explain in the details below.' },
};

export function ReportDialog({
  collectionId,
  title,
  open,
  onOpenChange,
}: {
  collectionId: string;
  /** The collection's title, shown under the dialog's title. */
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const report = useReportCollection();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const busy = report.isPending;
  // Opened from a plain button (no Radix trigger): focus goes back to whatever opened it.
  const returnFocus = useReturnFocus();

  const close = (o: boolean) => {
    if (busy) return;
    if (!o) {
      setReason(null);
      setDetails('');
      setError(null);
    }
    onOpenChange(o);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!reason) {
      setError(ReportTexts.reasonRequired);
      return;
    }
    report.mutate({ collectionId, reason, details: details.trim() }, { onSuccess: () => close(false) });
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        title={ReportTexts.title}
        description={title}
        {...returnFocus}
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <p className="text-sm text-slate-600 dark:text-slate-400">{ReportTexts.help}</p>
          <fieldset aria-describedby={error ? `${id}-error` : undefined} disabled={busy}>
            <legend className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-300">{ReportTexts.reasonLegend}</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {REPORT_REASONS.map((r) => (
                <label
                  key={r}
                  className={cn(
                    'flex cursor-pointer gap-3 rounded-xl border p-3 text-sm transition-colors',
                    'focus-within:ring-2 focus-within:ring-brand-500',
                    reason === r
                      ? 'border-brand-500 bg-brand-50 dark:border-brand-400 dark:bg-brand-500/10'
                      : 'border-slate-200 hover:border-slate-300 dark:border-slate-700 dark:hover:border-slate-600',
                  )}
                >
                  <input
                    type="radio"
                    name={`${id}-reason`}
                    value={r}
                    checked={reason === r}
                    onChange={() => {
                      setReason(r);
                      setError(null);
                    }}
                    className="mt-0.5 size-4 accent-brand-600 focus:outline-none"
                  />
                  <span>
                    <span className="block font-medium text-slate-900 dark:text-white">{REPORT_REASON_LABELS[r].label}</span>
                    <span className="block text-xs text-slate-500 dark:text-slate-400">{REPORT_REASON_LABELS[r].hint}</span>
                  </span>
                </label>
              ))}
            </div>
            {error ? (
              <p id={`${id}-error`} role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
                {error}
              </p>
            ) : null}
          </fieldset>
          <Field label="Details (optional)" id={`${id}-details`} hint={`${details.length} / ${REPORT_DETAILS_MAX}`}>
            <textarea
              id={`${id}-details`}
              value={details}
              onChange={(e) => setDetails(e.target.value)}
              rows={3}
              maxLength={REPORT_DETAILS_MAX}
              disabled={busy}
              className={cn(inputClasses, 'resize-y')}
            />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={() => close(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" isLoading={busy}>
              {ReportTexts.submit}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The quiet "Report" button with its dialog. */
export function ReportButton({ collectionId, title }: { collectionId: string; title: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="sm" className="w-full text-slate-500 dark:text-slate-400" onClick={() => setOpen(true)}>
        <Flag className="size-4" aria-hidden="true" />
        {ReportTexts.button}
      </Button>
      <ReportDialog collectionId={collectionId} title={title} open={open} onOpenChange={setOpen} />
    </>
  );
}

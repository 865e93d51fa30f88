/**
 * "This wasn't me" on a purchase (product.md §30.6), keyboard-usable (Radix Dialog: focus trap,
 * Escape, focus back to what opened it; the details field is focused first and labelled): optional
 * details, then Report purchase; the dialog then says what happens next and points to Security
 * (change the password, sign out other sessions). The screens load this module when it is first
 * opened (it carries the contract's ORDER_REPORT_DETAILS_MAX, whose module brings zod along).
 */
import { ORDER_REPORT_DETAILS_MAX } from '@coffer/contract';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, useReturnFocus } from '@/components/ui/dialog';
import { Field, inputClasses } from '@/components/ui/input';
import { getErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatPointsLabel } from '@/lib/points';
import { useReportOrder } from '../api/report-order';
import { ReportOrderTexts } from './report-order-texts';

export { ReportOrderTexts };


export interface ReportOrderTarget {
  orderId: string;
  /** The collection's title, shown under the dialog's title. */
  title: string;
  /** Whole points of the order. */
  amount: number;
}

export default function ReportOrderDialog({
  target,
  open,
  onOpenChange,
}: {
  target: ReportOrderTarget;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const report = useReportOrder();
  const [details, setDetails] = useState('');
  const id = useId();
  const busy = report.isPending;
  // Opened from a plain button (no Radix trigger): focus goes back to whatever opened it.
  const returnFocus = useReturnFocus();

  const close = (o: boolean) => {
    if (busy) return;
    if (!o) {
      setDetails('');
      report.reset();
    }
    onOpenChange(o);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    report.mutate({ orderId: target.orderId, details: details.trim() });
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent title={ReportOrderTexts.title} description={target.title} {...returnFocus}>
        {report.isSuccess ? (
          <div className="space-y-4">
            <p
              role="status"
              className="flex items-start gap-3 rounded-xl border border-green-200 bg-green-50 p-3 text-sm text-green-900 dark:border-green-500/30 dark:bg-green-500/10 dark:text-green-200"
            >
              <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>{ReportOrderTexts.done}</span>
            </p>
            <DialogFooter>
              <Link to="/profile/security" onClick={() => close(false)} className={buttonVariants({ variant: 'outline' })}>
                {ReportOrderTexts.security}
              </Link>
              <Button autoFocus onClick={() => close(false)}>
                {ReportOrderTexts.close}
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            <p className="text-sm text-slate-600 dark:text-slate-400">{ReportOrderTexts.help(formatPointsLabel(target.amount))}</p>
            <Field label={ReportOrderTexts.detailsLabel} id={id} hint={`${details.length} / ${ORDER_REPORT_DETAILS_MAX}`}>
              <textarea
                id={id}
                value={details}
                onChange={(e) => setDetails(e.target.value)}
                rows={3}
                maxLength={ORDER_REPORT_DETAILS_MAX}
                disabled={busy}
                aria-describedby={`${id}-hint`}
                placeholder={ReportOrderTexts.detailsHint}
                className={cn(inputClasses, 'resize-y')}
              />
            </Field>
            {report.isError ? (
              <p
                role="alert"
                className="flex items-start gap-2 rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
              >
                <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span>{getErrorMessage(report.error, ReportOrderTexts.failed)}</span>
              </p>
            ) : null}
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" isLoading={busy}>
                {ReportOrderTexts.submit}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

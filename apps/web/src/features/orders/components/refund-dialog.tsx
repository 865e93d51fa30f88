/**
 * The refund modal (product §25), keyboard-usable (Radix Dialog: focus trap, Escape, focus back to
 * the trigger; the reason field is focused first and labelled):
 * - `request` — the buyer's "Request refund" with a required reason (order/refund/request);
 * - `refund` — the seller's "Refund" of a paid order with an optional reason (order/refund).
 */
import { REFUND_REASON_MAX } from '@coffer/contract/constants';
import type { SaleOrder } from '@coffer/contract';
import { OrderStatus } from '@coffer/contract/constants';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, useReturnFocus } from '@/components/ui/dialog';
import { Field, inputClasses } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { formatPointsLabel } from '@/lib/points';
import { useRefundOrder, useRequestRefund } from '../api/refund-order';

export interface RefundTarget {
  orderId: string;
  /** The collection's title, shown under the dialog's title. */
  title: string;
  /** Whole points of the order. */
  amount: number;
}

export const RefundTexts = {
  requestTitle: 'Request refund',
  refundTitle: 'Refund order',
  requestHelp:
    'Within 14 days of payment and before any file is downloaded, the refund is immediate. Otherwise the seller reviews your request.',
  refundHelp: 'The buyer gets the full price back and loses access to the files.',
  reasonRequired: 'Please give a reason',
};

export function RefundDialog({
  mode,
  target,
  open,
  onOpenChange,
}: {
  mode: 'request' | 'refund';
  target: RefundTarget;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const request = useRequestRefund();
  const refund = useRefundOrder();
  const busy = request.isPending || refund.isPending;
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  // The screens open this dialog from their own buttons (no Radix trigger): focus goes back to
  // whatever opened it when it closes.
  const returnFocus = useReturnFocus();

  const close = (o: boolean) => {
    if (busy) return;
    if (!o) {
      setReason('');
      setError(null);
    }
    onOpenChange(o);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const text = reason.trim();
    const done = { onSuccess: () => close(false) };
    if (mode === 'request') {
      if (!text) {
        setError(RefundTexts.reasonRequired);
        return;
      }
      request.mutate({ orderId: target.orderId, reason: text }, done);
    } else {
      refund.mutate({ orderId: target.orderId, ...(text ? { reason: text } : {}) }, done);
    }
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        title={mode === 'request' ? RefundTexts.requestTitle : RefundTexts.refundTitle}
        description={target.title}
        {...returnFocus}
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {mode === 'request' ? RefundTexts.requestHelp : RefundTexts.refundHelp}
          </p>
          <Field
            label={mode === 'request' ? 'Reason' : 'Reason (optional)'}
            id={id}
            error={error}
            hint={`${reason.length} / ${REFUND_REASON_MAX}`}
          >
            <textarea
              id={id}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                setError(null);
              }}
              rows={3}
              maxLength={REFUND_REASON_MAX}
              disabled={busy}
              required={mode === 'request'}
              aria-invalid={error ? true : undefined}
              className={cn(inputClasses, 'resize-y')}
            />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={() => close(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" variant={mode === 'refund' ? 'danger' : 'primary'} isLoading={busy}>
              {mode === 'request' ? 'Request refund' : `Refund ${formatPointsLabel(target.amount)}`}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The seller's "Refund" on a paid sale with its dialog (product §25); nothing on other orders. */
export function SaleRefundButton({ order }: { order: SaleOrder }) {
  const [open, setOpen] = useState(false);
  if (order.status !== OrderStatus.Paid) return null;
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} aria-label={`Refund ${order.buyer.nickname}'s order`}>
        Refund
      </Button>
      <RefundDialog
        mode="refund"
        target={{ orderId: order.id, title: order.collection?.title ?? 'Collection', amount: order.amount }}
        open={open}
        onOpenChange={setOpen}
      />
    </>
  );
}

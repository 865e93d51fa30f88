/**
 * The cash-out modal (product §2, §4, §5): step 1 'Cash out' (USDT network, amount in USD, address,
 * memo when the currency needs one, the amount/address flags and an on-demand fee estimate);
 * step 2 'Confirm withdraw' creates the order ('Creating order...'), then asks for the 'Login
 * password' (sent as MD5). On success the all and outgoing lists are invalidated, `onSuccess`
 * receives the bill, the modal closes and the app goes to /transactions.
 *
 * Step 1 is cash-out-form.tsx, step 2 cash-out-confirm.tsx, the texts cash-out-texts.ts.
 *
 * Amounts: the USD amount x the rate (points per USD = min points / fiat-equivalent minimum,
 * default 100) rounded down to 8 decimals is the `amount` sent (product §5 "Crypto amount sent").
 */
import { RecordCate, type WithdrawBill } from '@coffer/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { toastError } from '@/lib/api-client';
import { useCreateWithdraw } from '../api/create-withdraw';
import { refreshRecordLists } from '../api/get-records';
import { networkLabel } from '../utils/display';
import { CashOutTexts, type CashOutDraft } from './cash-out-texts';
import { CashOutForm, useCashOutForm } from './cash-out-form';
import { ConfirmStep } from './cash-out-confirm';

/** Kept here for the callers and tests that import them with the dialog. */
export { CashOutTexts, USD_CRYPTO_RATE_TEXT } from './cash-out-texts';

export interface CashOutDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
  /** product §4: an optional success callback receives the bill. */
  onSuccess?: (bill: WithdrawBill) => void;
}

export function CashOutDialog({ open, onOpenChange, userId, onSuccess }: CashOutDialogProps) {
  const [step, setStep] = useState<1 | 2>(1);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) setStep(1);
      }}
    >
      {open ? (
        <DialogContent
          title={step === 1 ? 'Cash out' : 'Confirm withdraw'}
          description={step === 1 ? 'Withdraw points as USDT to your own address.' : undefined}
        >
          <CashOutFlow
            userId={userId}
            step={step}
            onStep={setStep}
            onDone={(bill) => {
              onSuccess?.(bill);
              setStep(1);
              onOpenChange(false);
            }}
          />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function CashOutFlow({
  userId,
  step,
  onStep,
  onDone,
}: {
  userId: string;
  step: 1 | 2;
  onStep: (s: 1 | 2) => void;
  onDone: (bill: WithdrawBill) => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useCreateWithdraw();
  const [draft, setDraft] = useState<CashOutDraft | null>(null);
  // The form's state lives here so that Back from step 2 keeps what was typed.
  const form = useCashOutForm(userId);

  function startOrder(d: CashOutDraft) {
    setDraft(d);
    onStep(2);
    create.reset();
    create.mutate(
      {
        currency: d.currency.code,
        amount: d.sendAmount,
        address: d.address.trim(),
        network: networkLabel(d.currency.network),
        memo: d.currency.extra_id_exists ? d.memo.trim() : '',
        user_id: userId,
      },
      {
        onSuccess: (bill) => {
          if (!bill?.id) {
            toast.error(CashOutTexts.createFailed);
            onStep(1);
          }
        },
        onError: (err) => {
          toastError(err, CashOutTexts.createFailed, 'server');
          onStep(1);
        },
      },
    );
  }

  if (step === 2 && draft) {
    return (
      <ConfirmStep
        draft={draft}
        bill={create.data?.id ? create.data : null}
        creating={create.isPending}
        onBack={() => onStep(1)}
        onConfirmed={(bill) => {
          void refreshRecordLists(queryClient, userId, [RecordCate.All, RecordCate.Outgoing]);
          onDone(bill);
          void navigate('/transactions');
        }}
      />
    );
  }
  return <CashOutForm form={form} onSubmit={startOrder} />;
}

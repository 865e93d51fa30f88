/**
 * The bill detail opened from a record row (product §2): a top-up opens its deposit bill (Order
 * Details / Scan to Pay, so an open bill can still be paid), a cash-out its withdrawal detail.
 * Load failures read 'Unable to load order detail' and 'Failed to fetch transaction details'
 * (product §8); a 404 adds 'The requested resource was not found.' under them.
 */
import type { TransactionRecord } from '@coffer/contract';
import { RecordType } from '@coffer/contract/constants';
import { useState } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api-client';
import { useDepositBill } from '../api/get-deposit-bill';
import { usePublicConfig } from '../api/get-public-config';
import { useWithdrawBill, WITHDRAW_DETAIL_FAILED } from '../api/get-withdraw-bill';
import { DepositOrderView, type DepositPage } from './deposit-order-view';
import { WithdrawDetail } from './withdraw-detail';
import { LoadError } from '@/components/ui/load-error';

export const ORDER_DETAIL_FAILED = 'Unable to load order detail';

/** product §8's 404 text for a bill that does not exist, under the screen's own heading; nothing for other failures. */
function notFoundText(error: unknown): string | undefined {
  return error instanceof ApiError && error.status === 404 ? error.message : undefined;
}

function DetailSkeleton() {
  return (
    <div className="space-y-3" aria-label="Loading" role="status">
      <Skeleton className="h-20 w-full rounded-xl" />
      {Array.from({ length: 5 }, (_, i) => (
        <div key={i} className="flex justify-between">
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-4 w-32" />
        </div>
      ))}
    </div>
  );
}

function DepositBillBody({ userId, billId, onClose }: { userId: string; billId: string; onClose: () => void }) {
  const bill = useDepositBill(userId, billId);
  const config = usePublicConfig();
  const [page, setPage] = useState<DepositPage>('details');
  if (bill.isPending) return <DetailSkeleton />;
  if (bill.isError)
    return <LoadError message={ORDER_DETAIL_FAILED} detail={notFoundText(bill.error)} onRetry={() => void bill.refetch()} />;
  return (
    <DepositOrderView
      bill={bill.data}
      userId={userId}
      sandbox={config.data?.sandbox}
      page={page}
      onPageChange={setPage}
      onConfirmed={onClose}
    />
  );
}

function WithdrawBillBody({ userId, billId }: { userId: string; billId: string }) {
  const bill = useWithdrawBill(userId, billId);
  if (bill.isPending) return <DetailSkeleton />;
  if (bill.isError)
    return <LoadError message={WITHDRAW_DETAIL_FAILED} detail={notFoundText(bill.error)} onRetry={() => void bill.refetch()} />;
  return <WithdrawDetail bill={bill.data} />;
}

export interface RecordDetailDialogProps {
  userId: string;
  /** The record whose bill is shown; null keeps the dialog closed. */
  record: Pick<TransactionRecord, 'type' | 'biz_id'> | null;
  onClose: () => void;
}

export function RecordDetailDialog({ userId, record, onClose }: RecordDetailDialogProps) {
  const isTopUp = record?.type === RecordType.TopUp;
  return (
    <Dialog open={Boolean(record)} onOpenChange={(open) => !open && onClose()}>
      {record ? (
        <DialogContent title={isTopUp ? 'Top-up order' : 'Withdrawal details'}>
          {isTopUp ? (
            <DepositBillBody userId={userId} billId={record.biz_id} onClose={onClose} />
          ) : (
            <WithdrawBillBody userId={userId} billId={record.biz_id} />
          )}
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

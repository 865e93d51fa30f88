/**
 * Withdrawal detail view (product §2): amount in USD, P-coin, receive amount, address, network, memo
 * or a dash, date, order id and a status line (product §4: Completed, Failed or Processing).
 */
import type { WithdrawBill } from '@coffer/contract';
import { CircleCheck, CircleX, Clock } from 'lucide-react';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { currencyLabel, formatCrypto, formatUsd, netUsd, networkLabel, withdrawStatusView } from '../utils/display';
import { DetailList, DetailRow } from './detail-rows';
import { formatPoints } from '@/lib/points';

export function WithdrawDetail({ bill }: { bill: WithdrawBill }) {
  const status = withdrawStatusView(bill.status);
  const Icon = status.tone === 'green' ? CircleCheck : status.tone === 'red' ? CircleX : Clock;
  return (
    <div className="space-y-4">
      <div
        role="status"
        className={cn(
          'flex items-center gap-2 rounded-xl px-4 py-3 text-sm font-medium',
          status.tone === 'green' && 'bg-emerald-50 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300',
          status.tone === 'red' && 'bg-red-50 text-red-800 dark:bg-red-500/15 dark:text-red-300',
          status.tone === 'amber' && 'bg-amber-50 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300',
        )}
      >
        <Icon className="size-4" aria-hidden="true" />
        <span>Status: {status.label}</span>
      </div>
      <DetailList>
        <DetailRow label="Amount">{formatUsd(bill.amount_usd)} USD</DetailRow>
        <DetailRow label="P-coin">{formatPoints(bill.amount)}</DetailRow>
        <DetailRow label="Receive amount">
          <span className="flex flex-col items-end">
            <span>{netUsd(bill.amount_usd, bill.fee_fiat)} USD</span>
            <span className="font-mono text-xs font-normal text-slate-500 dark:text-slate-400">
              {formatCrypto(bill.currency_amount)} USDT
            </span>
          </span>
        </DetailRow>
        <DetailRow
          label="Address"
          mono
          wrap
          copy={{
            value: bill.address,
            label: 'Copy address',
            success: 'Address copied to clipboard',
            error: 'Failed to copy address',
          }}
        >
          {bill.address}
        </DetailRow>
        <DetailRow label="Network">
          {currencyLabel({ code: bill.currency, network: bill.network }) || networkLabel(bill.network)}
        </DetailRow>
        <DetailRow label="Memo" mono wrap>
          {bill.memo ? bill.memo : '-'}
        </DetailRow>
        <DetailRow label="Date">{formatDateTime(bill.created_at)}</DetailRow>
        <DetailRow
          label="Order ID"
          mono
          copy={{ value: bill.id, label: 'Copy order ID', success: 'Order ID copied to clipboard' }}
        >
          {bill.id}
        </DetailRow>
      </DetailList>
    </div>
  );
}

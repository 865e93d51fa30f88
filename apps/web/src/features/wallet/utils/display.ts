/**
 * How the wallet shows its values (product §3, §4, §9): network names upper-case, USDT codes as
 * USDT(network), USD 2 decimals, crypto 8 decimals, signed record amounts, status labels and
 * badge tones, and the deposit countdown.
 */
import {
  Big,
  DEPOSIT_ORDER_LIFETIME_SECONDS,
  DepositStatus,
  Direction,
  RecordStatus,
  RecordType,
  WithdrawStatus,
  roundDown,
  type Currency,
} from '@coffer/contract';
import { statusView, type StatusView } from '@/components/ui/status-palette';
import { toDate, type DateInput } from '@/lib/format';
import { formatAmount, formatPoints, groupThousands } from '@/lib/points';

/** product §9: network names are shown upper-case. */
export const networkLabel = (network: string | null | undefined): string => (network ?? '').toUpperCase();

/**
 * product §9: an asset code beginning with USDT shows as USDT(network); anything else as its symbol.
 * @param c a currency, or a code and network (e.g. a bill's pay_currency and network)
 */
export function currencyLabel(c: Pick<Currency, 'network'> & { symbol?: string; code?: string }): string {
  const code = (c.symbol || c.code || '').toUpperCase();
  if (code.startsWith('USDT')) return `USDT(${networkLabel(c.network)})`;
  return code;
}

/** The token symbol of a bill's currency code: 'usdttrc20' -> 'USDT', 'btc' -> 'BTC'. */
export function symbolOfCode(code: string | null | undefined): string {
  const upper = (code ?? '').toUpperCase();
  return upper.startsWith('USDT') ? 'USDT' : upper;
}

/** USD with 2 decimals and thousands separators ('1234.5' -> '1,234.50'); '-' when missing or bad. */
export function formatUsd(value: string | null | undefined): string {
  return formatAmount(value, { fallback: '-' });
}

/** Crypto with 8 decimals, rounded down (product §9), thousands grouped; '-' when missing or bad. */
export function formatCrypto(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  try {
    return groupThousands(roundDown(value, 8));
  } catch {
    return '-';
  }
}

/** product §3 Withdraw bill: net USD = amount_usd - fee_fiat with 2 decimals, or '-' when either is missing. */
export function netUsd(amountUsd: string | null | undefined, feeFiat: string | null | undefined): string {
  if (!amountUsd || !feeFiat) return '-';
  try {
    return formatUsd(new Big(amountUsd).minus(feeFiat).toString());
  } catch {
    return '-';
  }
}

/** A record's amount with its sign: '+' for Incoming, '-' for Outgoing (product §2). */
export function signedAmount(direction: string, amount: string): string {
  const shown = formatPoints(amount).replace(/^-/, '');
  return direction === Direction.Incoming ? `+${shown}` : `-${shown}`;
}

/** The label of a record type (TopUp and CashOut are the money screens' own). */
export function recordTypeLabel(type: string): string {
  switch (type) {
    case RecordType.TopUp:
      return 'Top-up';
    case RecordType.CashOut:
      return 'Cash out';
    case RecordType.Purchase:
      return 'Purchase';
    case RecordType.Sale:
      return 'Sale';
    case RecordType.Refund:
      return 'Refund';
    default:
      return type || 'Transaction';
  }
}

export type { StatusView };

/** product §4 "Record status badges": Pending (also for unknown values), Success, Failed, Refunded. */
export function recordStatusView(status: string | null | undefined): StatusView {
  switch (status) {
    case RecordStatus.Success:
      return statusView('Success');
    case RecordStatus.Failure:
      return statusView('Failed');
    case RecordStatus.Refunded:
      return statusView('Refunded');
    default:
      return statusView('Pending');
  }
}

export type DepositPhase = 'success' | 'processing' | 'failed';

/**
 * product §4 "Deposit bill status": DepositStatusSuccess is success; DepositStatusProcessing,
 * 'Processing' or a missing status (a new bill) is processing; any other value failed.
 */
export function depositPhase(status: string | null | undefined): DepositPhase {
  if (status === DepositStatus.Success) return 'success';
  if (!status || status === DepositStatus.Processing || status === 'Processing') return 'processing';
  return 'failed';
}

/** The status label of a deposit bill: 'Success', 'Processing' or 'Order Expired'. */
export function depositStatusView(status: string | null | undefined): StatusView {
  switch (depositPhase(status)) {
    case 'success':
      return statusView('Success');
    case 'processing':
      return statusView('Processing');
    default:
      return statusView('Order Expired');
  }
}

/** product §4 "Withdraw bill status": Completed; Failed (failure, refunded); Processing otherwise. */
export function withdrawStatusView(status: string | null | undefined): StatusView {
  if (status === WithdrawStatus.Success) return statusView('Completed');
  if (status === WithdrawStatus.Failure || status === WithdrawStatus.Refunded) return statusView('Failed');
  return statusView('Processing');
}

/**
 * product §4 "Deposit countdown": lifetime minus whole seconds since creation, never below 0. Not
 * capped at the lifetime: a device whose clock runs behind the server's sees more than 30:00 (shown
 * hh:mm:ss above an hour), as the rule reads.
 * @param created the bill's creation time (ms string or number; seconds when <= 1e12)
 * @param nowMs the current time in ms
 */
export function secondsLeft(created: DateInput, nowMs: number, lifetimeSeconds: number = DEPOSIT_ORDER_LIFETIME_SECONDS): number {
  const start = toDate(created);
  if (!start) return 0;
  const elapsed = Math.floor((nowMs - start.getTime()) / 1000);
  return Math.max(0, lifetimeSeconds - elapsed);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** product §4: mm:ss, or hh:mm:ss above an hour; negative or bad input shows 00:00. */
export function formatCountdown(totalSeconds: number): string {
  const s = Number.isFinite(totalSeconds) ? Math.max(0, Math.floor(totalSeconds)) : 0;
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  if (s > 3600) return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
  return `${pad(Math.floor(s / 60))}:${pad(seconds)}`;
}

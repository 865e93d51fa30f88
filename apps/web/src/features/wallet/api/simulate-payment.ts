/**
 * POST /api/dev/sandbox/pay {bill_id} (product §17, sandbox mode only): pays a top-up bill in full,
 * so that a person can finish the flow without a wallet.
 */
import type { DepositBill } from '@coffer/contract';
import { useIdempotentMutation } from '@/lib/idempotency';
import { callApi } from '@/lib/api-client';

export async function simulatePayment(billId: string, idempotencyKey?: string): Promise<DepositBill> {
  const data = await callApi('sandboxPay', { bill_id: billId }, idempotencyKey ? { idempotencyKey } : {});
  return data.bill;
}

export function useSimulatePayment() {
  return useIdempotentMutation(simulatePayment);
}

/**
 * POST /api/dev/sandbox/pay {bill_id} (product §17, sandbox mode only): pays a top-up bill in full,
 * so that a person can finish the flow without a wallet.
 */
import type { DepositBill } from '@coffer/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

export async function simulatePayment(billId: string): Promise<DepositBill> {
  const data = await callApi('sandboxPay', { bill_id: billId });
  return data.bill;
}

export function useSimulatePayment() {
  return useMutation({ mutationFn: simulatePayment });
}

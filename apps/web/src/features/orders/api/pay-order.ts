/**
 * Buying, second call (product §17, product.md §30): POST /api/uc/v1/account/order/pay
 * {order_id, amount, password?, code?} settles the quoted order (a paid order is answered unchanged,
 * so a retry after a dropped answer never charges twice).
 * - `amount` is the order's own amount the buyer confirmed: a different (or stale) price answers 409
 *   PRICE_CHANGED, a lapsed quote 409 ORDER_EXPIRED ('Order Expired'); nothing is charged and the
 *   dialog quotes again (./buy-collection.ts) for the buyer to confirm again.
 * - Spending needs a step-up (product.md §30.4): a session that signed in or stepped up in the last
 *   STEP_UP_MINUTES pays with nothing more; any other answers 403 STEP_UP_REQUIRED with
 *   `data.method` 'password' (sent as its MD5 digest, like cash-out's confirm) or 'code' (two-factor
 *   on: an authenticator or recovery code). A wrong one answers INVALID_CREDENTIALS.
 * These refusals belong to the dialog (see {@link payRefusal}): the mutation toasts nothing on error,
 * so the client's generic 403 text ('You do not have permission...') never shows for a step-up.
 * Afterwards the collection's detail, the purchases, the orders, the balance and the user are refetched.
 */
import type { Order } from '@coffer/contract';
import { ErrorReason } from '@coffer/contract/constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { ApiError, callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';
import { resourceKeys } from '@/lib/market-keys';

export interface PayOrderInput {
  orderId: string;
  /** Whole points the buyer confirmed: the quoted order's own `amount`. */
  amount: number;
  /** The clear-text login password (sent as its MD5 digest) when the server asked for it. */
  password?: string;
  /** An authenticator or recovery code when the server asked for one (two-factor on). */
  code?: string;
  /** The Confirm's Idempotency-Key (lib/idempotency.ts): one payment however often it is sent. */
  idempotencyKey?: string;
}

export async function payOrder(input: PayOrderInput): Promise<Order> {
  const code = input.code?.trim();
  // The hashing (hash-wasm) loads only when a password is asked for: the collection page's first
  // screen does without it (docs/decisions/0044-first-screen-before-the-font.md).
  const password = input.password ? await (await import('@/lib/md5')).hashPassword(input.password) : undefined;
  return callApi(
    'orderPay',
    {
      order_id: input.orderId,
      amount: input.amount,
      ...(password ? { password } : {}),
      ...(code ? { code } : {}),
    },
    input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {},
  );
}

/** Why order/pay refused, when the buy dialog handles it itself (no toast). */
export type PayRefusal =
  | { kind: 'step-up'; method: 'password' | 'code' }
  | { kind: 'price-changed' }
  | { kind: 'expired' }
  | { kind: 'insufficient' }
  /** A wrong password or code, or too many tries: the server's msg, shown under the field. */
  | { kind: 'proof'; message: string };

/**
 * Reads a failed pay. `proofSent`: whether the call carried a password or code (then a validation,
 * credentials or rate-limit refusal is about it). @returns null for any other failure (toast it)
 */
export function payRefusal(error: unknown, proofSent: boolean): PayRefusal | null {
  if (!(error instanceof ApiError)) return null;
  switch (error.reason) {
    case ErrorReason.STEP_UP_REQUIRED: {
      const method = (error.data as { method?: unknown } | undefined)?.method;
      return { kind: 'step-up', method: method === 'code' ? 'code' : 'password' };
    }
    case ErrorReason.PRICE_CHANGED:
      return { kind: 'price-changed' };
    case ErrorReason.ORDER_EXPIRED:
      return { kind: 'expired' };
    case ErrorReason.INSUFFICIENT_BALANCE:
      return { kind: 'insufficient' };
    case ErrorReason.INVALID_CREDENTIALS:
      return { kind: 'proof', message: error.msg || 'Incorrect password or code' };
    case ErrorReason.VALIDATION_FAILED:
    case ErrorReason.RATE_LIMITED:
      return proofSent ? { kind: 'proof', message: error.msg || error.message } : null;
    default:
      return null;
  }
}

export function usePayOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: payOrder,
    onSuccess: () => toast.success('Purchase successful! Your files are ready to download.'),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.collections });
      void client.invalidateQueries({ queryKey: resourceKeys.all });
      void client.invalidateQueries({ queryKey: queryKeys.assets });
      void client.invalidateQueries({ queryKey: queryKeys.user });
      void client.invalidateQueries({ queryKey: queryKeys.transactions });
    },
  });
}

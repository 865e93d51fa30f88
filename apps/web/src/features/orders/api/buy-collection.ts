/**
 * Buying, first call (product §17, product.md §30 "The price the buyer saw"): POST
 * /sl/v1/collection/buy {collection_id, code?} answers the buyer's order for that collection (the
 * same one on every repeat) at the price of now: a pending order is re-quoted by each buy (with the
 * code, or at the list price without one; `expires_at` says when the quote lapses). The buy dialog
 * asks for this quote when it opens and shows the order's own `amount`; paying it is
 * ./pay-order.ts. A failure is the dialog's to show (INSUFFICIENT_BALANCE turns it into the Top up
 * offer), so this mutation toasts nothing itself.
 */
import type { Order } from '@coffer/contract';
import { ErrorReason } from '@coffer/contract/constants';
import { useMutation } from '@tanstack/react-query';
import { ApiError, callApi } from '@/lib/api-client';

/** @returns the caller's order for the collection (pending at the price of now, or already paid) */
export function quoteOrder(input: { collectionId: string; code?: string }): Promise<Order> {
  return callApi('collectionBuy', {
    collection_id: input.collectionId,
    ...(input.code ? { code: input.code } : {}),
  });
}

/** True when a failure means the balance is too low (the dialog then offers Top-up). */
export function isInsufficientBalance(error: unknown): boolean {
  return error instanceof ApiError && error.reason === ErrorReason.INSUFFICIENT_BALANCE;
}

/** The quote as a mutation (it writes the pending order); errors are the caller's to show. */
export function useQuoteOrder() {
  return useMutation({ mutationFn: quoteOrder });
}

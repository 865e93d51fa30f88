/**
 * The one status palette (product §21: one colour per meaning everywhere): the badge tone of every
 * status word the screens show. Collection statuses: Created slate, Draft amber, Published green,
 * Archived zinc, Deleted red; money and orders: Pending/Processing amber, Success/Completed/Paid
 * green, Failed/Order Expired red, Refunded blue; a sale's proceeds (product.md §30) Pending amber,
 * Cleared green, and a purchase reported "This wasn't me" amber (Reported: under review). Which word a wire value reads as is the
 * feature's rule (collections/lib/status.ts, wallet/utils/display.ts); its colour is only here.
 */
import type { BadgeTone } from './badge';

export const STATUS_PALETTE = {
  Created: 'slate',
  Draft: 'amber',
  Published: 'green',
  Archived: 'zinc',
  Deleted: 'red',
  Pending: 'amber',
  Processing: 'amber',
  Success: 'green',
  Completed: 'green',
  Paid: 'green',
  Failed: 'red',
  'Order Expired': 'red',
  Refunded: 'blue',
  Cleared: 'green',
  Reported: 'amber',
} as const satisfies Record<string, BadgeTone>;

/** A status word with a colour in {@link STATUS_PALETTE}. */
export type StatusWord = keyof typeof STATUS_PALETTE;

/** A status as a badge shows it: its word and that word's tone. */
export interface StatusView {
  label: StatusWord;
  tone: BadgeTone;
}

/** The badge of a status word: `statusView('Failed')` -> {label: 'Failed', tone: 'red'}. */
export function statusView(label: StatusWord): StatusView {
  return { label, tone: STATUS_PALETTE[label] };
}

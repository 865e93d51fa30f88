/**
 * Seller events and webhooks (product §23, docs/decisions/0025-seller-events-and-webhooks.md).
 *
 * Every event a seller cares about is written once, in the order it happened for that user, with
 * the state change it reports. It is read through the cursor feed (`events/list`) or pushed to the
 * seller's webhook URL, signed in the Standard Webhooks format.
 *
 * Event types:
 * - `sale`: one of the seller's collections was bought (emitted now);
 * - `payout.status`: a cash-out bill of the user changed status (emitted now: processing, succeeded,
 *   refunded);
 * - `refund`: a paid order of one of the seller's collections was refunded (emitted now, product §25);
 * - `collection.hidden`: Coffer took one of the seller's collections down (product §27; `data`:
 *   collection_id, reason, files_removed), written with the takedown;
 * - `sale.cleared`: a sale's pending proceeds cleared and are available (product.md "Clearance");
 * - `review`: a buyer wrote, edited or deleted a review of one of the seller's collections (emitted
 *   now, product §29; `data {review_id, collection_id, buyer_id, rating, text, action}`);
 *
 * Units: `created_at` is milliseconds since the epoch; amounts are decimal point strings.
 */
import { z } from 'zod';
import { EmptyRequestSchema } from './common';

/** The event types (product §23). */
export const SellerEventType = {
  Sale: 'sale',
  PayoutStatus: 'payout.status',
  Refund: 'refund',
  Review: 'review',
  CollectionHidden: 'collection.hidden',
  /** A sale's pending proceeds cleared: they are available to spend or cash out (product.md "Clearance"). */
  SaleCleared: 'sale.cleared',
} as const;
export type SellerEventType = (typeof SellerEventType)[keyof typeof SellerEventType];
export const SELLER_EVENT_TYPES = Object.values(SellerEventType) as [SellerEventType, ...SellerEventType[]];

/** `data` of a `sale` event: the paid order, what the seller earned (price minus the platform fee). */
export const SaleEventDataSchema = z.object({
  order_id: z.string(),
  collection_id: z.string(),
  buyer_id: z.string(),
  /** Whole points the buyer paid. */
  amount: z.number().int(),
  /** Points credited to the seller, 2 decimals. */
  earned: z.string(),
  /** Platform fee, points, 2 decimals. */
  fee: z.string(),
  /** Milliseconds: when `earned` clears (null: available at once, no hold). */
  clears_at: z.number().nullable().optional(),
});
export type SaleEventData = z.infer<typeof SaleEventDataSchema>;

/** `data` of a `refund` event: the refunded order and what left the seller (product §25). */
export const RefundEventDataSchema = z.object({
  order_id: z.string(),
  collection_id: z.string(),
  buyer_id: z.string(),
  /** Whole points returned to the buyer. */
  amount: z.number().int(),
  /** Points taken back from the seller, 2 decimals (what the sale earned). */
  earned: z.string(),
  /** Platform fee returned, points, 2 decimals. */
  fee: z.string(),
  /**
   * `seller` (order/refund), `automatic` (a buyer's request within the window) or `operator` (a
   * "This wasn't me" report reversed with `npm run admin`).
   */
  by: z.enum(['seller', 'automatic', 'operator']),
  reason: z.string().nullable(),
  /** Where `earned` came from: the sale's `pending` proceeds (inside the hold) or `available`. */
  from: z.enum(['pending', 'available']).optional(),
});
export type RefundEventData = z.infer<typeof RefundEventDataSchema>;

/** `data` of a `sale.cleared` event: a sale's proceeds left the hold and are available. */
export const SaleClearedEventDataSchema = z.object({
  order_id: z.string(),
  collection_id: z.string(),
  /** Points that became available, 2 decimals. */
  earned: z.string(),
});
export type SaleClearedEventData = z.infer<typeof SaleClearedEventDataSchema>;

/**
 * `data` of a `payout.status` event: the cash-out bill, its status and where its chain transaction
 * stands (ADR 0060). One event per step, each written once with the change it reports: the bill
 * confirmed (`WithdrawStatusProcessing`, no hash yet), the transaction broadcast
 * (`WithdrawStatusProcessing`, `tx_status` `broadcast`), then paid (`WithdrawStatusSuccess`,
 * `tx_status` `final`) or refunded (`WithdrawStatusRefunded`; `tx_status` `failed` when a
 * transaction had been sent, null when none was).
 */
export const PayoutStatusEventDataSchema = z.object({
  bill_id: z.string(),
  /** 'WithdrawStatusProcessing' | 'WithdrawStatusSuccess' | 'WithdrawStatusRefunded' */
  status: z.string(),
  /** Points of the bill, 2 decimals. */
  amount: z.string(),
  currency: z.string(),
  /** The bill's network code, as in the currency list: 'TRX', 'ETH', 'BSC', 'TON'... Optional for events written before it. */
  network: z.string().optional(),
  /** The chain transaction id once known (same value as `tx_hash`; kept for older receivers). */
  txid: z.string().nullable(),
  /** The transaction hash as the network's explorers show it; null before broadcast. */
  tx_hash: z.string().nullable().optional(),
  /** 'broadcast' (sent, not final), 'final' (paid at the rail's finality depth), 'failed' (sent, then refunded); null without a transaction. */
  tx_status: z.enum(['broadcast', 'final', 'failed']).nullable().optional(),
  /** 0 at broadcast; when final, the confirmations the rail waited for (null when the rail does not count them). */
  confirmations: z.number().int().min(0).nullable().optional(),
  /** Why the payout failed (refunded), else null. */
  failure_reason: z.string().nullable(),
});
export type PayoutStatusEventData = z.infer<typeof PayoutStatusEventDataSchema>;

/** One event: `id` is `evt_...`, also the webhook-id of its deliveries. */
export const SellerEventSchema = z.object({
  id: z.string(),
  type: z.enum(SELLER_EVENT_TYPES),
  created_at: z.number().int(),
  data: z.record(z.string(), z.unknown()),
});
export type SellerEvent = z.infer<typeof SellerEventSchema>;

/** Most events per feed page; the default page is {@link EVENTS_DEFAULT_LIMIT}. */
export const EVENTS_MAX_LIMIT = 100;
export const EVENTS_DEFAULT_LIMIT = 50;

/** events/list: the caller's events after `cursor` (from the start when absent), oldest first. */
export const EventsListRequestSchema = z.object({
  /** An opaque `next_cursor` from an earlier answer. */
  cursor: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(EVENTS_MAX_LIMIT).default(EVENTS_DEFAULT_LIMIT),
});
/**
 * `next_cursor` always comes back: read again from it to get what follows (the same cursor when
 * nothing new was there, so a consumer polls with it). `has_more`: a full page was answered.
 */
export const EventsListDataSchema = z.object({
  events: z.array(SellerEventSchema),
  next_cursor: z.string(),
  has_more: z.boolean(),
});

/** Webhook delivery status: pending (will be tried, or retried), delivered (a 2xx), failed (gave up). */
export const WebhookDeliveryStatus = { Pending: 'pending', Delivered: 'delivered', Failed: 'failed' } as const;
export type WebhookDeliveryStatus = (typeof WebhookDeliveryStatus)[keyof typeof WebhookDeliveryStatus];

/**
 * How deliveries are signed (Standard Webhooks, ADR 0061): `hmac` (`v1,` HMAC-SHA256 with the
 * `whsec_` secret), `ed25519` (`v1a,` Ed25519 signature, verified with the `whpk_` public key), or
 * `both` (the two signatures, space-separated, in one `webhook-signature` header).
 */
export const WEBHOOK_SIGNING_SCHEMES = ['hmac', 'ed25519', 'both'] as const;
export type WebhookSigningScheme = (typeof WEBHOOK_SIGNING_SCHEMES)[number];

/** The caller's webhook endpoint; `url` null when none is set. The secret is never shown again. */
export const WebhookEndpointSchema = z.object({
  url: z.string().nullable(),
  /** A secret exists (it is shown once, by webhook/secret/rotate). */
  has_secret: z.boolean(),
  updated_at: z.number().int().nullable(),
  /**
   * When Coffer turned the endpoint off after 24 h in which every delivery failed (ms); null while
   * on. Saving the URL again (webhook/set) turns it on. Optional for clients written before it.
   */
  disabled_at: z.number().int().nullable().optional(),
  /** How deliveries are signed; `hmac` unless changed. Optional for clients written before it. */
  signing: z.enum(WEBHOOK_SIGNING_SCHEMES).optional(),
  /**
   * The Ed25519 public key receivers verify `v1a` signatures with: `whpk_` + base64 of the 32-byte
   * key; null until the scheme is `ed25519` or `both` (it stays after switching back, for rotation).
   */
  public_key: z.string().nullable().optional(),
});

export const WebhookGetRequestSchema = EmptyRequestSchema;
export const WebhookGetDataSchema = z.object({ endpoint: WebhookEndpointSchema });

/**
 * webhook/set: `url` sets (https; http://localhost outside production), null clears. `signing`
 * (optional) chooses the scheme; choosing `ed25519` or `both` makes a key pair when there is none.
 */
export const WebhookSetRequestSchema = z.object({
  url: z.string().trim().max(2000).nullable(),
  signing: z.enum(WEBHOOK_SIGNING_SCHEMES).optional(),
});
/** `secret` is present only when this call created the first secret (shown once). */
export const WebhookSetDataSchema = z.object({ endpoint: WebhookEndpointSchema, secret: z.string().optional() });

export const WebhookSecretRotateRequestSchema = EmptyRequestSchema;
/** The new `whsec_<base64>` secret, shown once; the old one stops signing at once. */
export const WebhookSecretRotateDataSchema = z.object({ secret: z.string() });

export const WebhookSigningKeyRotateRequestSchema = EmptyRequestSchema;
/**
 * webhook/signing-key/rotate: a new Ed25519 key pair; the old private key stops signing at once and
 * the new `whpk_` public key is answered (it is also shown by webhook/get).
 */
export const WebhookSigningKeyRotateDataSchema = z.object({ endpoint: WebhookEndpointSchema });

/** One delivery of an event to the webhook URL. */
export const WebhookDeliverySchema = z.object({
  event_id: z.string(),
  event_type: z.enum(SELLER_EVENT_TYPES),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  /** HTTP status of the last attempt; null before any, or when it got no answer. */
  last_response_code: z.number().int().nullable(),
  /** Why the last attempt failed ('timeout', 'refused', 'HTTP 500', ...), else null. */
  last_error: z.string().nullable(),
  /** When the next attempt is due (ms), null unless pending. */
  next_attempt_at: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

/** webhook/deliveries: the caller's deliveries, newest event first, a page of `size` after `page` pages. */
export const WebhookDeliveriesRequestSchema = z.object({
  paginator: z
    .object({ page: z.number().int().min(0).default(0), size: z.number().int().min(1).max(100).default(20) })
    .default({ page: 0, size: 20 }),
});
export const WebhookDeliveriesDataSchema = z.object({ deliveries: z.array(WebhookDeliverySchema), has_more: z.boolean() });

/** webhook/redeliver: sends the event again (pending now, a fresh 24 h of retries). */
export const WebhookRedeliverRequestSchema = z.object({ event_id: z.string().min(1).max(100) });
export const WebhookRedeliverDataSchema = z.object({ delivery: WebhookDeliverySchema });

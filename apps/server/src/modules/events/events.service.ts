/**
 * Seller events and webhooks (product §23, docs/decisions/0025-seller-events-and-webhooks.md).
 *
 * - {@link EventWriter.append}: the orders and withdrawals services write their events with it,
 *   inside the transaction of the change (an event exists iff the change committed). Each user's
 *   events get `seq` 1, 2, 3... from a counter row locked until COMMIT, so they commit in `seq`
 *   order and a reader never sees `seq` n+1 before n.
 * - `events/list` answers the caller's events after an opaque cursor (`seq` inside), oldest first,
 *   1-100 per page (default 50): a consumer that re-reads from its last cursor gets exactly the rest.
 * - Webhooks: one URL per user and a `whsec_` secret (shown once). The delivery worker
 *   ({@link EventsService.deliverDue}) gives each new event a delivery row, then POSTs due ones
 *   signed per Standard Webhooks (webhook-id = event id on every attempt, webhook-timestamp in
 *   seconds, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), with a timeout.
 *   An endpoint may sign with Ed25519 instead or as well (ADR 0061): `v1a,<base64 signature>`,
 *   verified with the `whpk_` public key; the private key is stored sealed with the two-factor key.
 *   2xx: delivered; otherwise retried after {@link RETRY_DELAYS_MS} until 24 h after the event
 *   (a last attempt at that deadline), then failed. Redeliver makes it pending again for 24 h.
 * - Fairness and abuse (docs/abuse.md "Webhook delivery", ADR 0046): concurrent across sellers, one
 *   at a time per seller; an endpoint failing for {@link DISABLE_AFTER_MS} is turned off.
 *
 * Times come from the injected clock (ms).
 */
import { createHmac, createPrivateKey, generateKeyPairSync, randomBytes, sign as signBytes } from 'node:crypto';
import {
  minorToPoints,
  type SellerEvent,
  type SellerEventType,
  type WebhookDelivery,
  type WebhookSigningScheme,
} from '@coffer/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { seal, unseal } from '../account/two-factor';
import type { MailQueue } from '../mail/mail-queue.service';
import { quoted } from '../mail/mail-text';
import * as repo from './events.repository';
import {
  BLOCKED_ADDRESS_CODE,
  checkWebhookUrl,
  dnsResolver,
  pinnedWebhookFetch,
  publicDnsResolver,
  resolveWebhookTarget,
  type Resolver,
} from './webhook-target';

/** Waits after failed attempt 1, 2, 3...; the last repeats. Capped by the delivery's deadline. */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000] as const;
/** Attempts stop this long after the event (or after a redeliver). */
export const DELIVERY_WINDOW_MS = 24 * 3_600_000;
/** An endpoint failing every attempt for this long is turned off and its owner mailed (Polar does). */
export const DISABLE_AFTER_MS = 24 * 3_600_000;
/** Deliveries in flight at once on one instance, across sellers (one per seller at a time). */
export const MAX_IN_FLIGHT = 16;
/** While deliveries are in flight, how often a pass looks for newly due ones (ms). */
export const RECLAIM_MS = 250;

/** An event to write; `key` names the business event (`sale:<order>`), unique. */
export interface NewEvent {
  userId: string;
  type: SellerEventType;
  key: string;
  data: Record<string, unknown>;
}

/** What the orders and withdrawals services are given: writes events in their transaction. */
export interface EventWriter {
  /** Writes `events` in `tx` (one counter upsert and one insert). @throws on a duplicate key */
  append(tx: Tx, events: NewEvent[]): Promise<void>;
}

export interface EventsDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** WEBHOOK_ALLOW_PRIVATE (webhook-target.ts). */
  allowPrivate: boolean;
  /** WEBHOOK_TIMEOUT_MS: one attempt's limit. */
  timeoutMs: number;
  /** Injected in tests; default global fetch. */
  fetch?: typeof fetch;
  resolve?: Resolver;
  /**
   * Mails the owner of an endpoint turned off after {@link DISABLE_AFTER_MS} of failures, at the
   * address `ownerEmail` answers; none when either is absent.
   */
  mailQueue?: MailQueue;
  /** The user's email for a notice, read in `tx`, or null when the account is deleted (the account module's). */
  ownerEmail?: (tx: Tx, userId: string) => Promise<string | null>;
  /** The app's public origin, for the link in that mail. */
  publicUrl?: string;
  /**
   * The 32-byte key Ed25519 signing keys are sealed with (the two-factor key, two-factor.ts). Without
   * it (tools that never sign) Ed25519 endpoints cannot be set up or signed for.
   */
  sealKey?: Buffer;
}

/** The order a sale or refund event is about (`fee`, `earned` minor units; `amount` whole points). */
interface OrderMoney {
  orderId: string;
  sellerId: string;
  buyerId: string;
  collectionId: string;
  amount: number;
  fee: bigint;
  earned: bigint;
}

/** The seller's event of `type` about an order, keyed `type:<order id>`, its money in points. */
function orderEvent(type: 'sale' | 'refund', o: OrderMoney, extra: Record<string, unknown> = {}): NewEvent {
  return {
    userId: o.sellerId,
    type,
    key: `${type}:${o.orderId}`,
    data: {
      order_id: o.orderId,
      collection_id: o.collectionId,
      buyer_id: o.buyerId,
      amount: o.amount,
      earned: minorToPoints(o.earned),
      fee: minorToPoints(o.fee),
      ...extra,
    },
  };
}

/**
 * The `data` of a sale event: seller side of a paid order (amounts in minor units in, points out);
 * `clearsAt` (ms) when the earnings are pending until then (product.md "Clearance"), else null.
 */
export function saleEvent(o: OrderMoney & { clearsAt?: number | null }): NewEvent {
  return orderEvent('sale', o, { clears_at: o.clearsAt ?? null });
}

/** The seller's `refund` event of a refunded order (product §25; `fee`, `earned` minor units). */
export function refundEvent(
  o: OrderMoney & { by: 'seller' | 'automatic' | 'operator'; reason: string | null; from?: 'pending' | 'available' },
): NewEvent {
  return orderEvent('refund', o, { by: o.by, reason: o.reason, ...(o.from ? { from: o.from } : {}) });
}

/** The seller's `sale.cleared` event: a sale's pending proceeds (`earned`, minor units) became available. */
export function saleClearedEvent(o: { orderId: string; sellerId: string; collectionId: string; earned: bigint }): NewEvent {
  return {
    userId: o.sellerId,
    type: 'sale.cleared',
    key: `sale.cleared:${o.orderId}`,
    data: { order_id: o.orderId, collection_id: o.collectionId, earned: minorToPoints(o.earned) },
  };
}

/**
 * Where a payout's chain transaction stands in a `payout.status` event (ADR 0060): `broadcast` (the
 * rail handed it to the network; not final), `final` (the rail counts it paid, at its finality
 * depth), `failed` (a transaction existed but the payout was refunded: reverted or replaced).
 */
export type PayoutTxStatus = 'broadcast' | 'final' | 'failed';

/**
 * The `payout.status` event of a cash-out bill (amount in minor units), keyed
 * `payout:<bill>:<status>`, or `payout:<bill>:broadcast` for the broadcast step, so each step is
 * written at most once (ADR 0060). `tx_hash` is the rail's transaction id as its explorers show it
 * (null before broadcast), `network` the bill's network code (`TRX`, `ETH`, `BSC`, `TON`...),
 * `confirmations` 0 at broadcast and, when final, the depth the rail waited for (null when the rail
 * does not say, or before broadcast).
 */
export function payoutStatusEvent(
  b: {
    id: string;
    userId: string;
    status: string;
    amount: bigint;
    currency: string;
    network: string;
    txid: string | null;
    failureReason: string | null;
  },
  tx: { status: PayoutTxStatus | null; confirmations?: number | null } = { status: null },
): NewEvent {
  const txHash = b.txid || null;
  return {
    userId: b.userId,
    type: 'payout.status',
    key: tx.status === 'broadcast' ? `payout:${b.id}:broadcast` : `payout:${b.id}:${b.status}`,
    data: {
      bill_id: b.id,
      status: b.status,
      amount: minorToPoints(b.amount),
      currency: b.currency,
      network: b.network,
      txid: txHash,
      tx_hash: txHash,
      tx_status: txHash ? tx.status : null,
      confirmations: txHash ? (tx.confirmations ?? (tx.status === 'broadcast' ? 0 : null)) : null,
      failure_reason: b.failureReason,
    },
  };
}

export function toEvent(row: repo.SellerEventRow): SellerEvent {
  return {
    id: row.id,
    type: row.type as SellerEventType,
    created_at: row.createdAt.getTime(),
    data: row.data as Record<string, unknown>,
  };
}

function toDelivery(d: repo.WebhookDeliveryRow, type: string): WebhookDelivery {
  return {
    event_id: d.eventId,
    event_type: type as SellerEventType,
    status: d.status as WebhookDelivery['status'],
    attempts: d.attempts,
    last_response_code: d.lastResponseCode,
    last_error: d.lastError,
    next_attempt_at: d.status === 'pending' && d.nextAttemptAt ? d.nextAttemptAt.getTime() : null,
    created_at: d.createdAt.getTime(),
    updated_at: d.updatedAt.getTime(),
  };
}

/** The opaque cursor of a feed position. */
export const encodeCursor = (seq: bigint): string => Buffer.from(`v1:${seq}`).toString('base64url');

/** @throws VALIDATION_FAILED for a cursor this server did not make */
export function decodeCursor(cursor: string | undefined): bigint {
  if (cursor === undefined) return 0n;
  const m = /^v1:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw errors.validation('Invalid cursor');
  return BigInt(m[1]!);
}

/** A new signing secret: `whsec_` + 24 random bytes in base64. */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * The Standard Webhooks signature header value: `v1,` + base64 HMAC-SHA256, keyed by the
 * base64-decoded secret after `whsec_`, of `${id}.${timestampSeconds}.${body}`.
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** An Ed25519 key pair in Standard Webhooks' text form. */
export interface SigningKeyPair {
  /** `whsk_` + base64 of the 32-byte seed followed by the 32-byte public key (libsodium's 64-byte secret key). */
  secretKey: string;
  /** `whpk_` + base64 of the 32-byte public key. */
  publicKey: string;
}

/** A fresh Ed25519 key pair (node:crypto). */
export function newSigningKeyPair(): SigningKeyPair {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' }) as { d: string; x: string };
  const seed = Buffer.from(jwk.d, 'base64url');
  const pub = Buffer.from(jwk.x, 'base64url');
  return { secretKey: `whsk_${Buffer.concat([seed, pub]).toString('base64')}`, publicKey: `whpk_${pub.toString('base64')}` };
}

/**
 * The Standard Webhooks asymmetric signature: `v1a,` + base64 Ed25519 signature of
 * `${id}.${timestampSeconds}.${body}` with the `whsk_` secret key (seed ‖ public key, 64 bytes).
 * @throws Error for a key that is not 64 bytes
 */
export function signWebhookEd25519(secretKey: string, id: string, timestampSeconds: number, body: string): string {
  const raw = Buffer.from(secretKey.replace(/^whsk_/, ''), 'base64');
  if (raw.length !== 64) throw new Error('An Ed25519 signing key is 64 bytes');
  const key = createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: raw.subarray(0, 32).toString('base64url'), x: raw.subarray(32).toString('base64url') },
    format: 'jwk',
  });
  return `v1a,${signBytes(null, Buffer.from(`${id}.${timestampSeconds}.${body}`), key).toString('base64')}`;
}

/** The retry time after failed attempt `attempts` (1-based), or null when the deadline has passed. */
export function nextAttemptAfter(attempts: number, now: number, deadline: number): number | null {
  if (now >= deadline) return null;
  const delay = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1] ?? RETRY_DELAYS_MS[0];
  return Math.min(now + delay, deadline);
}

/**
 * `work`'s result, or a rejection with `signal`'s reason as soon as it aborts (`work` itself is left
 * to settle on its own). For steps that take no signal, such as a DNS lookup.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function createEventsService(deps: EventsDeps) {
  const { db, clock, log } = deps;
  // Public targets are resolved off libuv's thread pool (publicDnsResolver); private ones (allowed only
  // with WEBHOOK_ALLOW_PRIVATE) need the hosts file, so getaddrinfo.
  const resolve = deps.resolve ?? (deps.allowPrivate ? dnsResolver : publicDnsResolver());
  // Every connection goes to an address checked at connect time (webhook-target.ts).
  const doFetch = deps.fetch ?? pinnedWebhookFetch(resolve, deps.allowPrivate);

  const writer: EventWriter = {
    async append(tx, events) {
      if (!events.length) return;
      const createdAt = new Date(clock.now());
      await repo.appendMany(
        tx,
        events.map((e) => ({
          id: `evt_${newId().replace(/-/g, '')}`,
          userId: e.userId,
          type: e.type,
          key: e.key,
          data: e.data,
          createdAt,
        })),
      );
    },
  };

  function endpointView(row: repo.WebhookEndpointRow | undefined) {
    return {
      url: row?.url ?? null,
      has_secret: Boolean(row),
      updated_at: row ? row.updatedAt.getTime() : null,
      disabled_at: row?.disabledAt ? row.disabledAt.getTime() : null,
      signing: (row?.signing ?? 'hmac') as WebhookSigningScheme,
      public_key: row?.publicKey ?? null,
    };
  }

  /** A new key pair for `userId`: the sealed secret key and the public key, as stored. */
  function sealedKeyPair(userId: string): { signingKeySealed: string; publicKey: string } {
    if (!deps.sealKey) throw new Error('events service built without a seal key');
    const pair = newSigningKeyPair();
    return { signingKeySealed: seal(deps.sealKey, userId, pair.secretKey), publicKey: pair.publicKey };
  }

  /**
   * The `webhook-signature` header of one attempt under the endpoint's scheme: `v1,...`, `v1a,...`
   * or both, space-separated (Standard Webhooks). @throws Error when the sealed key does not open
   */
  function signatureHeader(
    c: { secret: string; signing: string | null; signingKeySealed: string | null; userId: string },
    id: string,
    ts: number,
    body: string,
  ): string {
    const parts: string[] = [];
    const scheme = c.signing ?? 'hmac';
    if (scheme !== 'ed25519' || !c.signingKeySealed) parts.push(signWebhook(c.secret, id, ts, body));
    if (scheme !== 'hmac' && c.signingKeySealed) {
      if (!deps.sealKey) throw new Error('events service built without a seal key');
      parts.push(signWebhookEd25519(unseal(deps.sealKey, c.userId, c.signingKeySealed), id, ts, body));
    }
    return parts.join(' ');
  }

  /**
   * Keeps the endpoint's failing streak (docs/abuse.md "Webhook delivery"): a 2xx ends it; a failure
   * starts it, and one that has lasted {@link DISABLE_AFTER_MS} turns the endpoint off and mails its
   * owner once (key `webhook-disabled:<user>:<streak start>`, in the transaction that turns it off),
   * the URL quoted as text. Its deliveries wait, and its new events get theirs once it is on again.
   */
  async function trackStreak(userId: string, url: string, ok: boolean, now: number): Promise<void> {
    if (ok) return repo.endpointSucceeded(db, userId);
    const row = await repo.endpointFailed(db, userId, new Date(now));
    if (!row?.failingSince || now - row.failingSince.getTime() < DISABLE_AFTER_MS) return;
    const since = row.failingSince;
    const ids = await db.transaction(async (tx) => {
      const off = await repo.disableEndpoint(tx, userId, new Date(now - DISABLE_AFTER_MS), new Date(now));
      if (!off) return null;
      const email = deps.mailQueue && deps.ownerEmail ? await deps.ownerEmail(tx, userId) : null;
      if (!email || !deps.mailQueue) return [];
      return deps.mailQueue.enqueue(tx, [
        {
          key: `webhook-disabled:${userId}:${since.getTime()}`,
          to: email,
          subject: 'Your Coffer webhook was turned off',
          text: [
            `Every delivery to your webhook URL ${quoted(url)} has failed since ${since.toISOString().replace('T', ' ').slice(0, 16)} UTC, so Coffer stopped sending to it.`,
            '',
            'Your events are still in the feed (events/list). Fix the endpoint, then save the URL again under',
            `Your Profile > Events & webhooks to turn deliveries back on: ${deps.publicUrl ?? ''}/profile/events`,
          ].join('\n'),
        },
      ]);
    });
    if (!ids) return;
    log.warn({ userId, failingSince: since }, 'webhook endpoint turned off after 24 h of failures');
    if (ids.length) deps.mailQueue?.sendNow(ids);
  }

  /**
   * One attempt: POST the event, then record the outcome (delivered, retry, or failed) and the
   * endpoint's failing streak. The whole attempt, the address check's DNS lookup included, ends
   * within `timeoutMs`, so the claim's lease (the timeout plus 30 s) covers it. An attempt cut by
   * `signal` (shutdown) is retried like a failure but does not count against the endpoint.
   */
  async function attempt(
    c: Awaited<ReturnType<typeof repo.claimDue>>[number],
    signal?: AbortSignal,
  ): Promise<'delivered' | 'retry' | 'failed'> {
    const { delivery, event } = c;
    let code: number | null = null;
    let error: string | null = null;
    if (!c.url || !c.secret) error = 'No webhook URL';
    else {
      const timeout = AbortSignal.timeout(deps.timeoutMs);
      const limit = signal ? AbortSignal.any([timeout, signal]) : timeout;
      try {
        error = await untilAborted(resolveWebhookTarget(c.url, deps.allowPrivate, resolve), limit);
        if (!error) {
          const body = JSON.stringify(toEvent(event));
          const ts = Math.floor(clock.now() / 1000);
          const res = await doFetch(c.url, {
            method: 'POST',
            redirect: 'manual',
            signal: limit,
            headers: {
              'content-type': 'application/json',
              'user-agent': 'Coffer-Webhooks/1',
              'webhook-id': event.id,
              'webhook-timestamp': String(ts),
              'webhook-signature': signatureHeader(
                { secret: c.secret, signing: c.signing, signingKeySealed: c.signingKeySealed, userId: event.userId },
                event.id,
                ts,
                body,
              ),
            },
            body,
          });
          code = res.status;
          await res.body?.cancel().catch(() => undefined);
          if (code < 200 || code > 299) error = `HTTP ${code}`;
        }
      } catch (err) {
        const e = err as { name?: string; cause?: { code?: string } };
        error =
          e.name === 'TimeoutError'
            ? 'timeout'
            : e.name === 'AbortError'
              ? 'aborted'
              : e.cause?.code === BLOCKED_ADDRESS_CODE
                ? 'blocked address'
                : (e.cause?.code ?? 'network error');
      }
    }
    const now = clock.now();
    let outcome: 'delivered' | 'retry' | 'failed' = 'delivered';
    if (!error) {
      await repo.finishAttempt(db, event.id, {
        status: 'delivered',
        lastResponseCode: code,
        lastError: null,
        nextAttemptAt: null,
        updatedAt: new Date(now),
      });
    } else {
      const next = nextAttemptAfter(delivery.attempts, now, delivery.deadlineAt.getTime());
      await repo.finishAttempt(db, event.id, {
        status: next === null ? 'failed' : 'pending',
        lastResponseCode: code,
        lastError: error.slice(0, 200),
        nextAttemptAt: next === null ? null : new Date(next),
        updatedAt: new Date(now),
      });
      if (next === null) log.warn({ eventId: event.id, error }, 'webhook delivery failed for good');
      outcome = next === null ? 'failed' : 'retry';
    }
    if (c.url && error !== 'aborted') await trackStreak(event.userId, c.url, !error, now);
    return outcome;
  }

  return {
    writer,

    /**
     * events/list: the caller's events after `cursor`, oldest first.
     * @throws VALIDATION_FAILED for a cursor Coffer did not answer
     */
    async list(userId: string, req: { cursor?: string | undefined; limit: number }) {
      const after = decodeCursor(req.cursor);
      const rows = await repo.pageAfter(db, userId, after, req.limit);
      const last = rows.at(-1)?.seq ?? after;
      return { events: rows.map(toEvent), next_cursor: encodeCursor(last), has_more: rows.length === req.limit };
    },

    /** webhook/get: the caller's endpoint (never the secret). */
    async getEndpoint(userId: string) {
      return { endpoint: endpointView(await repo.findEndpoint(db, userId)) };
    },

    /**
     * webhook/set: sets (or with null clears) the URL. The first call creates the secret and answers
     * it once. Events from now on are delivered (not the ones before the URL was set). `signing`
     * (optional) sets the scheme (ADR 0061); `ed25519` or `both` makes a key pair when there is none.
     * @throws VALIDATION_FAILED with the reason a URL is refused
     */
    async setEndpoint(userId: string, url: string | null, signing?: WebhookSigningScheme) {
      let normalized: string | null = null;
      if (url) {
        const checked = checkWebhookUrl(url, deps.allowPrivate);
        if ('error' in checked) throw errors.validation(checked.error);
        normalized = checked.url;
      }
      return db.transaction(async (tx) => {
        const existing = await repo.findEndpoint(tx, userId);
        const now = new Date(clock.now());
        const secret = existing ? undefined : newSecret();
        const fromSeq = await repo.lastSeq(tx, userId);
        const keys = signing && signing !== 'hmac' && !existing?.publicKey ? sealedKeyPair(userId) : {};
        const row = await repo.upsertEndpoint(
          tx,
          { userId, url: normalized, secret: secret ?? existing!.secret, enqueuedSeq: fromSeq, now, ...(signing ? { signing } : {}), ...keys },
          // Turning delivery on starts after the current last event; changing the URL keeps pending ones.
          // Saving the URL also turns on an endpoint turned off after 24 h of failures.
          {
            ...(existing?.url || !normalized ? { url: normalized } : { url: normalized, enqueuedSeq: fromSeq }),
            failingSince: null,
            disabledAt: null,
            ...(signing ? { signing } : {}),
            ...keys,
          },
        );
        return { endpoint: endpointView(row), ...(secret ? { secret } : {}) };
      });
    },

    /** webhook/secret/rotate: a new secret, answered once; the old one no longer signs. */
    async rotateSecret(userId: string) {
      const secret = newSecret();
      const existing = await repo.findEndpoint(db, userId);
      await repo.upsertEndpoint(
        db,
        {
          userId,
          url: null,
          secret,
          enqueuedSeq: existing ? existing.enqueuedSeq : await repo.lastSeq(db, userId),
          now: new Date(clock.now()),
        },
        { secret },
      );
      return { secret };
    },

    /**
     * webhook/signing-key/rotate: a new Ed25519 key pair (ADR 0061). The old private key signs
     * nothing more; deliveries from now on carry `v1a` signatures of the new key (when the scheme
     * is `ed25519` or `both`). @returns the endpoint with the new `public_key`
     * @throws CONFLICT when no webhook has been set up yet
     */
    async rotateSigningKey(userId: string) {
      const existing = await repo.findEndpoint(db, userId);
      if (!existing) throw errors.conflict('Set a webhook URL first');
      const keys = sealedKeyPair(userId);
      const row = await repo.upsertEndpoint(
        db,
        { userId, url: existing.url, secret: existing.secret, enqueuedSeq: existing.enqueuedSeq, now: new Date(clock.now()) },
        keys,
      );
      return { endpoint: endpointView(row) };
    },

    /** webhook/deliveries: the caller's deliveries, newest event first. */
    async deliveries(userId: string, paginator: { page: number; size: number }) {
      const rows = await repo.deliveriesOf(db, userId, paginator.page * paginator.size, paginator.size + 1);
      return {
        deliveries: rows.slice(0, paginator.size).map((r) => toDelivery(r.delivery, r.type)),
        has_more: rows.length > paginator.size,
      };
    },

    /**
     * webhook/redeliver: the event's delivery is pending again, due now, retried for 24 h more.
     * @throws NOT_FOUND (not the caller's event), CONFLICT (no webhook URL set)
     */
    async redeliver(userId: string, eventId: string) {
      const event = await repo.findEvent(db, eventId);
      if (!event || event.userId !== userId) throw errors.notFound('The event does not exist');
      const endpoint = await repo.findEndpoint(db, userId);
      if (!endpoint?.url) throw errors.conflict('Set a webhook URL first');
      if (endpoint.disabledAt) {
        throw errors.conflict('This webhook was turned off after 24 hours of failed deliveries. Save its URL again to turn it on.');
      }
      const now = clock.now();
      const row = await repo.redeliver(db, event, new Date(now), new Date(now + DELIVERY_WINDOW_MS));
      return { delivery: toDelivery(row, event.type) };
    },

    /**
     * One worker pass (docs/abuse.md "Webhook delivery", ADR 0046): gives new events their
     * deliveries and sends the due ones concurrently across sellers, one at a time per seller (its
     * due deliveries in feed order, `seq`) and at most {@link MAX_IN_FLIGHT} at once, so an endpoint
     * that hangs delays only its own seller. While any delivery is in flight it claims again every {@link RECLAIM_MS} ms (and when
     * one finishes): a delivery that falls due meanwhile, of a seller not in flight, starts at once.
     * Each claimed delivery is sent as soon as it is claimed and its whole attempt ends within the
     * timeout, so its lease (the timeout plus 30 s for recording the outcome, `FOR UPDATE SKIP
     * LOCKED`) covers it and no other instance sends it again meanwhile; a crashed attempt is taken
     * again after the lease. Returns once nothing is in flight and nothing
     * is due, or `signal` aborted (in-flight attempts are aborted and recorded). Never throws for a
     * receiver's failure.
     * @returns counts of this pass
     */
    async deliverDue(signal?: AbortSignal) {
      const out = { enqueued: 0, delivered: 0, retry: 0, failed: 0 };
      const inFlight = new Map<string, Promise<void>>();
      const start = (c: Awaited<ReturnType<typeof repo.claimDue>>[number]) => {
        const sellerId = c.event.userId;
        const sending = attempt(c, signal)
          .then(
            (outcome) => {
              out[outcome]++;
            },
            (err: unknown) => log.error({ err, eventId: c.event.id }, 'webhook attempt could not be recorded; retried after its lease'),
          )
          .finally(() => inFlight.delete(sellerId));
        inFlight.set(sellerId, sending);
      };
      for (;;) {
        if (signal?.aborted) break;
        const now = clock.now();
        out.enqueued += await db.transaction((tx) => repo.enqueueNew(tx, new Date(now), DELIVERY_WINDOW_MS));
        const room = MAX_IN_FLIGHT - inFlight.size;
        const claimed =
          room > 0
            ? await db.transaction((tx) =>
                repo.claimDue(tx, new Date(now), new Date(now + deps.timeoutMs + 30_000), room, [...inFlight.keys()]),
              )
            : [];
        for (const c of claimed) start(c);
        if (!inFlight.size) break;
        // More may be due right now (every slot was filled): claim again at once.
        if (claimed.length > 0 && claimed.length === room) continue;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          ...inFlight.values(),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, RECLAIM_MS);
          }),
        ]);
        clearTimeout(timer);
      }
      await Promise.all(inFlight.values());
      return out;
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;

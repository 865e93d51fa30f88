/**
 * Licence keys (product §28, docs/decisions/0030-discount-codes-and-licence-keys.md).
 *
 * The owner of a collection turns keys on (`licence/settings`) with an optional activation limit. Every
 * order of such a collection that is paid gets one key, issued in the pay transaction by every path
 * that marks orders paid (the group-commit batch: {@link LicencesService.issue}); the key is unique
 * (`licence_keys_key_uq`), one per order (`licence_keys_order_uq`), 20 characters from
 * {@link KEY_ALPHABET} drawn with `crypto.randomBytes` (100 bits), shown as XXXXX-XXXXX-XXXXX-XXXXX.
 * A refund revokes the order's key in the refund transaction ({@link LicencesService.revoke}).
 *
 * `licence/validate {key, instance?}` is public and rate limited per IP: it answers
 * `{valid, reason?, collection_id, activations, max_activations}`. With `instance`, a distinct
 * instance is activated under the key's row lock (so concurrent activations never exceed the limit);
 * the same instance again counts once. The limit is read live from the collection's settings.
 *
 * Every purchase's receipt mail (collection, list price, discount, price paid, key when there is
 * one) is queued in the pay transaction ({@link LicencesService.queueReceipts}) and sent after COMMIT
 * through the mail queue ({@link LicencesService.sendReceipts}; docs/decisions/0032-mail-queue.md),
 * which retries it until the mail server takes it.
 */
import { randomBytes } from 'node:crypto';
import { CollectionStatus, type LicenceSettings, type LicenceValidateData } from '@coffer/contract';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { retryTransient } from '../../lib/group-commit';
import type { CollectionsService } from '../collections/collections.service';
import type { MailQueue } from '../mail/mail-queue.service';
import * as repo from './licences.repository';
import { quoted } from '../mail/mail-text';

/** 32 digits and upper-case letters without 0/O and 1/I (unambiguous when read or typed). */
export const KEY_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** A new key: 4 groups of 5 characters, each character 5 random bits (32 symbols, no modulo bias). */
export function newLicenceKey(): string {
  const bytes = randomBytes(20);
  let s = '';
  for (let i = 0; i < 20; i++) {
    if (i && i % 5 === 0) s += '-';
    s += KEY_ALPHABET[bytes[i]! & 31];
  }
  return s;
}

/** One paid order of a pay batch, as its receipt mail tells it (points are whole points). */
export interface ReceiptOrder {
  orderId: string;
  email: string;
  /** Set when the buyer's account is deleted: no receipt. */
  deletedAt: Date | null;
  title: string;
  /** Points paid. */
  amount: number;
  /** Points before the discount (null on orders from before list prices). */
  listPrice: number | null;
  /** Points off with a discount code. */
  discount: number;
  /** True when the collection issues licence keys (the mail then tells the order's key). */
  withKey: boolean;
}

export interface LicencesDeps {
  db: Db;
  clock: Clock;
  collections: CollectionsService;
  /** Receipt mails are queued in the pay transaction and sent from here. */
  mailQueue: MailQueue;
}

export function createLicencesService(deps: LicencesDeps) {
  const { db, clock, collections, mailQueue } = deps;

  async function ownCollection(ownerId: string, collectionId: string) {
    const c = await collections.find(collectionId);
    if (!c || c.ownerId !== ownerId || c.status === CollectionStatus.Deleted)
      throw errors.notFound('The collection does not exist');
    return c;
  }

  return {
    /** The collection's settings (owner). @throws NOT_FOUND (not the caller's collection) */
    async settings(ownerId: string, collectionId: string): Promise<LicenceSettings> {
      await ownCollection(ownerId, collectionId);
      const row = await repo.settingsOf(db, collectionId);
      return { collection_id: collectionId, enabled: row?.enabled ?? false, max_activations: row?.maxActivations ?? null };
    },

    /**
     * Turns keys on or off for orders paid from now on, and sets the activation limit (null: none).
     * Keys issued before stay valid when keys are turned off.
     * @throws NOT_FOUND (not the caller's collection)
     */
    async setSettings(
      ownerId: string,
      collectionId: string,
      enabled: boolean,
      maxActivations: number | null,
    ): Promise<LicenceSettings> {
      await ownCollection(ownerId, collectionId);
      const row = await repo.upsertSettings(db, collectionId, enabled, maxActivations);
      return { collection_id: collectionId, enabled: row.enabled, max_activations: row.maxActivations };
    },

    /** Issues a key to each order in the pay transaction `tx` (an order with a key keeps it). */
    async issue(tx: Tx, paid: { orderId: string; collectionId: string; buyerId: string }[], now: Date): Promise<void> {
      await repo.insertKeys(
        tx,
        paid.map((p) => ({
          id: newId(),
          key: newLicenceKey(),
          orderId: p.orderId,
          collectionId: p.collectionId,
          buyerId: p.buyerId,
          createdAt: now,
        })),
      );
    },

    /** Revokes the order's key in the refund transaction `tx` (no key: nothing). */
    revoke(tx: Tx, orderId: string, now: Date): Promise<void> {
      return repo.revokeOfOrder(tx, orderId, now);
    },

    /** The keys of these orders, by order id. */
    async keysOf(orderIds: string[]): Promise<Map<string, { key: string; revoked: boolean }>> {
      const rows = await repo.keysOfOrders(db, orderIds);
      return new Map(rows.map((r) => [r.orderId, { key: r.key, revoked: r.revokedAt !== null }]));
    },

    /**
     * `licence/validate` (see the module comment): one transaction under the key's row lock.
     * Never throws for an unknown key: `{valid: false, reason: 'not_found'}`.
     */
    async validate(key: string, instance?: string): Promise<LicenceValidateData> {
      return retryTransient(() =>
        db.transaction(async (tx) => {
          const row = await repo.findKeyForUpdate(tx, key);
          if (!row) return { valid: false, reason: 'not_found', collection_id: null, activations: 0, max_activations: null };
          const max = row.maxActivations ?? null;
          const base = { collection_id: row.key.collectionId, max_activations: max };
          let activations = await repo.activationCount(tx, row.key.id);
          if (row.key.revokedAt) return { ...base, valid: false, reason: 'revoked', activations };
          if (instance && !(await repo.hasActivation(tx, row.key.id, instance))) {
            if (max !== null && activations >= max) return { ...base, valid: false, reason: 'activation_limit', activations };
            await repo.insertActivation(tx, row.key.id, instance, new Date(clock.now()));
            activations += 1;
          }
          return { ...base, valid: true, activations };
        }),
      );
    },

    /**
     * Queues the receipt mail of each paid order in the pay transaction `tx` (key `receipt:<order id>`,
     * so a retried batch queues it once). Buyers whose account is deleted get none.
     * @param orders what the pay batch read of each order under its lock (purchase.repository
     *   `lockManyForPay`); `withKey` marks the orders whose collection issues keys: only their keys
     *   are read here (issued earlier in `tx`), so a batch without keys reads nothing more
     * @returns the queued mails' ids, for {@link sendReceipts} after COMMIT
     */
    async queueReceipts(tx: Tx, orders: ReceiptOrder[]): Promise<string[]> {
      if (!orders.length) return [];
      const withKeys = orders.filter((o) => o.withKey).map((o) => o.orderId);
      const keys = new Map((await repo.keysOfOrders(tx, withKeys)).map((k) => [k.orderId, k.key]));
      const mails = [];
      for (const o of orders) {
        const r = { ...o, key: keys.get(o.orderId) ?? null };
        if (r.deletedAt) continue;
        const list = r.listPrice ?? r.amount;
        const lines = [
          `Thank you for buying ${quoted(r.title)} on Coffer.`,
          '',
          `Order: ${r.orderId}`,
          `Price: ${list} points`,
          ...(r.discount > 0 ? [`Discount: -${r.discount} points`] : []),
          `Paid: ${r.amount} points`,
          ...(r.key ? ['', `Your licence key: ${r.key}`] : []),
          '',
          'Your files are under My Purchases.',
        ];
        mails.push({
          key: `receipt:${r.orderId}`,
          to: r.email,
          subject: `Your receipt: ${quoted(r.title)}`,
          text: lines.join('\n'),
        });
      }
      return mailQueue.enqueue(tx, mails);
    },

    /** Sends the queued receipts of a committed batch, in the background (the mail worker retries failures). */
    sendReceipts(mailIds: string[]): void {
      mailQueue.sendNow(mailIds);
    },

    /** Resolves once every receipt this instance started sending was sent or handed to the retries. */
    async mailSettled(): Promise<void> {
      await mailQueue.settled();
    },
  };
}

export type LicencesService = ReturnType<typeof createLicencesService>;

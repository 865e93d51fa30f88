/** Persistence of licence keys and their settings (product §28). Only the licences service calls this. */
import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { run, statement } from '../../db/raw';
import { collectionLicences, licenceActivations, licenceKeys } from '../../db/schema/index';

export type LicenceKeyRow = typeof licenceKeys.$inferSelect;

export async function settingsOf(db: DbOrTx, collectionId: string) {
  const [row] = await db.select().from(collectionLicences).where(eq(collectionLicences.collectionId, collectionId));
  return row ?? null;
}

export async function upsertSettings(db: DbOrTx, collectionId: string, enabled: boolean, maxActivations: number | null) {
  const [row] = await db
    .insert(collectionLicences)
    .values({ collectionId, enabled, maxActivations })
    .onConflictDoUpdate({ target: collectionLicences.collectionId, set: { enabled, maxActivations } })
    .returning();
  return row!;
}

/** Inserts keys; an order that has one keeps it (ON CONFLICT (order_id) DO NOTHING). */
export async function insertKeys(db: DbOrTx, rows: (typeof licenceKeys.$inferInsert)[]): Promise<void> {
  if (rows.length) await db.insert(licenceKeys).values(rows).onConflictDoNothing({ target: licenceKeys.orderId });
}

export async function revokeOfOrder(db: DbOrTx, orderId: string, at: Date): Promise<void> {
  await db
    .update(licenceKeys)
    .set({ revokedAt: at })
    .where(and(eq(licenceKeys.orderId, orderId), isNull(licenceKeys.revokedAt)));
}

export async function keysOfOrders(db: DbOrTx, orderIds: string[]) {
  if (!orderIds.length) return [];
  return db
    .select({ orderId: licenceKeys.orderId, key: licenceKeys.key, revokedAt: licenceKeys.revokedAt })
    .from(licenceKeys)
    .where(inArray(licenceKeys.orderId, orderIds));
}

/** The key with its collection's activation limit, locked for the rest of the transaction. */
export async function findKeyForUpdate(db: DbOrTx, key: string) {
  const [row] = await db
    .select({ key: licenceKeys, maxActivations: collectionLicences.maxActivations })
    .from(licenceKeys)
    .leftJoin(collectionLicences, eq(collectionLicences.collectionId, licenceKeys.collectionId))
    .where(eq(licenceKeys.key, key))
    .for('update', { of: licenceKeys });
  return row ?? null;
}

export async function activationCount(db: DbOrTx, keyId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(licenceActivations).where(eq(licenceActivations.keyId, keyId));
  return Number(row?.n ?? 0);
}

export async function hasActivation(db: DbOrTx, keyId: string, instance: string): Promise<boolean> {
  const [row] = await db
    .select({ keyId: licenceActivations.keyId })
    .from(licenceActivations)
    .where(and(eq(licenceActivations.keyId, keyId), eq(licenceActivations.instance, instance)));
  return !!row;
}

export async function insertActivation(db: DbOrTx, keyId: string, instance: string, at: Date): Promise<void> {
  await db.insert(licenceActivations).values({ keyId, instance, createdAt: at }).onConflictDoNothing();
}

/** What a receipt mail of each paid order says: buyer's e-mail, collection title, prices, key. */
export async function receiptsOf(db: DbOrTx, orderIds: string[]): Promise<ReceiptRow[]> {
  if (!orderIds.length) return [];
  const { rows } = await run<{
    order_id: string;
    email: string;
    deleted_at: Date | null;
    title: string;
    amount: number;
    list_price: number | null;
    discount: number;
    key: string | null;
  }>(db, receiptsOfSql, [JSON.stringify(orderIds)]);
  return rows.map((r) => ({
    orderId: r.order_id,
    email: r.email,
    deletedAt: r.deleted_at,
    title: r.title,
    amount: r.amount,
    listPrice: r.list_price,
    discount: r.discount,
    key: r.key,
  }));
}

/** What a receipt mail tells (whole points); `key` null without a licence key, `deletedAt` set for a deleted buyer. */
export interface ReceiptRow {
  orderId: string;
  email: string;
  deletedAt: Date | null;
  title: string;
  amount: number;
  listPrice: number | null;
  discount: number;
  key: string | null;
}

const receiptsOfSql = statement(
  'licences_receipts_of',
  `select o.id as order_id, u.email, u.deleted_at, c.title, o.amount, o.list_price, o.discount, k.key
   from orders o
   join lateral (select u.email, u.deleted_at from users u where u.id = o.buyer_id offset 0) u on true
   join lateral (select c.title from collections c where c.id = o.collection_id offset 0) c on true
   left join lateral (select k.key from licence_keys k where k.order_id = o.id offset 0) k on true
   where o.id = any(array(select jsonb_array_elements_text($1::jsonb)))`,
);

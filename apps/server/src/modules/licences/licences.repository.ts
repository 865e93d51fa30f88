/** Persistence of licence keys and their settings (product §28). Only the licences service calls this. */
import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
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

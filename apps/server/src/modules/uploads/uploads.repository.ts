/** Persistence of images, uploads and resources. Only the uploads module calls this. */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { images, resources, resourceVersions, uploads } from '../../db/schema/index';

export type ImageRow = typeof images.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;
export type ResourceRow = typeof resources.$inferSelect;

export async function insertImage(db: DbOrTx, row: typeof images.$inferInsert): Promise<void> {
  await db.insert(images).values(row);
}

export async function findImage(db: DbOrTx, id: string): Promise<ImageRow | null> {
  const [row] = await db.select().from(images).where(eq(images.id, id));
  return row ?? null;
}

/** Marks an image verified; `storageKey` is where its sealed object now lives. */
export async function markImageVerified(db: DbOrTx, id: string, contentType: string, storageKey: string): Promise<void> {
  await db.update(images).set({ status: 'verified', contentType, storageKey }).where(eq(images.id, id));
}

/** Bytes a user stores or is uploading: every upload not failed (docs/abuse.md, storage quota). */
export async function storedBytesOf(db: DbOrTx, ownerId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${uploads.size}), 0)` })
    .from(uploads)
    .where(and(eq(uploads.ownerId, ownerId), sql`${uploads.status} <> 'failed'`));
  return Number(row?.n ?? 0);
}

/** Serializes the quota check and the new upload of one user (locks the user's row until the transaction ends). */
export async function lockOwner(db: DbOrTx, ownerId: string): Promise<void> {
  await db.execute(sql`select id from users where id = ${ownerId} for update`);
}

export async function insertUpload(db: DbOrTx, row: typeof uploads.$inferInsert): Promise<UploadRow> {
  const [out] = await db.insert(uploads).values(row).returning();
  return out!;
}

export async function findUpload(db: DbOrTx, id: string): Promise<UploadRow | null> {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  return row ?? null;
}

/** Moves an upload from one status to another; @returns false when it was not in `from`. */
export async function moveUpload(
  db: DbOrTx,
  id: string,
  from: string,
  to: string,
  patch: Partial<UploadRow> = {},
): Promise<boolean> {
  const out = await db
    .update(uploads)
    .set({ ...patch, status: to })
    .where(and(eq(uploads.id, id), eq(uploads.status, from)))
    .returning({ id: uploads.id });
  return out.length > 0;
}

export async function insertResource(db: DbOrTx, row: typeof resources.$inferInsert): Promise<ResourceRow> {
  const [out] = await db.insert(resources).values(row).returning();
  return out!;
}

export async function findResource(db: DbOrTx, id: string): Promise<ResourceRow | null> {
  const [row] = await db.select().from(resources).where(eq(resources.id, id));
  return row ?? null;
}

/** Attaches an unattached resource; @returns false when it is attached already (or used as a version). */
export async function attachResource(db: DbOrTx, id: string, collectionId: string): Promise<boolean> {
  const out = await db
    .update(resources)
    .set({ collectionId })
    .where(and(eq(resources.id, id), isNull(resources.collectionId), isNull(resources.mergedInto)))
    .returning({ id: resources.id });
  return out.length > 0;
}

/** The resource row locked until the transaction ends (replace, remove and preview serialize on it). */
export async function lockResource(db: DbOrTx, id: string): Promise<ResourceRow | null> {
  const [row] = await db.select().from(resources).where(eq(resources.id, id)).for('update');
  return row ?? null;
}

/**
 * Makes `next` (an unattached resource) version `current.version + 1` of `current`: the current
 * version is copied to resource_versions, the row takes the new bytes, `next` is marked merged.
 * @returns the updated row, or null when `next` was attached or merged meanwhile
 */
export async function replaceVersion(db: DbOrTx, current: ResourceRow, next: ResourceRow, at: Date): Promise<ResourceRow | null> {
  const claimed = await db
    .update(resources)
    .set({ mergedInto: current.id })
    .where(and(eq(resources.id, next.id), isNull(resources.collectionId), isNull(resources.mergedInto)))
    .returning({ id: resources.id });
  if (!claimed.length) return null;
  await db.insert(resourceVersions).values({
    resourceId: current.id,
    version: current.version,
    name: current.name,
    size: current.size,
    md5: current.md5,
    contentType: current.contentType,
    storageKey: current.storageKey,
    createdAt: current.updatedAt ?? current.createdAt,
    replacedAt: at,
  });
  const [row] = await db
    .update(resources)
    .set({
      name: next.name,
      size: next.size,
      md5: next.md5,
      contentType: next.contentType,
      storageKey: next.storageKey,
      version: current.version + 1,
      updatedAt: at,
      thumbnailKey: null,
    })
    .where(eq(resources.id, current.id))
    .returning();
  return row ?? null;
}

/** Superseded versions of a file, oldest first. */
export async function versionsOf(db: DbOrTx, resourceId: string) {
  return db.select().from(resourceVersions).where(eq(resourceVersions.resourceId, resourceId)).orderBy(resourceVersions.version);
}

/** Sets the columns of a resource that catalogue edits change. @returns the updated row */
export async function patchResource(
  db: DbOrTx,
  id: string,
  patch: Partial<Pick<ResourceRow, 'preview' | 'removedAt' | 'thumbnailKey'>>,
): Promise<ResourceRow | null> {
  const [row] = await db.update(resources).set(patch).where(eq(resources.id, id)).returning();
  return row ?? null;
}

/** Every resource of a collection, removed ones included, oldest first. */
export async function resourcesOf(db: DbOrTx, collectionId: string): Promise<ResourceRow[]> {
  return db.select().from(resources).where(eq(resources.collectionId, collectionId)).orderBy(resources.createdAt, resources.id);
}

/** Unfinished uploads (pending, or stuck completing after a crash) created before `before`, for the cleanup job. */
export async function staleUploads(db: DbOrTx, before: Date, limit: number): Promise<UploadRow[]> {
  return db
    .select()
    .from(uploads)
    .where(and(inArray(uploads.status, ['pending', 'completing']), sql`${uploads.createdAt} < ${before.toISOString()}`))
    .limit(limit);
}

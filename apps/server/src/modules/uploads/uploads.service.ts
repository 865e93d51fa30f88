/**
 * Resource uploads (product §16-§17, issue 5) with S3 multipart semantics:
 *
 * - `startMultipart` declares {file_name, size, md5, content_type} and gets {upload_id, part_size,
 *   part_count}; every part but the last has exactly `part_size` bytes (>= 5 MiB, S3's rule);
 * - `partUrl` presigns the PUT of one part; the PUT answers the part's ETag (quoted MD5);
 * - `listParts` tells a client which parts arrived, so it can resume after a dropped connection;
 * - `complete` assembles the parts, then verifies size and MD5 against what was declared. A missing
 *   or wrong part is refused and the upload stays open (send it, complete again); a size or MD5
 *   mismatch of the assembled file deletes it and fails the upload (nothing kept);
 * - `startSingle` is the one-PUT path for files up to SINGLE_PUT_MAX_BYTES (complete with no parts).
 *
 * Sizes are bytes. The per-file limit is MAX_UPLOAD_BYTES (default 2 GiB); each user's uploads (not
 * failed) may total STORAGE_QUOTA_BYTES (default 10 GiB; the refusal says how much is left).
 * `content_type` must be an RFC 9110 media type in ASCII (media-type.ts) or empty.
 * A completed single-PUT file is sealed (storage `seal`) before its MD5 is checked: the PUT URL, still
 * valid for an hour, can no longer change what buyers download (docs/abuse.md, "Sealed files").
 */
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import {
  partSizeFor,
  SINGLE_PUT_MAX_BYTES,
  UPLOAD_URL_TTL_SECONDS,
  type CompleteUploadRequest,
  type Resource,
  type UploadResourceUrlRequest,
} from '@coffer/contract';
import type { Db, DbOrTx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { fromStorageError, isStorageError } from './storage-errors';
import type { StorageProvider } from '../../providers/storage/index';
import { isMediaType } from './media-type';
import { wantsThumbnail, writeThumbnail } from './thumbnails';
import * as repo from './uploads.repository';

const MiB = 1024 * 1024;

/** Human size for messages: "2 GB", "100 MB". */
function human(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(2)} GB`;
  return `${+(bytes / MiB).toFixed(2)} MB`;
}

/** Exact size for quota messages: "1.5 GB", "20 MB", "512 bytes". */
function bytesText(bytes: number): string {
  return bytes >= MiB ? human(bytes) : `${bytes} bytes`;
}

/** MD5 hex of a stored object, streamed. */
export async function md5OfObject(storage: StorageProvider, key: string): Promise<{ md5: string; size: number }> {
  const hash = createHash('md5');
  let size = 0;
  await pipeline(await storage.read(key), async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      size += chunk.length;
      hash.update(chunk);
    }
    yield* [];
  });
  return { md5: hash.digest('hex'), size };
}

/** A stored file row (the logical file at its current version), as other modules read it. */
export type ResourceRow = repo.ResourceRow;

export function toResource(row: repo.ResourceRow): Resource {
  return {
    id: row.id,
    collection_id: row.collectionId,
    name: row.name,
    size: row.size,
    md5: row.md5,
    content_type: row.contentType,
    created_at: row.createdAt.getTime(),
    version: row.version,
    updated_at: row.updatedAt ? row.updatedAt.getTime() : null,
    preview: row.preview,
  };
}

export interface UploadsDeps {
  db: Db;
  storage: StorageProvider;
  clock: Clock;
  /** MAX_UPLOAD_BYTES */
  maxUploadBytes: number;
  /** STORAGE_QUOTA_BYTES: bytes one user may store across uploads not failed (default 10 GiB). */
  quotaBytes?: number;
}

export function createUploadsService(deps: UploadsDeps) {
  const { db, storage, clock } = deps;

  function checkSize(size: number): void {
    if (size > deps.maxUploadBytes) throw errors.tooLarge(`Files must be at most ${human(deps.maxUploadBytes)}`);
  }

  const quotaBytes = deps.quotaBytes ?? 10 * 1024 ** 3;

  /** @throws VALIDATION_FAILED when `contentType` is not an ASCII RFC 9110 media type (empty is allowed) */
  function checkContentType(contentType: string | undefined): void {
    if (contentType && !isMediaType(contentType)) {
      throw errors.validation(
        'content_type must be a media type such as application/zip (ASCII letters, digits and punctuation only)',
      );
    }
  }

  /** @throws PAYLOAD_TOO_LARGE when `size` more bytes would pass the owner's quota; says what is left */
  async function checkQuota(ownerId: string, size: number, tx?: DbOrTx): Promise<void> {
    const used = await repo.storedBytesOf(tx ?? db, ownerId);
    if (used + size > quotaBytes) {
      const left = Math.max(0, quotaBytes - used);
      throw errors.tooLarge(
        `Your storage space is full: ${bytesText(left)} of ${bytesText(quotaBytes)} left, and this file needs ${bytesText(size)}`,
      );
    }
  }

  /** Inserts the upload row after checking the quota again under the owner's lock (parallel starts cannot pass it). */
  async function insertWithinQuota(row: Parameters<typeof repo.insertUpload>[1]): Promise<void> {
    await db.transaction(async (tx) => {
      await repo.lockOwner(tx, row.ownerId);
      await checkQuota(row.ownerId, row.size, tx);
      await repo.insertUpload(tx, row);
    });
  }

  /** The caller's upload. @throws NOT_FOUND when missing, FORBIDDEN when another user's */
  async function ownUpload(ownerId: string, uploadId: string): Promise<repo.UploadRow> {
    const upload = await repo.findUpload(db, uploadId);
    if (!upload) throw errors.notFound('The upload does not exist');
    if (upload.ownerId !== ownerId) throw errors.forbidden();
    return upload;
  }

  function openMultipart(upload: repo.UploadRow): void {
    if (upload.mode !== 'multipart') throw errors.validation('This upload is a single PUT, not a multipart upload');
    if (upload.status === 'completed') throw errors.conflict('This upload is already completed');
    if (upload.status === 'failed') throw errors.conflict('This upload failed; start a new upload');
  }

  function expectedPartSize(upload: repo.UploadRow, partNumber: number): number {
    return partNumber < upload.partCount ? upload.partSize : upload.size - upload.partSize * (upload.partCount - 1);
  }

  /** Deletes what was assembled and fails the upload (size or MD5 mismatch: nothing kept). */
  async function discard(upload: repo.UploadRow, message: string): Promise<never> {
    await storage.delete(upload.storageKey).catch(() => undefined);
    if (upload.storageUploadId) await storage.abortMultipart(upload.storageKey, upload.storageUploadId).catch(() => undefined);
    await repo.moveUpload(db, upload.id, 'completing', 'failed');
    throw errors.validation(message);
  }

  async function finish(upload: repo.UploadRow, actual: { size: number; md5?: string }): Promise<Resource> {
    if (actual.size !== upload.size) {
      return discard(
        upload,
        `The uploaded file has ${actual.size} bytes but ${upload.size} were declared; the upload was discarded`,
      );
    }
    const md5 = actual.md5 ?? (await md5OfObject(storage, upload.storageKey)).md5;
    if (md5 !== upload.md5) {
      return discard(upload, 'The MD5 of the uploaded file does not match the declared md5; the upload was discarded');
    }
    return db.transaction(async (tx) => {
      const row = await repo.insertResource(tx, {
        id: newId(),
        ownerId: upload.ownerId,
        uploadId: upload.id,
        name: upload.fileName,
        size: upload.size,
        md5,
        contentType: upload.contentType,
        storageKey: upload.storageKey,
        createdAt: new Date(clock.now()),
      });
      await repo.moveUpload(tx, upload.id, 'completing', 'completed', { resourceId: row.id, completedAt: new Date(clock.now()) });
      return toResource(row);
    });
  }

  return {
    /**
     * Single-PUT upload of a small file.
     * @returns upload_id, url (presigned PUT of exactly `size` bytes) and expires_at (ms)
     * @throws PAYLOAD_TOO_LARGE beyond MAX_UPLOAD_BYTES; VALIDATION_FAILED beyond SINGLE_PUT_MAX_BYTES
     */
    async startSingle(ownerId: string, input: UploadResourceUrlRequest) {
      checkSize(input.size);
      checkContentType(input.content_type);
      await checkQuota(ownerId, input.size);
      if (input.size > SINGLE_PUT_MAX_BYTES) {
        throw errors.validation(`Files over ${human(SINGLE_PUT_MAX_BYTES)} must be uploaded in parts (multipart/upload)`);
      }
      const id = newId();
      const storageKey = `resources/${id}`;
      const put = await storage.presignPut(storageKey, {
        maxBytes: input.size,
        exactBytes: true,
        expiresInSec: UPLOAD_URL_TTL_SECONDS,
      });
      await insertWithinQuota({
        id,
        ownerId,
        mode: 'single',
        fileName: input.file_name,
        size: input.size,
        md5: input.md5,
        contentType: input.content_type,
        storageKey,
        partSize: input.size,
        partCount: 1,
        createdAt: new Date(clock.now()),
      });
      return { upload_id: id, url: put.url, expires_at: put.expiresAt };
    },

    /**
     * Starts a multipart upload.
     * @returns upload_id, part_size (bytes of every part but the last) and part_count
     * @throws PAYLOAD_TOO_LARGE beyond MAX_UPLOAD_BYTES
     */
    async startMultipart(ownerId: string, input: UploadResourceUrlRequest) {
      checkSize(input.size);
      checkContentType(input.content_type);
      await checkQuota(ownerId, input.size);
      const id = newId();
      const storageKey = `resources/${id}`;
      const partSize = partSizeFor(input.size);
      const partCount = Math.ceil(input.size / partSize);
      const storageUploadId = await storage.createMultipart(storageKey, {
        contentType: input.content_type,
        size: input.size,
        partSize,
      });
      await insertWithinQuota({
        id,
        ownerId,
        mode: 'multipart',
        fileName: input.file_name,
        size: input.size,
        md5: input.md5,
        contentType: input.content_type,
        storageKey,
        storageUploadId,
        partSize,
        partCount,
        createdAt: new Date(clock.now()),
      }).catch(async (err: unknown) => {
        await storage.abortMultipart(storageKey, storageUploadId).catch(() => undefined);
        throw err;
      });
      return { upload_id: id, part_size: partSize, part_count: partCount };
    },

    /**
     * Presigns the PUT of part `partNumber` (1..part_count).
     * @returns url, part_number, size (bytes the part must have), expires_at (ms)
     * @throws NOT_FOUND, FORBIDDEN (another user's upload), CONFLICT (completed or failed), VALIDATION_FAILED
     */
    async partUrl(ownerId: string, uploadId: string, partNumber: number) {
      const upload = await ownUpload(ownerId, uploadId);
      openMultipart(upload);
      if (partNumber > upload.partCount) throw errors.validation(`This upload has ${upload.partCount} part(s)`);
      const size = expectedPartSize(upload, partNumber);
      const put = await storage.presignPart(upload.storageKey, upload.storageUploadId!, partNumber, {
        maxBytes: size,
        expiresInSec: UPLOAD_URL_TTL_SECONDS,
      });
      return { url: put.url, part_number: partNumber, size, expires_at: put.expiresAt };
    },

    /**
     * Lists the parts uploaded so far (S3 ListParts), for resuming.
     * @returns parts [{part_number, etag, size}], part_size, part_count
     */
    async listParts(ownerId: string, uploadId: string) {
      const upload = await ownUpload(ownerId, uploadId);
      openMultipart(upload);
      let parts;
      try {
        parts = await storage.listParts(upload.storageKey, upload.storageUploadId!);
      } catch (err) {
        throw fromStorageError(err, ['NotImplemented']);
      }
      return {
        parts: parts.map((p) => ({ part_number: p.partNumber, etag: p.etag, size: p.size })),
        part_size: upload.partSize,
        part_count: upload.partCount,
      };
    },

    /**
     * Completes an upload and yields its resource (repeating a completed one answers the same resource).
     * @throws VALIDATION_FAILED for a missing, wrong-sized or wrong-ETag part (the upload stays open),
     * or a size/MD5 mismatch of the whole file (the upload is discarded); CONFLICT for a failed upload
     */
    async complete(ownerId: string, input: CompleteUploadRequest): Promise<Resource> {
      const upload = await ownUpload(ownerId, input.upload_id);
      if (upload.status === 'completed' && upload.resourceId) {
        const row = await repo.findResource(db, upload.resourceId);
        if (row) return toResource(row);
      }
      if (upload.status === 'failed') throw errors.conflict('This upload failed; start a new upload');
      // Claim the completion so that two concurrent calls cannot both assemble.
      if (!(await repo.moveUpload(db, upload.id, 'pending', 'completing'))) {
        throw errors.conflict('This upload is being completed');
      }
      try {
        if (upload.mode === 'single') {
          if (!(await storage.head(upload.storageKey))) throw errors.validation('The file has not been uploaded yet');
          // Sealed first, then checked: the bytes verified are the bytes kept, whatever the PUT URL does next.
          const sealed = await storage.seal(upload.storageKey);
          const head = await storage.head(sealed);
          if (!head) throw errors.validation('The file has not been uploaded yet');
          return await finish({ ...upload, storageKey: sealed }, { size: head.size });
        }
        const given = [...input.parts].sort((a, b) => a.part_number - b.part_number);
        for (let i = 0; i < given.length; i++) {
          if (given[i]!.part_number !== i + 1) {
            throw errors.validation(given[i]!.part_number === i ? `Part ${i} is listed twice` : `Part ${i + 1} is missing`);
          }
        }
        if (given.length < upload.partCount) throw errors.validation(`Part ${given.length + 1} is missing`);
        if (given.length > upload.partCount) throw errors.validation(`This upload has ${upload.partCount} part(s)`);
        // Check each part's presence and size first, so that a bad part is reported by number and
        // can be re-sent; a store without ListParts leaves it to the completion and the final checks.
        const listed = await storage.listParts(upload.storageKey, upload.storageUploadId!).catch((err: unknown) => {
          if (isStorageError(err, 'NotImplemented')) return null;
          throw err;
        });
        const stored = listed && new Map(listed.map((p) => [p.partNumber, p]));
        for (const p of stored ? given : []) {
          const s = stored!.get(p.part_number);
          if (!s) throw errors.validation(`Part ${p.part_number} is missing: upload it, then complete again`);
          const expected = expectedPartSize(upload, p.part_number);
          if (s.size !== expected) throw errors.validation(`Part ${p.part_number} has ${s.size} bytes; it must have ${expected}`);
        }
        const assembled = await storage.completeMultipart(
          upload.storageKey,
          upload.storageUploadId!,
          given.map((p) => ({ partNumber: p.part_number, etag: p.etag })),
        );
        return await finish(upload, assembled);
      } catch (err) {
        const mapped = fromStorageError(err, ['InvalidPart', 'NoSuchUpload']);
        // Still claimed (a part problem, not a discarded file): reopen so the client can fix it and retry.
        const fresh = await repo.findUpload(db, upload.id);
        if (fresh?.status === 'completing') await repo.moveUpload(db, upload.id, 'completing', 'pending');
        throw mapped;
      }
    },

    /** The caller-independent resource row (for collections and downloads), or null. */
    findResource(id: string, tx?: DbOrTx) {
      return repo.findResource(tx ?? db, id);
    },

    /** Attaches an unattached resource to a collection; @returns false when attached already. */
    attachResource(id: string, collectionId: string, tx: DbOrTx) {
      return repo.attachResource(tx, id, collectionId);
    },

    /** Every resource row of a collection, removed ones included, oldest first (callers filter per viewer). */
    resourceRowsOf(collectionId: string): Promise<repo.ResourceRow[]> {
      return repo.resourcesOf(db, collectionId);
    },

    /** The resource row locked until `tx` ends, or null. */
    lockResource(id: string, tx: DbOrTx) {
      return repo.lockResource(tx, id);
    },

    /**
     * Makes the unattached resource `next` version n + 1 of the locked file `current` (product §24);
     * the old version's row (and bytes) are kept in resource_versions.
     * @returns the updated file row, or null when `next` was attached or used meanwhile
     */
    replaceVersion(current: repo.ResourceRow, next: repo.ResourceRow, tx: DbOrTx) {
      return repo.replaceVersion(tx, current, next, new Date(clock.now()));
    },

    /** Superseded versions of a file (version, name, size, md5, storage key, times), oldest first. */
    versionsOf(resourceId: string) {
      return repo.versionsOf(db, resourceId);
    },

    /** Sets the preview flag or the removal time of a file. @returns the updated row or null */
    patchResource(id: string, patch: { preview?: boolean; removedAt?: Date | null }, tx: DbOrTx) {
      return repo.patchResource(tx, id, patch);
    },

    /**
     * Makes the thumbnail of an image file (thumbnails.ts) and records its key; best effort (a file
     * sharp cannot read keeps none). @returns the thumbnail's storage key, or null
     */
    async makeThumbnail(row: repo.ResourceRow): Promise<string | null> {
      if (!wantsThumbnail(row.contentType, row.size)) return null;
      const key = `thumbs/${row.id}-v${row.version}.webp`;
      if (!(await writeThumbnail(storage, row.storageKey, key))) return null;
      await repo.patchResource(db, row.id, { thumbnailKey: key });
      return key;
    },

    /**
     * Aborts unfinished uploads older than `maxAgeMs` (pending, or left completing by a crash; their
     * parts and any partial object are dropped). Safe to run on several instances: each upload is
     * claimed by a status move first.
     * @returns how many were aborted
     */
    async abortStale(maxAgeMs: number, limit = 100): Promise<number> {
      const stale = await repo.staleUploads(db, new Date(clock.now() - maxAgeMs), limit);
      let n = 0;
      for (const u of stale) {
        if (!(await repo.moveUpload(db, u.id, u.status, 'failed'))) continue;
        if (u.storageUploadId) await storage.abortMultipart(u.storageKey, u.storageUploadId).catch(() => undefined);
        await storage.delete(u.storageKey).catch(() => undefined);
        n++;
      }
      return n;
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;

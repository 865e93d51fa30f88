/**
 * Banner and avatar images (product §16 and §19): a presigned PUT limited by type and size
 * (png/jpeg/webp/gif, <= 5 MB), then, on first use, the stored object is checked by its magic bytes
 * (the `file-type` package) — never by the declared type — before it can be shown.
 *
 * The value handed to clients (`banner`, `avatar`) is the image's URL, `${PUBLIC_URL}/media/<id>`;
 * only verified images are served there (modules/uploads/files.routes.ts).
 */
import { IMAGE_CONTENT_TYPES, IMAGE_MAX_BYTES, UPLOAD_URL_TTL_SECONDS, type ImageUploadRequest } from '@coffer/contract';
import type { Db, DbOrTx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { StorageProvider } from '../../providers/storage/index';
import * as repo from './uploads.repository';

export type ImageKind = 'banner' | 'avatar';

const ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Bytes file-type needs to recognise every image format it knows. */
const SNIFF_BYTES = 4100;

/** Reads up to `bytes` bytes from the start of an object. */
export async function readHead(storage: StorageProvider, key: string, bytes: number): Promise<Buffer> {
  const head = await storage.head(key);
  if (!head || head.size === 0) return Buffer.alloc(0);
  const stream = await storage.read(key, { start: 0, end: Math.min(bytes, head.size) - 1 });
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    total += (chunk as Buffer).length;
    if (total >= bytes) break;
  }
  stream.destroy();
  return Buffer.concat(chunks).subarray(0, bytes);
}

export function createImagesService(deps: { db: Db; storage: StorageProvider; clock: Clock; publicUrl: string }) {
  const { db, storage, clock } = deps;
  const mediaPrefix = `${deps.publicUrl}/media/`;

  /** The image id inside a value clients send back (`<url>/media/<id>`, `/media/<id>` or the bare id), or null. */
  function idOf(value: string): string | null {
    const id = value.trim().split('?')[0]!.split('/').pop() ?? '';
    return ID_RE.test(id) ? id : null;
  }

  /** The public URL of an image id. */
  const url = (id: string): string => `${mediaPrefix}${id}`;

  return {
    idOf,
    url,

    /**
     * The URL clients load for a stored avatar value: a bare image id becomes its `/media/<id>` URL;
     * anything else (an older row holding a URL) is answered as stored.
     */
    avatarUrl(stored: string): string {
      return idOf(stored) === stored ? url(stored) : stored;
    },

    /**
     * Presigns the PUT of a new image.
     * @param input content_type (png/jpeg/webp/gif) and size in bytes (<= 5 MB), checked by the contract
     * @returns url (presigned PUT; send the same Content-Type), value (for collection/create or
     * account/change) and expiresAt (ms)
     */
    async presign(ownerId: string, kind: ImageKind, input: ImageUploadRequest) {
      const id = newId();
      const storageKey = `images/${id}`;
      await repo.insertImage(db, {
        id,
        ownerId,
        kind,
        storageKey,
        contentType: input.content_type,
        createdAt: new Date(clock.now()),
      });
      const put = await storage.presignPut(storageKey, {
        contentType: input.content_type,
        maxBytes: input.size,
        exactBytes: true,
        expiresInSec: UPLOAD_URL_TTL_SECONDS,
      });
      return { url: put.url, value: url(id), expiresAt: put.expiresAt };
    },

    /**
     * Checks that `value` names an image of `ownerId` whose stored bytes are a PNG, JPEG, WebP or GIF
     * of at most 5 MB (magic bytes, not the declared type); marks it verified on first use.
     * @returns the image id to store
     * @throws AppError VALIDATION_FAILED for an unknown value, another user's image, a missing upload
     * or bytes that are not an allowed image (the object is then deleted)
     */
    async claim(ownerId: string, value: string, tx?: DbOrTx): Promise<string> {
      const id = idOf(value);
      const image = id ? await repo.findImage(tx ?? db, id) : null;
      if (!image || image.ownerId !== ownerId)
        throw errors.validation('Upload the image first, then use the value the upload answered');
      if (image.status === 'verified') return image.id;
      if (!(await storage.head(image.storageKey))) throw errors.validation('The image has not been uploaded yet');
      // Sealed first, then checked: the bytes whose magic was checked are the bytes served, whatever the PUT URL does next.
      const key = await storage.seal(image.storageKey);
      const head = await storage.head(key);
      if (!head) throw errors.validation('The image has not been uploaded yet');
      if (head.size > IMAGE_MAX_BYTES) {
        await storage.delete(key);
        throw errors.validation('Images must be 5 MB or smaller');
      }
      const { fileTypeFromBuffer } = await import('file-type');
      const type = await fileTypeFromBuffer(await readHead(storage, key, SNIFF_BYTES));
      if (!type || !(IMAGE_CONTENT_TYPES as readonly string[]).includes(type.mime)) {
        await storage.delete(key);
        throw errors.validation('The file is not a PNG, JPEG, WebP or GIF image');
      }
      await repo.markImageVerified(tx ?? db, image.id, type.mime, key);
      return image.id;
    },

    /** A verified image for serving, or null. */
    async servable(id: string): Promise<{ storageKey: string; contentType: string } | null> {
      if (!ID_RE.test(id)) return null;
      const image = await repo.findImage(db, id);
      return image?.status === 'verified' ? { storageKey: image.storageKey, contentType: image.contentType } : null;
    },
  };
}

export type ImagesService = ReturnType<typeof createImagesService>;

/**
 * File storage behind a small interface (product §11 and §16): S3 semantics — objects under keys,
 * presigned PUT/GET URLs, multipart uploads of numbered parts with ETags.
 *
 * Two providers: `local` (files under `$DATA_DIR/files`, URLs signed with HMAC and served by the app
 * itself) and `s3` (any S3-compatible store). Sizes are bytes, lifetimes seconds.
 */
import type { Readable } from 'node:stream';

/** A part of a multipart upload as storage holds it (S3 ListParts). */
export interface StoredPart {
  partNumber: number;
  /** Quoted MD5 hex of the part (`"…"`), as the part PUT answered it. */
  etag: string;
  size: number;
}

export interface PresignedPut {
  url: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export interface StorageProvider {
  readonly kind: 'local' | 's3';

  /**
   * A presigned PUT for a whole object.
   * @param opts.contentType when set, the PUT must send exactly this Content-Type
   * @param opts.maxBytes largest body accepted (local enforces it; s3 signs the exact length when `exactBytes`)
   */
  presignPut(
    key: string,
    opts: { contentType?: string; maxBytes: number; exactBytes?: boolean; expiresInSec: number },
  ): Promise<PresignedPut>;

  /**
   * Starts a multipart upload for `key`; returns the storage's upload id.
   * @param opts.size the file's declared size (bytes) and `opts.partSize` the size of every part
   * but the last: `local` then writes each part at its final offset (s3 ignores both)
   */
  createMultipart(key: string, opts: { contentType: string; size?: number; partSize?: number }): Promise<string>;

  /** A presigned PUT for part `partNumber` (from 1) of at most `maxBytes`. */
  presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    opts: { maxBytes: number; expiresInSec: number },
  ): Promise<PresignedPut>;

  /** Parts uploaded so far, by part number. @throws StorageError 'NotImplemented' when the store has no ListParts */
  listParts(key: string, uploadId: string): Promise<StoredPart[]>;

  /**
   * Assembles the listed parts (in order) into the object `key`.
   * @returns the object's size and, when the provider computed it while assembling, its MD5 hex
   * @throws StorageError 'InvalidPart' when a part is missing or its ETag differs
   */
  completeMultipart(
    key: string,
    uploadId: string,
    parts: { partNumber: number; etag: string }[],
  ): Promise<{ size: number; md5?: string }>;

  /** Drops a multipart upload and its parts (no-op when unknown). */
  abortMultipart(key: string, uploadId: string): Promise<void>;

  /** Size of the stored object, or null when it does not exist. */
  head(key: string): Promise<{ size: number } | null>;

  /** Streams the object (or the inclusive byte range). @throws StorageError 'NoSuchKey' */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;

  /** A presigned GET that downloads the object as an attachment named `fileName`. */
  presignGet(key: string, opts: { fileName: string; contentType: string; expiresInSec: number }): Promise<PresignedPut>;

  /** Deletes the object (no-op when missing). */
  delete(key: string): Promise<void>;

  /** Writes a small object the server made itself (thumbnails), replacing any object at `key`. */
  putObject(key: string, body: Buffer, contentType: string): Promise<void>;

  /**
   * Seals a verified object (docs/abuse.md, "Sealed files"): moves it to {@link sealedKey}(`key`),
   * where no presigned PUT ever points, so a PUT URL still valid for `key` can no longer change what
   * buyers download. Local storage then refuses such a PUT with 403. Idempotent: sealing a key
   * already sealed answers the sealed key.
   * @returns the key to read the object from from now on
   * @throws StorageError 'NoSuchKey' when neither `key` nor its sealed copy exists
   */
  seal(key: string): Promise<string>;
}

/** A storage failure with an S3-style code. */
export class StorageError extends Error {
  override name = 'StorageError';
  constructor(
    readonly code: 'NoSuchKey' | 'NoSuchUpload' | 'InvalidPart' | 'EntityTooLarge' | 'BadDigest' | 'NotImplemented' | 'Sealed',
    message: string,
  ) {
    super(message);
  }
}

/** Where a sealed object lives: `sealed/<key>` (presigned PUTs are only ever signed for unsealed keys). */
export const sealedKey = (key: string): string => (key.startsWith('sealed/') ? key : `sealed/${key}`);

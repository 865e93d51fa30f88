/**
 * `s3` storage (product §11, `STORAGE=s3`): any S3-compatible store through @aws-sdk/client-s3, with
 * presigned URLs from @aws-sdk/s3-request-presigner. The client is created with
 * `requestChecksumCalculation: 'WHEN_REQUIRED'` so presigned part URLs carry no checksum parameter
 * that a browser could not send, and with path-style addressing for custom endpoints.
 *
 * S3 does not give the MD5 of a multipart object, so `completeMultipart` returns no `md5` and the
 * uploads service hashes the object by streaming it back once.
 */
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type Part,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { create as contentDisposition } from 'content-disposition';
import type { Clock } from '../../lib/clock';
import { sealedKey, StorageError, type PresignedPut, type StorageProvider, type StoredPart } from './types';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Custom endpoint (MinIO, R2, s3rver...); path-style addressing is used with it. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  clock: Clock;
}

function errorName(err: unknown): string {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name ?? e?.Code ?? '';
}

export class S3Storage implements StorageProvider {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  private readonly bucket: string;

  constructor(private readonly opts: S3StorageOptions) {
    this.bucket = opts.bucket;
    this.client = new S3Client({
      region: opts.region,
      ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true } : {}),
      credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private expiry(expiresInSec: number): number {
    return this.opts.clock.now() + expiresInSec * 1000;
  }

  async presignPut(
    key: string,
    opts: { contentType?: string; maxBytes: number; exactBytes?: boolean; expiresInSec: number },
  ): Promise<PresignedPut> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ...(opts.contentType ? { ContentType: opts.contentType } : {}),
      ...(opts.exactBytes ? { ContentLength: opts.maxBytes } : {}),
    });
    const signableHeaders = new Set<string>();
    if (opts.contentType) signableHeaders.add('content-type');
    if (opts.exactBytes) signableHeaders.add('content-length');
    const url = await getSignedUrl(this.client, command, { expiresIn: opts.expiresInSec, signableHeaders });
    return { url, expiresAt: this.expiry(opts.expiresInSec) };
  }

  async createMultipart(key: string, opts: { contentType: string }): Promise<string> {
    const out = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: opts.contentType }),
    );
    if (!out.UploadId) throw new Error('S3 answered no UploadId');
    return out.UploadId;
  }

  async presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    opts: { maxBytes: number; expiresInSec: number },
  ): Promise<PresignedPut> {
    // Signed with the part's exact length: the URL cannot carry more (or fewer) bytes than the part must have.
    const command = new UploadPartCommand({
      Bucket: this.bucket,
      Key: key,
      UploadId: uploadId,
      PartNumber: partNumber,
      ContentLength: opts.maxBytes,
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: opts.expiresInSec,
      signableHeaders: new Set(['content-length']),
    });
    return { url, expiresAt: this.expiry(opts.expiresInSec) };
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    try {
      for (;;) {
        const out = await this.client.send(
          new ListPartsCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MaxParts: 1000, PartNumberMarker: marker }),
        );
        for (const p of out.Parts ?? []) {
          if (p.PartNumber && p.ETag) parts.push({ partNumber: p.PartNumber, etag: p.ETag, size: Number(p.Size ?? 0) });
        }
        if (!out.IsTruncated || !out.NextPartNumberMarker) break;
        marker = String(out.NextPartNumberMarker);
      }
    } catch (err) {
      const name = errorName(err);
      if (name === 'NoSuchUpload') throw new StorageError('NoSuchUpload', 'The upload does not exist');
      if (name === 'MethodNotAllowed' || name === 'NotImplemented') {
        throw new StorageError('NotImplemented', 'This storage cannot list the parts of an upload');
      }
      throw err;
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(
    key: string,
    uploadId: string,
    parts: { partNumber: number; etag: string }[],
  ): Promise<{ size: number }> {
    const Parts: Part[] = parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag.startsWith('"') ? p.etag : `"${p.etag}"` }));
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts } }),
      );
    } catch (err) {
      const name = errorName(err);
      if (name === 'InvalidPart' || name === 'InvalidPartOrder' || name === 'EntityTooSmall') {
        throw new StorageError('InvalidPart', 'A part is missing or its ETag does not match the uploaded part');
      }
      if (name === 'NoSuchUpload') throw new StorageError('NoSuchUpload', 'The upload does not exist');
      throw err;
    }
    const head = await this.head(key);
    if (!head) throw new StorageError('NoSuchKey', 'The assembled object is missing');
    return { size: head.size };
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (err) {
      if (errorName(err) !== 'NoSuchUpload') throw err;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(out.ContentLength ?? 0) };
    } catch (err) {
      const name = errorName(err);
      if (name === 'NotFound' || name === 'NoSuchKey') return null;
      throw err;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      if (!(out.Body instanceof Readable)) throw new Error('S3 body is not a Node stream');
      return out.Body;
    } catch (err) {
      const name = errorName(err);
      if (name === 'NoSuchKey' || name === 'NotFound') throw new StorageError('NoSuchKey', 'The object does not exist');
      throw err;
    }
  }

  async presignGet(key: string, opts: { fileName: string; contentType: string; expiresInSec: number }): Promise<PresignedPut> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: contentDisposition(opts.fileName),
      ResponseContentType: opts.contentType,
    });
    const url = await getSignedUrl(this.client, command, { expiresIn: opts.expiresInSec });
    return { url, expiresAt: this.expiry(opts.expiresInSec) };
  }

  async putObject(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * {@link StorageProvider.seal}: a server-side copy to `sealed/<key>`, then the original is deleted.
   * A PUT URL still valid for `key` then writes an object nothing reads (and, signed with its
   * content length, never more bytes than declared). Objects over 5 GB cannot be copied in one
   * call: only single-PUT uploads (at most 100 MB) and images are sealed this way; a multipart
   * key cannot be rewritten once completed (its upload id, which every part URL names, is gone).
   */
  async seal(key: string): Promise<string> {
    const target = sealedKey(key);
    if (target === key) return key;
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: target,
          CopySource: `${this.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`,
        }),
      );
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name !== 'NoSuchKey' && name !== 'NotFound') throw err;
      if (!(await this.head(target))) throw new StorageError('NoSuchKey', 'The object does not exist');
      return target;
    }
    await this.delete(key);
    return target;
  }
}

/**
 * The files plugin: the app's own file endpoints (product §16 and §19), registered in its own
 * encapsulated context (its content-type parsers stay inside it):
 *
 * - `local` storage's presigned URLs, which the app serves itself:
 *   `PUT /files/o/<key>` (whole object), `PUT /files/p/<upload id>/<part>` (a multipart part) and
 *   `GET /files/o/<key>` (download, with Range). Each checks the HMAC signature and expiry first;
 *   a tampered, re-targeted or expired URL answers 403. Bodies stream to disk through their own
 *   content-type parser, outside the 1 MB JSON body limit, and a PUT answers the part's MD5 as a
 *   quoted `ETag` header, as S3 does.
 * - `GET /media/<image id>`: verified banner and avatar images (local: streamed; s3: a redirect to a
 *   presigned GET).
 *
 * Files are never rendered from the app's origin: downloads carry `Content-Disposition: attachment`,
 * and everything here `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src 'none'; sandbox`.
 */
import type { Readable } from 'node:stream';
import send from '@fastify/send';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors } from '../../lib/errors';
import { fromStorageError } from './storage-errors';
import type { ImagesService } from './images.service';
import { isMediaType } from './media-type';
import { LocalStorage, StorageError, type StorageProvider } from '../../providers/storage/index';

const SANDBOX_CSP = "default-src 'none'; sandbox";

/**
 * The Content-Type header for a stored content type: the value when it is an RFC 9110 media type
 * (ASCII, see {@link isMediaType}), else `application/octet-stream`. No stored value (older rows
 * included) can make a download fail.
 */
export function headerContentType(stored: string | undefined): string {
  return stored && isMediaType(stored) ? stored : 'application/octet-stream';
}

function safeHeaders(reply: FastifyReply): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Content-Security-Policy', SANDBOX_CSP);
}

function linkRefused(): AppError {
  return errors.forbidden('This link is invalid or has expired');
}

/**
 * Maps storage and stream failures of an upload to the envelope. A PUT after completion (a sealed
 * object, or a part of a completed or aborted upload) answers 403: the file can no longer change.
 */
function uploadError(err: unknown): unknown {
  if (err instanceof StorageError) {
    return fromStorageError(err, ['EntityTooLarge', 'Sealed', 'NoSuchUpload', 'NoSuchKey'], {
      NoSuchUpload: () => errors.forbidden('This upload was completed or aborted; its parts can no longer be changed'),
    });
  }
  const code = (err as { code?: string }).code;
  if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET') {
    return errors.validation('The upload was interrupted; send the part again');
  }
  return err;
}

/** Refuses a body whose declared length exceeds what the URL allows, before reading it. */
function checkLength(req: FastifyRequest, max: number): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > max) {
    throw errors.tooLarge(`The body is larger than the ${max} bytes this URL allows`);
  }
}

/** Sends a stored local file with Range support (206/416 from @fastify/send). */
async function sendLocal(req: FastifyRequest, reply: FastifyReply, local: LocalStorage, key: string) {
  const result = await send(req.raw, `/${key}`, {
    root: local.objectsRoot,
    acceptRanges: true,
    etag: true,
    lastModified: true,
    cacheControl: false,
    contentType: false,
    dotfiles: 'deny',
    index: false,
  });
  if (result.type !== 'file') {
    const status = result.statusCode;
    if (status === 416 || status === 412 || status === 304) {
      reply.code(status).headers(result.headers);
      return reply.send(status === 304 ? undefined : result.stream);
    }
    throw errors.notFound('The file does not exist');
  }
  reply.code(result.statusCode).headers(result.headers);
  return reply.send(result.stream);
}

export interface FilesPluginOptions {
  /** The configured storage; the `/files/...` routes exist only for `local`. */
  storage: StorageProvider;
  /** Finds the verified images `/media/<id>` serves. */
  images: ImagesService;
}

/**
 * Registers `/media/:id` and, for `local` storage, the `/files/...` routes. Register it with
 * `app.register` (not wrapped in fastify-plugin): its catch-all content-type parser must not leak.
 */
export async function filesPlugin(app: FastifyInstance, options: FilesPluginOptions): Promise<void> {
  const { storage, images } = options;

  app.get('/media/:id', { config: { rateLimit: false } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    const image = await images.servable(id);
    if (!image) throw errors.notFound('The image does not exist');
    safeHeaders(reply);
    if (storage instanceof LocalStorage) {
      reply.header('Content-Type', headerContentType(image.contentType));
      reply.header('Cache-Control', 'public, max-age=86400, immutable');
      return sendLocal(req, reply, storage, image.storageKey);
    }
    const get = await storage.presignGet(image.storageKey, {
      fileName: `image-${id}`,
      contentType: image.contentType,
      expiresInSec: 3600,
    });
    reply.header('Cache-Control', 'private, max-age=3000');
    return reply.redirect(get.url, 302);
  });

  if (!(storage instanceof LocalStorage)) return;
  const local = storage;

  // Upload bodies: any content type, streamed by the handler (never parsed, never buffered).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

  const query = (req: FastifyRequest) => req.query as Record<string, unknown>;

  app.put('/files/o/*', { config: { rateLimit: false } }, async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    const params = local.verify('PUT', `/files/o/${key}`, query(req));
    if (!params) throw linkRefused();
    const max = Number(params.max);
    if (params.ct) {
      const sent = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (sent !== params.ct.toLowerCase()) throw errors.validation(`Send the file with Content-Type: ${params.ct}`);
    }
    if (await local.isSealed(key)) throw uploadError(new StorageError('Sealed', 'sealed'));
    checkLength(req, max);
    try {
      const etag = await local.receiveObject(key, req.body as Readable, max);
      return reply.header('ETag', etag).code(200).send();
    } catch (err) {
      throw uploadError(err);
    }
  });

  app.put('/files/p/:uploadId/:part', { config: { rateLimit: false } }, async (req, reply) => {
    const { uploadId, part } = req.params as { uploadId: string; part: string };
    const params = local.verify('PUT', `/files/p/${uploadId}/${part}`, query(req));
    if (!params || !/^\d{1,5}$/.test(part)) throw linkRefused();
    const max = Number(params.max);
    checkLength(req, max);
    try {
      const etag = await local.receivePart(uploadId, Number(part), req.body as Readable, max);
      return reply.header('ETag', etag).code(200).send();
    } catch (err) {
      throw uploadError(err);
    }
  });

  app.get('/files/o/*', { config: { rateLimit: false } }, async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    const params = local.verify('GET', `/files/o/${key}`, query(req));
    if (!params) throw linkRefused();
    safeHeaders(reply);
    reply.header('Content-Type', headerContentType(params.ct));
    reply.header('Content-Disposition', contentDisposition(params.fn || key.split('/').pop() || 'download'));
    reply.header('Cache-Control', 'private, no-store');
    return sendLocal(req, reply, local, key);
  });
}

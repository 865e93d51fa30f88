/**
 * Upload calls (product §7 collection and file table, product §17): images (create/banner/url, account
 * avatar/url), single PUT (upload/resource/url), multipart (multipart/upload, upload/part/url,
 * upload/parts, complete/upload). Thin: parse with the contract, call the service, answer.
 */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { ImagesService } from './images.service';
import type { UploadsService } from './uploads.service';

export function uploadsRoutes(app: FastifyInstance, uploads: UploadsService, images: ImagesService) {
  defineEndpoint(app, 'bannerUrl', {}, async ({ auth, body }) => {
    const out = await images.presign(auth.userId, 'banner', body);
    return { url: out.url, banner: out.value, expires_at: out.expiresAt };
  });
  defineEndpoint(app, 'avatarUrl', {}, async ({ auth, body }) => {
    const out = await images.presign(auth.userId, 'avatar', body);
    return { url: out.url, avatar: out.value, expires_at: out.expiresAt };
  });
  defineEndpoint(app, 'uploadResourceUrl', {}, ({ auth, body }) => uploads.startSingle(auth.userId, body));
  defineEndpoint(app, 'multipartUpload', {}, ({ auth, body }) => uploads.startMultipart(auth.userId, body));
  defineEndpoint(app, 'uploadPartUrl', {}, ({ auth, body }) => uploads.partUrl(auth.userId, body.upload_id, body.part_number));
  defineEndpoint(app, 'uploadParts', {}, ({ auth, body }) => uploads.listParts(auth.userId, body.upload_id));
  defineEndpoint(app, 'completeUpload', {}, ({ auth, body }) => uploads.complete(auth.userId, body));
}

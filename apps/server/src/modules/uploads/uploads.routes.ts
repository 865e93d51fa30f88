/**
 * Upload calls (SPEC 7 collection and file table, DESIGN 8): images (create/banner/url, account
 * avatar/url), single PUT (upload/resource/url), multipart (multipart/upload, upload/part/url,
 * upload/parts, complete/upload). Thin: parse with the contract, call the service, answer.
 */
import {
  AvatarUrlDataSchema,
  AvatarUrlRequestSchema,
  BannerUrlDataSchema,
  BannerUrlRequestSchema,
  CompleteUploadDataSchema,
  CompleteUploadRequestSchema,
  MultipartUploadDataSchema,
  MultipartUploadRequestSchema,
  UploadPartsDataSchema,
  UploadPartsRequestSchema,
  UploadPartUrlDataSchema,
  UploadPartUrlRequestSchema,
  UploadResourceUrlDataSchema,
  UploadResourceUrlRequestSchema,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineRoute, slPath, ucPath } from '../../lib/route';
import type { ImagesService } from './images.service';
import type { UploadsService } from './uploads.service';

const tags = ['uploads'];

export function uploadsRoutes(app: FastifyInstance, uploads: UploadsService, images: ImagesService) {
  defineRoute(
    app,
    {
      path: slPath('/create/banner/url'),
      body: BannerUrlRequestSchema,
      data: BannerUrlDataSchema,
      auth: 'required',
      tags,
      summary: 'Presigned PUT for a banner image',
    },
    async ({ auth, body }) => {
      const out = await images.presign(auth.userId, 'banner', body);
      return { url: out.url, banner: out.value, expires_at: out.expiresAt };
    },
  );
  defineRoute(
    app,
    {
      path: ucPath('/avatar/url'),
      body: AvatarUrlRequestSchema,
      data: AvatarUrlDataSchema,
      auth: 'required',
      tags: ['account'],
      summary: 'Presigned PUT for an avatar image',
    },
    async ({ auth, body }) => {
      const out = await images.presign(auth.userId, 'avatar', body);
      return { url: out.url, avatar: out.value, expires_at: out.expiresAt };
    },
  );
  defineRoute(
    app,
    {
      path: slPath('/upload/resource/url'),
      body: UploadResourceUrlRequestSchema,
      data: UploadResourceUrlDataSchema,
      auth: 'required',
      tags,
      summary: 'Single presigned PUT for a small file',
    },
    ({ auth, body }) => uploads.startSingle(auth.userId, body),
  );
  defineRoute(
    app,
    {
      path: slPath('/multipart/upload'),
      body: MultipartUploadRequestSchema,
      data: MultipartUploadDataSchema,
      auth: 'required',
      tags,
      summary: 'Start a multipart upload',
    },
    ({ auth, body }) => uploads.startMultipart(auth.userId, body),
  );
  defineRoute(
    app,
    {
      path: slPath('/upload/part/url'),
      body: UploadPartUrlRequestSchema,
      data: UploadPartUrlDataSchema,
      auth: 'required',
      tags,
      summary: 'Presigned PUT for one part',
    },
    ({ auth, body }) => uploads.partUrl(auth.userId, body.upload_id, body.part_number),
  );
  defineRoute(
    app,
    {
      path: slPath('/upload/parts'),
      body: UploadPartsRequestSchema,
      data: UploadPartsDataSchema,
      auth: 'required',
      tags,
      summary: 'Parts uploaded so far (resume)',
    },
    ({ auth, body }) => uploads.listParts(auth.userId, body.upload_id),
  );
  defineRoute(
    app,
    {
      path: slPath('/complete/upload'),
      body: CompleteUploadRequestSchema,
      data: CompleteUploadDataSchema,
      auth: 'required',
      tags,
      summary: 'Assemble and verify an upload; yields the resource',
    },
    ({ auth, body }) => uploads.complete(auth.userId, body),
  );
}

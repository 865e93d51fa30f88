/**
 * Download all (product §25): `collection/download/all` answers a signed URL; `GET
 * /sl/v1/collection/download/all/zip` streams the ZIP it names (downloads.service.ts).
 */
import { create as contentDisposition } from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import { DOWNLOAD_ALL_PATH, type DownloadsService } from './downloads.service';

export function downloadsRoutes(app: FastifyInstance, downloads: DownloadsService) {
  defineEndpoint(app, 'collectionDownloadAll', {}, ({ auth, body }) => downloads.downloadAllUrl(auth.userId, body.collection_id));

  app.get(DOWNLOAD_ALL_PATH, { schema: { hide: true } }, async (req, reply) => {
    const archive = await downloads.openArchive(req.query as Record<string, unknown>, req.log);
    // A client that goes away stops the archive (and the object it was reading).
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) archive.abort();
    });
    reply.header('Content-Type', 'application/zip');
    reply.header('Content-Disposition', contentDisposition(archive.fileName));
    reply.header('Cache-Control', 'private, no-store');
    reply.header('X-Content-Type-Options', 'nosniff');
    return reply.send(archive.stream);
  });
}

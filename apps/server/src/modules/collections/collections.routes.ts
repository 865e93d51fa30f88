/**
 * Collection calls (product §7 collection and file table, product §17) and the public browsing calls the
 * screens need (market/collections, user/collections, resource/detail). Thin: parse, call, answer.
 */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { CollectionsService } from './collections.service';

export function collectionsRoutes(app: FastifyInstance, collections: CollectionsService) {
  defineEndpoint(app, 'collectionCreate', {}, ({ auth, body }) => collections.create(auth.userId, body));
  defineEndpoint(app, 'collectionResourceAdd', {}, ({ auth, body }) =>
    collections.addResource(auth.userId, body.collection_id, body.resource_id),
  );
  defineEndpoint(app, 'collectionPublish', {}, ({ auth, body }) => collections.publish(auth.userId, body.collection_id));
  defineEndpoint(app, 'collectionDelete', {}, ({ auth, body }) => collections.remove(auth.userId, body.collection_id));
  defineEndpoint(app, 'myCollections', {}, ({ auth, body }) => collections.mine(auth.userId, body.paginator));
  // A visitor's detail and every market page are encoded once per cached read and shared (ADR 0071).
  defineEndpoint(app, 'collectionDetail', {}, ({ auth, body, encode }) =>
    auth ? collections.detail(auth.userId, body.collection_id) : collections.visitorDetail(body.collection_id, encode),
  );
  defineEndpoint(app, 'resourceDetail', {}, ({ auth, body }) =>
    collections.resourceDetail(auth?.userId ?? null, body.resource_id),
  );
  defineEndpoint(app, 'marketCollections', {}, ({ body, encode }) => collections.marketAnswer(body, encode));
  defineEndpoint(app, 'userCollections', {}, ({ body }) => collections.ofUser(body.user_id, body.paginator));
  defineEndpoint(app, 'resourceDownloadUrl', {}, ({ auth, body }) =>
    collections.downloadUrl(auth.userId, body.collection_id, body.resource_id),
  );
  // Catalogue edits, versions and previews (product §24).
  defineEndpoint(app, 'collectionUpdate', {}, ({ auth, body }) => collections.update(auth.userId, body));
  defineEndpoint(app, 'collectionUnpublish', {}, ({ auth, body }) => collections.unpublish(auth.userId, body.collection_id));
  defineEndpoint(app, 'collectionResourceRemove', {}, ({ auth, body }) =>
    collections.removeResource(auth.userId, body.collection_id, body.resource_id),
  );
  defineEndpoint(app, 'collectionResourceReplace', {}, ({ auth, body }) =>
    collections.replaceResource(auth.userId, body.collection_id, body.resource_id, body.new_resource_id),
  );
  defineEndpoint(app, 'collectionResourcePreview', {}, ({ auth, body }) =>
    collections.setPreview(auth.userId, body.collection_id, body.resource_id, body.preview),
  );
  defineEndpoint(app, 'resourcePreviewUrl', {}, ({ body }) => collections.previewUrl(null, body.collection_id, body.resource_id));
  defineEndpoint(app, 'myLibraryChanges', {}, ({ auth, body }) => collections.libraryChanges(auth.userId, body.cursor));
}

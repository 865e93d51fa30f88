/**
 * Collection calls (product §7 collection and file table, product §17) and the public browsing calls the
 * screens need (market/collections, user/collections, creator, resource/detail). Thin: parse, call, answer.
 */
import type { PublicUser } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { CollectionsService } from './collections.service';

/** Public profiles (the account module's `profile`: NOT_FOUND for an unknown or deleted user). */
export interface ProfileLookup {
  profile(userId: string): Promise<PublicUser>;
}

export function collectionsRoutes(app: FastifyInstance, collections: CollectionsService, profiles: ProfileLookup) {
  defineEndpoint(app, 'collectionCreate', {}, ({ auth, body }) => collections.create(auth.userId, body));
  defineEndpoint(app, 'collectionResourceAdd', {}, ({ auth, body }) =>
    collections.addResource(auth.userId, body.collection_id, body.resource_id),
  );
  defineEndpoint(app, 'collectionPublish', {}, ({ auth, body }) => collections.publish(auth.userId, body.collection_id));
  defineEndpoint(app, 'collectionDelete', {}, ({ auth, body }) => collections.remove(auth.userId, body.collection_id));
  defineEndpoint(app, 'myCollections', {}, ({ auth, body }) => collections.mine(auth.userId, body.paginator));
  defineEndpoint(app, 'collectionDetail', {}, ({ auth, body }) => collections.detail(auth?.userId ?? null, body.collection_id));
  defineEndpoint(app, 'resourceDetail', {}, ({ auth, body }) =>
    collections.resourceDetail(auth?.userId ?? null, body.resource_id),
  );
  defineEndpoint(app, 'marketCollections', {}, ({ body }) => collections.market(body));
  defineEndpoint(app, 'userCollections', {}, ({ body }) => collections.ofUser(body.user_id, body.paginator));
  // The creator page: the profile (404 for an unknown or deleted user) and the published totals.
  defineEndpoint(app, 'creator', {}, async ({ body }) => {
    const [creator, totals] = await Promise.all([profiles.profile(body.user_id), collections.publishedTotals(body.user_id)]);
    return { creator, published: totals.published, sold: totals.sold, rating_sum: totals.ratingSum, rating_count: totals.ratingCount };
  });
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

/**
 * Collection calls (SPEC 7 collection and file table, DESIGN 8) and the public browsing calls the
 * screens need (market/collections, user/collections, resource/detail). Thin: parse, call, answer.
 */
import {
  CollectionCreateDataSchema,
  CollectionCreateRequestSchema,
  CollectionDeleteDataSchema,
  CollectionDeleteRequestSchema,
  CollectionDetailDataSchema,
  CollectionDetailRequestSchema,
  CollectionPublishDataSchema,
  CollectionPublishRequestSchema,
  CollectionResourceAddDataSchema,
  CollectionResourceAddRequestSchema,
  MarketCollectionsDataSchema,
  MarketCollectionsRequestSchema,
  MyCollectionsDataSchema,
  MyCollectionsRequestSchema,
  ResourceDetailDataSchema,
  ResourceDetailRequestSchema,
  ResourceDownloadUrlDataSchema,
  ResourceDownloadUrlRequestSchema,
  UserCollectionsDataSchema,
  UserCollectionsRequestSchema,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineRoute, slPath } from '../../lib/route';
import type { CollectionsService } from './collections.service';

const tags = ['collections'];

export function collectionsRoutes(app: FastifyInstance, collections: CollectionsService) {
  defineRoute(
    app,
    {
      path: slPath('/collection/create'),
      body: CollectionCreateRequestSchema,
      data: CollectionCreateDataSchema,
      auth: 'required',
      tags,
      summary: 'Create a collection (status Created)',
    },
    ({ auth, body }) => collections.create(auth.userId, body),
  );
  defineRoute(
    app,
    {
      path: slPath('/collection/resource/add'),
      body: CollectionResourceAddRequestSchema,
      data: CollectionResourceAddDataSchema,
      auth: 'required',
      tags,
      summary: 'Attach an uploaded file',
    },
    ({ auth, body }) => collections.addResource(auth.userId, body.collection_id, body.resource_id),
  );
  defineRoute(
    app,
    {
      path: slPath('/collection/publish'),
      body: CollectionPublishRequestSchema,
      data: CollectionPublishDataSchema,
      auth: 'required',
      tags,
      summary: 'Publish (owner, needs a file)',
    },
    ({ auth, body }) => collections.publish(auth.userId, body.collection_id),
  );
  defineRoute(
    app,
    {
      path: slPath('/collection/delete'),
      body: CollectionDeleteRequestSchema,
      data: CollectionDeleteDataSchema,
      auth: 'required',
      tags,
      summary: 'Soft delete (buyers keep their downloads)',
    },
    ({ auth, body }) => collections.remove(auth.userId, body.collection_id),
  );
  defineRoute(
    app,
    {
      path: slPath('/my/collections'),
      body: MyCollectionsRequestSchema,
      data: MyCollectionsDataSchema,
      auth: 'required',
      tags,
      summary: "The caller's collections, newest first",
    },
    ({ auth, body }) => collections.mine(auth.userId, body.paginator),
  );
  defineRoute(
    app,
    {
      path: slPath('/collection/detail'),
      body: CollectionDetailRequestSchema,
      data: CollectionDetailDataSchema,
      auth: 'optional',
      tags,
      summary: 'A collection with its files and seller',
    },
    ({ auth, body }) => collections.detail(auth?.userId ?? null, body.collection_id),
  );
  defineRoute(
    app,
    {
      path: slPath('/resource/detail'),
      body: ResourceDetailRequestSchema,
      data: ResourceDetailDataSchema,
      auth: 'optional',
      tags,
      summary: 'A file with its collection',
    },
    ({ auth, body }) => collections.resourceDetail(auth?.userId ?? null, body.resource_id),
  );
  defineRoute(
    app,
    {
      path: slPath('/market/collections'),
      body: MarketCollectionsRequestSchema,
      data: MarketCollectionsDataSchema,
      auth: 'none',
      tags,
      summary: 'Published collections: search, sort, page',
    },
    ({ body }) => collections.market(body),
  );
  defineRoute(
    app,
    {
      path: slPath('/user/collections'),
      body: UserCollectionsRequestSchema,
      data: UserCollectionsDataSchema,
      auth: 'none',
      tags,
      summary: "A user's published collections",
    },
    ({ body }) => collections.ofUser(body.user_id, body.paginator),
  );
  defineRoute(
    app,
    {
      path: slPath('/resource/download/url'),
      body: ResourceDownloadUrlRequestSchema,
      data: ResourceDownloadUrlDataSchema,
      auth: 'required',
      tags,
      summary: 'Short-lived download URL (owner or buyer)',
    },
    ({ auth, body }) => collections.downloadUrl(auth.userId, body.collection_id, body.resource_id),
  );
}

/**
 * Collections (product §3 Collection, product §4 Collection status, product §16-§17): create, attach files,
 * publish, soft delete, the owner's list, public browsing, details and download links.
 *
 * Rules:
 * - a new collection is `Created`; `collection/publish` moves Created/Draft -> Published for the
 *   owner when it has a title and at least one resource;
 * - `collection/delete` is soft (status Deleted): the owner's list drops it, buyers keep detail and
 *   downloads; account deletion archives the owner's published collections;
 * - details are public for Published collections, visible in any status to the owner and to paid
 *   buyers, and NOT_FOUND for everyone else;
 * - downloads are for the owner and paid buyers only (others FORBIDDEN), through a short-lived
 *   presigned GET served as an attachment.
 *
 * Prices are whole points; `earned` is stored in minor units and answered in points.
 *
 * The public reads (a collection with its seller and files, market pages) are served from a 2 s
 * in-process cache that every write here empties (read-cache.ts: the staleness bound).
 */
import {
  CollectionStatus,
  DOWNLOAD_URL_TTL_SECONDS,
  minorToPoints,
  type Collection,
  type CollectionCreateRequest,
  type CollectionStatus as Status,
  type MarketCollectionsRequest,
  type PublicUser,
  type Resource,
} from '@coffer/contract';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toPage } from '../../lib/page';
import type { StorageProvider } from '../../providers/storage/index';
import type { ImagesService } from '../uploads/images.service';
import type { UploadsService } from '../uploads/uploads.service';
import { toResource } from '../uploads/uploads.service';
import * as repo from './collections.repository';
import { createReadCache } from '../../lib/read-cache';

/** What the collections service asks of the orders module (services.ts builds it from the orders repository). */
export interface PurchaseLookup {
  /** True when `userId` has a paid order for the collection. */
  hasPaid(userId: string, collectionId: string): Promise<boolean>;
  /**
   * Counts `files` downloads on the user's paid order of the collection (product §24: they decide a
   * refund request). @returns false when there is no paid order (the download is refused)
   */
  countDownloads(userId: string, collectionId: string, files: number): Promise<boolean>;
}

export interface CollectionsDeps {
  db: Db;
  clock: Clock;
  storage: StorageProvider;
  uploads: UploadsService;
  images: ImagesService;
  /** Stored avatar value -> URL (as the account service answers it). */
  avatarUrl: (stored: string) => string;
  /** Paid purchases: answers `purchased` on details and the buyers' download rights. */
  purchases: PurchaseLookup;
}

const EDITABLE: Status[] = [CollectionStatus.Created, CollectionStatus.Draft];
const PUBLISHABLE: Status[] = [CollectionStatus.Created, CollectionStatus.Draft];

export function createCollectionsService(deps: CollectionsDeps) {
  const { db, clock, storage, uploads, images, purchases } = deps;
  // Public reads, emptied by every write below (read-cache.ts states the staleness bound).
  const detailReads = createReadCache<{ row: repo.CollectionWithSeller; resources: Resource[] } | null>();
  const marketReads = createReadCache<Awaited<ReturnType<typeof repo.pageMarket>>>();
  const wrote = () => {
    detailReads.clear();
    marketReads.clear();
  };

  function toSeller(s: repo.SellerColumns): PublicUser {
    return {
      id: s.id,
      username: s.username,
      nickname: s.nickname,
      avatar: s.avatar ? deps.avatarUrl(s.avatar) : '',
      created_at: s.createdAt.getTime(),
    };
  }

  /** The wire shape of a collection (product §3). */
  function toCollection(c: repo.CollectionRow, seller?: repo.SellerColumns): Collection {
    return {
      id: c.id,
      title: c.title,
      desc: c.desc,
      ...(c.bannerImageId ? { banner: images.url(c.bannerImageId) } : {}),
      amount: c.price,
      sold_count: c.soldCount,
      earned: Number(minorToPoints(c.earned)),
      status: c.status as Status,
      created_at: c.createdAt.getTime(),
      owner_id: c.ownerId,
      resource_count: c.resourceCount,
      ...(seller ? { seller: toSeller(seller) } : {}),
    };
  }

  /** The caller's collection. @throws NOT_FOUND when missing, FORBIDDEN when another user's */
  async function owned(ownerId: string, collectionId: string, tx?: Tx): Promise<repo.CollectionRow> {
    const c = await repo.findCollection(tx ?? db, collectionId);
    if (!c) throw errors.notFound('The collection does not exist');
    if (c.ownerId !== ownerId) throw errors.forbidden();
    return c;
  }

  /** Whether `viewerId` may see the collection: published, owner, or paid buyer. */
  async function visible(c: repo.CollectionRow, viewerId: string | null): Promise<{ ok: boolean; purchased: boolean }> {
    const purchased = viewerId && viewerId !== c.ownerId ? await purchases.hasPaid(viewerId, c.id) : false;
    const ok = c.status === CollectionStatus.Published || viewerId === c.ownerId || purchased;
    return { ok, purchased };
  }

  const pageArgs = (p: { page: number; size: number }) => ({ offset: p.page * p.size, limit: p.size });

  return {
    toCollection,

    /**
     * Creates a collection (status Created).
     * @param input title (1-100), desc (<= 2000), amount (whole points), banner? (value of create/banner/url)
     * @throws VALIDATION_FAILED when the banner is not the caller's checked PNG/JPEG/WebP/GIF upload
     */
    async create(ownerId: string, input: CollectionCreateRequest): Promise<Collection> {
      const bannerImageId = input.banner ? await images.claim(ownerId, input.banner) : null;
      const row = await repo.insertCollection(db, {
        id: newId(),
        ownerId,
        title: input.title,
        desc: input.desc,
        price: input.amount,
        bannerImageId,
        status: CollectionStatus.Created,
        createdAt: new Date(clock.now()),
      });
      wrote();
      return toCollection(row);
    },

    /**
     * Attaches a completed upload's resource to the caller's collection.
     * @throws NOT_FOUND, FORBIDDEN (another user's collection or resource), CONFLICT (deleted/archived
     * collection, or the file belongs to another collection)
     */
    async addResource(ownerId: string, collectionId: string, resourceId: string) {
      const out = await db.transaction(async (tx) => {
        const c = await owned(ownerId, collectionId, tx);
        if (c.status === CollectionStatus.Deleted || c.status === CollectionStatus.Archived) {
          throw errors.conflict('Files cannot be added to a deleted or archived collection');
        }
        const r = await uploads.findResource(resourceId, tx);
        if (!r) throw errors.notFound('The file does not exist');
        if (r.ownerId !== ownerId) throw errors.forbidden();
        if (r.collectionId === collectionId) return toResource(r);
        if (r.collectionId || !(await uploads.attachResource(resourceId, collectionId, tx))) {
          throw errors.conflict('This file already belongs to another collection');
        }
        await repo.incrementResourceCount(tx, collectionId);
        return toResource({ ...r, collectionId });
      });
      wrote();
      return out;
    },

    /**
     * Publishes the caller's collection (Created/Draft -> Published); publishing a published one answers it unchanged.
     * @throws NOT_FOUND, FORBIDDEN, VALIDATION_FAILED (no title or no file), CONFLICT (archived/deleted)
     */
    async publish(ownerId: string, collectionId: string): Promise<Collection> {
      const c = await owned(ownerId, collectionId);
      if (c.status === CollectionStatus.Published) return toCollection(c);
      if (!PUBLISHABLE.includes(c.status as Status))
        throw errors.conflict(`A ${c.status.toLowerCase()} collection cannot be published`);
      if (!c.title.trim()) throw errors.validation('Give the collection a title before publishing');
      if (c.resourceCount < 1) throw errors.validation('Add at least one file before publishing');
      const row = await repo.moveStatus(db, c.id, PUBLISHABLE, CollectionStatus.Published, {
        publishedAt: new Date(clock.now()),
      });
      wrote();
      if (!row) throw errors.conflict('The collection changed meanwhile; reload and try again');
      return toCollection(row);
    },

    /** Soft-deletes the caller's collection (repeating is harmless). @throws NOT_FOUND, FORBIDDEN */
    async remove(ownerId: string, collectionId: string): Promise<Record<string, never>> {
      const c = await owned(ownerId, collectionId);
      if (c.status !== CollectionStatus.Deleted) {
        await repo.moveStatus(
          db,
          c.id,
          [c.status, ...EDITABLE, CollectionStatus.Published, CollectionStatus.Archived],
          CollectionStatus.Deleted,
          {
            deletedAt: new Date(clock.now()),
          },
        );
        wrote();
      }
      return {};
    },

    /** The caller's collections (all but Deleted), newest first, as a page (product §3 Pagination). */
    async mine(ownerId: string, paginator: { page: number; size: number }) {
      const { offset, limit } = pageArgs(paginator);
      const { rows, count } = await repo.pageOfOwner(db, ownerId, offset, limit);
      return toPage(
        'collections',
        rows.map((r) => toCollection(r.c, r.seller)),
        paginator,
        count,
      );
    },

    /**
     * A collection with its resources (no download URLs), seller and `purchased`.
     * @throws NOT_FOUND unless published, the caller's own, or bought by the caller
     */
    async detail(viewerId: string | null, collectionId: string) {
      const read = await detailReads.get(collectionId, async () => {
        const found = await repo.findWithSeller(db, collectionId);
        return found ? { row: found, resources: await uploads.resourcesOf(found.c.id) } : null;
      });
      if (!read) throw errors.notFound('The collection does not exist');
      const { row, resources } = read;
      const { ok, purchased } = await visible(row.c, viewerId);
      if (!ok) throw errors.notFound('The collection does not exist');
      return {
        collection: toCollection(row.c, row.seller),
        resources,
        seller: toSeller(row.seller),
        purchased,
      };
    },

    /** A resource with its collection and `purchased`, visible like its collection. @throws NOT_FOUND */
    async resourceDetail(viewerId: string | null, resourceId: string) {
      const r = await uploads.findResource(resourceId);
      if (!r || !r.collectionId) {
        if (r && r.ownerId === viewerId) throw errors.notFound('The file is not in a collection yet');
        throw errors.notFound('The file does not exist');
      }
      const row = await repo.findWithSeller(db, r.collectionId);
      if (!row) throw errors.notFound('The file does not exist');
      const { ok, purchased } = await visible(row.c, viewerId);
      if (!ok) throw errors.notFound('The file does not exist');
      return { resource: toResource(r), collection: toCollection(row.c, row.seller), purchased };
    },

    /** Published collections for the home page: search in title/desc, sort, page (product §3 Pagination). */
    async market(input: MarketCollectionsRequest) {
      const query = { q: input.q || undefined, sort: input.sort, ...pageArgs(input.paginator) };
      const { rows, count } = await marketReads.get(JSON.stringify([query.q, query.sort, query.offset, query.limit]), () =>
        repo.pageMarket(db, query),
      );
      return toPage(
        'collections',
        rows.map((r) => toCollection(r.c, r.seller)),
        input.paginator,
        count,
      );
    },

    /** A user's published collections (public profile), as a page (product §3 Pagination). */
    async ofUser(userId: string, paginator: { page: number; size: number }) {
      const { offset, limit } = pageArgs(paginator);
      const { rows, count } = await repo.pagePublishedOf(db, userId, offset, limit);
      return toPage(
        'collections',
        rows.map((r) => toCollection(r.c, r.seller)),
        paginator,
        count,
      );
    },

    /** Collections by id (purchased list), in the given order. */
    async byIds(ids: string[]): Promise<Collection[]> {
      return (await repo.findManyWithSeller(db, ids)).map((r) => toCollection(r.c, r.seller));
    },

    /**
     * A short-lived download URL of one resource of a collection.
     * @returns url (presigned GET, attachment with the original file name) and expires_at (ms)
     * A buyer's link counts as one download on their order (product §24).
     * @throws NOT_FOUND (no such collection/resource pair), FORBIDDEN (neither owner nor paid buyer)
     */
    async downloadUrl(viewerId: string, collectionId: string, resourceId: string) {
      const c = await repo.findCollection(db, collectionId);
      const r = await uploads.findResource(resourceId);
      if (!c || !r || r.collectionId !== c.id) throw errors.notFound('The file does not exist');
      if (c.ownerId !== viewerId && !(await purchases.countDownloads(viewerId, c.id, 1))) {
        throw errors.forbidden('Buy this collection to download its files.');
      }
      const get = await storage.presignGet(r.storageKey, {
        fileName: r.name,
        contentType: r.contentType,
        expiresInSec: DOWNLOAD_URL_TTL_SECONDS,
      });
      return { url: get.url, expires_at: get.expiresAt };
    },

    /** For the orders module: the collection row inside its transaction, or null. */
    find(collectionId: string, tx?: Tx) {
      return repo.findCollection(tx ?? db, collectionId);
    },

    /** For the orders module: one more sale (sold_count + 1, earned + `earnedMinor`) in its transaction. */
    recordSale(collectionId: string, earnedMinor: bigint, tx: Tx) {
      wrote();
      return repo.recordSale(tx, collectionId, earnedMinor);
    },

    /** For the orders module: many sales at once (per collection: count and earned minor units), in its transaction. */
    recordSales(sales: { id: string; count: number; earned: bigint }[], tx: Tx) {
      return repo.recordSales(tx, sales);
    },

    /** Account deletion hook: archives the user's published collections in the deleting transaction. */
    archivePublishedOf(ownerId: string, tx: Tx) {
      wrote();
      return repo.archivePublishedOf(tx, ownerId);
    },
  };
}

export type CollectionsService = ReturnType<typeof createCollectionsService>;

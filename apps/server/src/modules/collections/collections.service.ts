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
 * - catalogue edits (product §24): `collection/update` (title, desc, price, banner; orders keep
 *   their price), `collection/unpublish` (Published -> Draft, buyers keep access), files removed
 *   (kept for those who bought before), replaced by a new version (old bytes kept), marked as free
 *   previews; each file added, replaced or removed is a row of the buyers' `my/library/changes`
 *   feed (ADR 0026) and a mail to the buyers who accept update mails.
 *
 * - takedowns (product §27, modules/moderation): a hidden collection leaves the market, search and
 *   the seller's public page, and its details and files are for its owner and paid buyers only;
 *   `files_removed` refuses every download (the stored bytes are kept). The owner's views carry
 *   `moderation` (the notice). A suspended seller's collections leave the market too.
 *
 * Prices are whole points; `earned` is stored in minor units and answered in points.
 *
 * The public reads (a collection with its seller and files, market pages) are served from a 2 s
 * in-process cache that every write here empties (read-cache.ts: the staleness bound), review
 * changes included (`applyRating` in the review's transaction, `readsChanged` after its COMMIT).
 *
 * Reviews (product §29): `rating_sum` and `rating_count` are kept on the row by the reviews module
 * through `applyRating`; the market's `rating` sort orders by their ratio.
 */
import {
  CollectionStatus,
  OrderStatus,
  DOWNLOAD_URL_TTL_SECONDS,
  LIBRARY_CHANGES_PAGE,
  REFUND_WINDOW_DAYS,
  minorToPoints,
  type Collection,
  type CollectionCreateRequest,
  type CollectionUpdateRequest,
  type LibraryChange,
  type LibraryChangeKind,
  type MyLibraryChangesData,
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
import type { MailQueue } from '../mail/mail-queue.service';
import type { StorageProvider } from '../../providers/storage/index';
import type { ImagesService } from '../uploads/images.service';
import type { UploadsService } from '../uploads/uploads.service';
import { toResource, type ResourceRow } from '../uploads/uploads.service';
import * as repo from './collections.repository';
import { createReadCache } from '../../lib/read-cache';
import { quoted } from '../mail/mail-text';
import { toPublicUser } from '../account/public-user';

/** What the collections service asks of the orders module (orders.service.ts builds it; services.ts hands it over). */
export interface PurchaseLookup {
  /** True when `userId` has a paid order for the collection. */
  hasPaid(userId: string, collectionId: string): Promise<boolean>;
  /** The status of `userId`'s order for the collection (OrderStatus), or null without one. */
  orderStatus(userId: string, collectionId: string): Promise<string | null>;
  /**
   * `userId`'s paid order of the collection, or null: when it was paid (removed files stay theirs if
   * removed later) and the downloads counted on it (the automatic refund, product §25).
   */
  paidOrder(userId: string, collectionId: string): Promise<{ paidAt: Date; downloads: number } | null>;
  /** The paid buyers of a collection who accept update mails (product §24), read in `tx` when given. */
  buyersToMail(collectionId: string, tx?: Tx): Promise<{ id: string; email: string }[]>;
  /**
   * Counts `files` downloads on the user's paid order of the collection (product §25: they decide a
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
  /** Update mails to buyers (product §24), queued with each change; none are sent when absent. */
  mailQueue?: MailQueue;
  /** Origin of the links in mails, e.g. `https://coffer.example`. */
  publicUrl?: string;
}

/** The opaque cursor of `my/library/changes`: base64url("v1:<seq>"). */
const encodeCursor = (seq: bigint): string => Buffer.from(`v1:${seq}`).toString('base64url');
function decodeCursor(cursor: string | undefined): bigint {
  if (!cursor) return 0n;
  const m = /^v1:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw errors.validation('Invalid cursor');
  return BigInt(m[1]!);
}

const CHANGE_VERBS: Record<LibraryChangeKind, string> = { added: 'added to', updated: 'updated in', removed: 'removed from' };

const EDITABLE: Status[] = [CollectionStatus.Created, CollectionStatus.Draft];
const PUBLISHABLE: Status[] = [CollectionStatus.Created, CollectionStatus.Draft];

export function createCollectionsService(deps: CollectionsDeps) {
  const { db, clock, storage, uploads, images, purchases } = deps;
  // Public reads, emptied by every write below (read-cache.ts states the staleness bound).
  // They read the app's clock, so tests drive the staleness bound by moving it.
  const now = () => clock.now();
  const detailReads = createReadCache<{ row: repo.CollectionWithSeller; resources: ResourceRow[] } | null>({ now });
  const marketReads = createReadCache<Awaited<ReturnType<typeof repo.pageMarket>>>({ now });
  const wrote = () => {
    detailReads.clear();
    marketReads.clear();
  };
  /**
   * Answers built once per cached read and shared by every caller it is the same for (a visitor's
   * `collection/detail`, any `market/collections` page): keyed by the cached read itself, so an
   * answer lives exactly as long as the entry it was built from and keeps read-cache.ts's staleness
   * bound (ADR 0071). A failed build is not kept.
   */
  const shared = new WeakMap<object, Promise<unknown>>();
  function sharedAnswer<A>(read: object, build: () => Promise<A>): Promise<A> {
    let answer = shared.get(read) as Promise<A> | undefined;
    if (!answer) {
      answer = build();
      shared.set(read, answer);
      answer.catch(() => {
        if (shared.get(read) === answer) shared.delete(read);
      });
    }
    return answer;
  }

  /** The cached read of one collection (row, seller, files), or null when it does not exist. */
  function detailRead(collectionId: string) {
    return detailReads.get(collectionId, async () => {
      const found = await repo.findWithSeller(db, collectionId);
      return found ? { row: found, resources: await uploads.resourceRowsOf(found.c.id) } : null;
    });
  }

  /** `collection/detail` for `viewerId` (null: a visitor) from a cached read. @throws NOT_FOUND */
  async function detailOf(read: Awaited<ReturnType<typeof detailRead>>, viewerId: string | null) {
    if (!read) throw errors.notFound('The collection does not exist');
    const { row } = read;
    const { ok, purchased, refunded } = await visible(row.c, viewerId);
    if (!ok) throw errors.notFound('The collection does not exist');
    // Every visitor sees the live files; a buyer also the ones removed after they paid (product §24).
    const asks = read.resources.some((r) => r.removedAt || (r.thumbnailKey && !r.preview));
    const order = purchased && asks ? await purchases.paidOrder(viewerId!, row.c.id) : null;
    const paid = order?.paidAt;
    const shown = read.resources.filter((r) => !r.removedAt || (paid && r.removedAt > paid));
    const thumbnails = viewerId === row.c.ownerId || pastAutomaticRefund(order);
    return {
      collection: viewerId === row.c.ownerId ? forOwner(row.c, row.seller) : toCollection(row.c, row.seller),
      resources: await Promise.all(shown.map((r) => toView(r, thumbnails))),
      seller: toSeller(row.seller),
      purchased,
      refunded,
    };
  }

  /** The cached read of one market page. */
  function marketRead(input: MarketCollectionsRequest) {
    const query = { q: input.q || undefined, sort: input.sort, ...pageArgs(input.paginator) };
    return marketReads.get(JSON.stringify([query.q, query.sort, query.offset, query.limit]), () => repo.pageMarket(db, query));
  }

  /** `market/collections`'s page from a cached read (product §3 Pagination). */
  function marketPage({ rows, count }: Awaited<ReturnType<typeof repo.pageMarket>>, input: MarketCollectionsRequest) {
    return toPage(
      'collections',
      rows.map((r) => toCollection(r.c, r.seller)),
      input.paginator,
      count,
    );
  }

  function toSeller(s: repo.SellerColumns): PublicUser {
    return toPublicUser(s, deps.avatarUrl);
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
      rating_sum: c.ratingSum,
      rating_count: c.ratingCount,
      ...(seller ? { seller: toSeller(seller) } : {}),
    };
  }

  /** `c` as its owner sees it: with the takedown notice while hidden (product §27). */
  function forOwner(c: repo.CollectionRow, seller?: repo.SellerColumns): Collection {
    const out = toCollection(c, seller);
    if (c.hiddenAt) {
      out.moderation = {
        hidden: true,
        reason: c.hiddenReason ?? '',
        files_removed: c.filesRemoved,
        hidden_at: c.hiddenAt.getTime(),
      };
    }
    return out;
  }

  /**
   * Refuses every download of a collection taken down with its files (product §27). CONFLICT (409),
   * not FORBIDDEN: the web shows a 403 as the generic permission text, and this one must be read.
   * @throws CONFLICT
   */
  function refuseRemovedFiles(c: repo.CollectionRow): void {
    if (c.filesRemoved) {
      throw errors.conflict('Coffer took this collection down and its files can no longer be downloaded.');
    }
  }

  /** The caller's collection. @throws NOT_FOUND when missing, FORBIDDEN when another user's */
  async function owned(ownerId: string, collectionId: string, tx?: Tx): Promise<repo.CollectionRow> {
    const c = await repo.findCollection(tx ?? db, collectionId);
    if (!c) throw errors.notFound('The collection does not exist');
    if (c.ownerId !== ownerId) throw errors.forbidden();
    return c;
  }

  /** Whether `viewerId` may see the collection: published, owner, or paid buyer. */
  /**
   * Whether `viewerId` may see `c`, whether they bought it (a paid order) and whether their order was
   * refunded (they cannot buy it again, product.md §25.1): one read of their order, by its unique index.
   */
  async function visible(c: repo.CollectionRow, viewerId: string | null): Promise<{ ok: boolean; purchased: boolean; refunded: boolean }> {
    const status = viewerId && viewerId !== c.ownerId ? await purchases.orderStatus(viewerId, c.id) : null;
    const purchased = status === OrderStatus.Paid;
    const ok = (c.status === CollectionStatus.Published && !c.hiddenAt) || viewerId === c.ownerId || purchased;
    return { ok, purchased, refunded: status === OrderStatus.Refunded };
  }

  const pageArgs = (p: { page: number; size: number }) => ({ offset: p.page * p.size, limit: p.size });

  /**
   * Whether a buyer's paid order is past the automatic refund (product §25: a file was downloaded
   * under it, or REFUND_WINDOW_DAYS passed since payment). Until then the buyer sees no thumbnail of a
   * non-preview file: a 320 px image of an image is often the goods themselves (an icon is whole), and
   * seeing them must not leave the refund automatic (docs/decisions/0049-thumbnails-and-the-automatic-refund.md).
   */
  function pastAutomaticRefund(order: { paidAt: Date; downloads: number } | null): boolean {
    return order !== null && (order.downloads > 0 || clock.now() - order.paidAt.getTime() > REFUND_WINDOW_DAYS * 86_400_000);
  }

  /**
   * A file as `viewer` sees it: `removed` on kept files; a thumbnail URL for previews (anyone) and,
   * when `thumbnails` is true (the owner, a buyer past the automatic refund), for every file.
   */
  async function toView(r: ResourceRow, thumbnails: boolean): Promise<Resource> {
    const out: Resource = toResource(r);
    if (r.thumbnailKey && (thumbnails || r.preview)) {
      const get = await storage.presignGet(r.thumbnailKey, {
        fileName: `${r.name}.webp`,
        contentType: 'image/webp',
        expiresInSec: DOWNLOAD_URL_TTL_SECONDS,
      });
      out.thumbnail_url = get.url;
    }
    if (r.removedAt) out.removed = true;
    return out;
  }

  /** The locked collection of the caller, editable (not Deleted/Archived). @throws NOT_FOUND, FORBIDDEN, CONFLICT */
  async function editable(ownerId: string, collectionId: string, tx: Tx): Promise<repo.CollectionRow> {
    const c = await repo.lockCollection(tx, collectionId);
    if (!c) throw errors.notFound('The collection does not exist');
    if (c.ownerId !== ownerId) throw errors.forbidden();
    if (c.status === CollectionStatus.Deleted || c.status === CollectionStatus.Archived) {
      throw errors.conflict(`A ${c.status.toLowerCase()} collection cannot be changed`);
    }
    return c;
  }

  /** A live (not removed) file of the collection, locked. @throws NOT_FOUND */
  async function liveFile(c: repo.CollectionRow, resourceId: string, tx: Tx): Promise<ResourceRow> {
    const r = await uploads.lockResource(resourceId, tx);
    if (!r || r.collectionId !== c.id || r.removedAt) throw errors.notFound('The file does not exist');
    return r;
  }

  /**
   * Writes the library change of a file in `tx` (ADR 0026) and queues its update mail to every
   * buyer who accepts them (product §24; docs/decisions/0032-mail-queue.md).
   * @returns the ids of the queued mails: pass them to {@link sendMails} after COMMIT
   */
  async function recordChange(tx: Tx, c: repo.CollectionRow, r: ResourceRow, kind: LibraryChangeKind): Promise<string[]> {
    const change = await repo.appendChange(tx, {
      collectionId: c.id,
      resourceId: r.id,
      version: r.version,
      kind,
      name: r.name,
      at: new Date(clock.now()),
    });
    if (!deps.mailQueue) return [];
    const link = `${deps.publicUrl ?? ''}/collection/${c.id}`;
    const buyers = await purchases.buyersToMail(c.id, tx);
    return deps.mailQueue.enqueue(
      tx,
      buyers.map((buyer) => ({
        key: `library-change:${change.seq}:${buyer.id}`,
        to: buyer.email,
        subject: `Updated: ${quoted(c.title)}`,
        text:
          `${quoted(r.name)} was ${CHANGE_VERBS[kind]} ${quoted(c.title)}, a collection you bought.\n\n` +
          `Open it: ${link}\n\n` +
          `You get these mails because you bought this collection. To stop them, turn off ` +
          `"Update mails" in Your Profile: ${deps.publicUrl ?? ''}/profile\n`,
      })),
    );
  }

  /** Sends the update mails of a committed change (in the background; the `mail` worker retries failures). */
  function sendMails(ids: string[]): void {
    deps.mailQueue?.sendNow(ids);
  }

  return {
    toCollection,
    refuseRemovedFiles,

    /**
     * For the moderation module: sets or clears the takedown of a collection in `tx` (product §27)
     * and empties the public read caches. @returns the updated row, or null when it does not exist
     */
    async setTakedown(
      collectionId: string,
      takedown: { at: Date; reason: string; filesRemoved: boolean } | null,
      tx: Tx,
    ): Promise<repo.CollectionRow | null> {
      const row = await repo.setTakedown(tx, collectionId, takedown);
      wrote();
      return row;
    },

    /** For the moderation module: the collection row locked in `tx`, or null. */
    lock(collectionId: string, tx: Tx) {
      return repo.lockCollection(tx, collectionId);
    },

    /** For the moderation module: empties the public read caches (a seller suspended or restored). */
    forget(): void {
      wrote();
    },

    /**
     * Creates a collection: status Created, or Draft when `input.draft` ('Save as draft').
     * @param input title (1-100), desc (<= 2000), amount (whole points), banner? (value of create/banner/url), draft?
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
        status: input.draft ? CollectionStatus.Draft : CollectionStatus.Created,
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
        // The collection row first, like every catalogue edit (ADR 0026, lock order).
        const c = await repo.lockCollection(tx, collectionId);
        if (!c) throw errors.notFound('The collection does not exist');
        if (c.ownerId !== ownerId) throw errors.forbidden();
        if (c.status === CollectionStatus.Deleted || c.status === CollectionStatus.Archived) {
          throw errors.conflict('Files cannot be added to a deleted or archived collection');
        }
        const r = await uploads.findResource(resourceId, tx);
        if (!r) throw errors.notFound('The file does not exist');
        if (r.ownerId !== ownerId) throw errors.forbidden();
        if (r.collectionId === collectionId && !r.removedAt) return { row: r, added: false, mails: [] };
        if (r.collectionId === collectionId) {
          // A removed file added again (product §24): visible again, one more file.
          const back = (await uploads.patchResource(r.id, { removedAt: null }, tx))!;
          await repo.incrementResourceCount(tx, collectionId);
          const mails = await recordChange(tx, c, back, 'added');
          return { row: back, added: true, mails };
        }
        if (r.collectionId || r.mergedInto || !(await uploads.attachResource(resourceId, collectionId, tx))) {
          throw errors.conflict('This file already belongs to another collection');
        }
        await repo.incrementResourceCount(tx, collectionId);
        const mails = await recordChange(tx, c, r, 'added');
        return { row: { ...r, collectionId }, added: true, mails };
      });
      sendMails(out.mails);
      if (out.added && !out.row.thumbnailKey) out.row.thumbnailKey = await uploads.makeThumbnail(out.row);
      wrote();
      return toResource(out.row);
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

    /**
     * Changes title, desc, amount (whole points) or banner of the caller's collection (product §24);
     * absent fields stay. Orders already created keep the price they were created with.
     * @throws NOT_FOUND, FORBIDDEN (another user's), CONFLICT (deleted/archived), VALIDATION_FAILED (banner)
     */
    async update(ownerId: string, input: CollectionUpdateRequest): Promise<Collection> {
      const bannerImageId = input.banner ? await images.claim(ownerId, input.banner) : undefined;
      const row = await db.transaction(async (tx) => {
        const c = await editable(ownerId, input.collection_id, tx);
        return repo.patchCollection(tx, c.id, {
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.desc !== undefined ? { desc: input.desc } : {}),
          ...(input.amount !== undefined ? { price: input.amount } : {}),
          ...(bannerImageId !== undefined ? { bannerImageId } : {}),
        });
      });
      wrote();
      return toCollection(row!);
    },

    /**
     * Published -> Draft (product §24): hidden from the storefront and not for sale; buyers keep
     * detail and downloads; `collection/publish` publishes it again. A Draft answers unchanged.
     * @throws NOT_FOUND, FORBIDDEN, CONFLICT (not published)
     */
    async unpublish(ownerId: string, collectionId: string): Promise<Collection> {
      const c = await owned(ownerId, collectionId);
      if (c.status === CollectionStatus.Draft) return toCollection(c);
      if (c.status !== CollectionStatus.Published) throw errors.conflict('Only a published collection can be unpublished');
      const row = await repo.moveStatus(db, c.id, [CollectionStatus.Published], CollectionStatus.Draft);
      wrote();
      if (!row) throw errors.conflict('The collection changed meanwhile; reload and try again');
      return toCollection(row);
    },

    /**
     * Removes a file (product §24): hidden from the storefront and new buyers; buyers who paid before
     * keep it. Removing a removed file is harmless. A published collection keeps at least one file.
     * @throws NOT_FOUND (collection or file), FORBIDDEN, CONFLICT (deleted/archived, last file of a published collection)
     */
    async removeResource(ownerId: string, collectionId: string, resourceId: string): Promise<Record<string, never>> {
      const out = await db.transaction(async (tx) => {
        const c = await editable(ownerId, collectionId, tx);
        const r = await uploads.lockResource(resourceId, tx);
        if (!r || r.collectionId !== c.id) throw errors.notFound('The file does not exist');
        if (r.removedAt) return null;
        if (c.status === CollectionStatus.Published && c.resourceCount <= 1) {
          throw errors.conflict('A published collection needs at least one file. Add another file or unpublish it first.');
        }
        await uploads.patchResource(r.id, { removedAt: new Date(clock.now()) }, tx);
        await repo.incrementResourceCount(tx, c.id, -1);
        return { mails: await recordChange(tx, c, r, 'removed') };
      });
      wrote();
      if (out) sendMails(out.mails);
      return {};
    },

    /**
     * Makes the caller's completed upload `newResourceId` (not attached to any collection) version
     * n + 1 of the file `resourceId` (product §24). The file keeps its id; buyers download the new
     * version; the old bytes are kept (resource_versions).
     * @returns the file at its new version
     * @throws NOT_FOUND (collection, file or upload), FORBIDDEN (another user's collection or upload),
     * VALIDATION_FAILED (the same file), CONFLICT (deleted/archived, or the upload is in a collection already)
     */
    async replaceResource(ownerId: string, collectionId: string, resourceId: string, newResourceId: string): Promise<Resource> {
      const out = await db.transaction(async (tx) => {
        const c = await editable(ownerId, collectionId, tx);
        const r = await liveFile(c, resourceId, tx);
        if (newResourceId === r.id) throw errors.validation('Upload a new file to replace this one');
        const next = await uploads.lockResource(newResourceId, tx);
        if (!next) throw errors.notFound('The new file does not exist');
        if (next.ownerId !== ownerId) throw errors.forbidden();
        if (next.collectionId || next.mergedInto) throw errors.conflict('The new file already belongs to a collection');
        const updated = await uploads.replaceVersion(r, next, tx);
        if (!updated) throw errors.conflict('The new file already belongs to a collection');
        return { updated, mails: await recordChange(tx, c, updated, 'updated') };
      });
      out.updated.thumbnailKey = await uploads.makeThumbnail(out.updated);
      wrote();
      sendMails(out.mails);
      return toView(out.updated, true);
    },

    /**
     * Marks a file as a free preview, or not (product §24): anyone may then download it through
     * `resource/preview/url`. @throws NOT_FOUND, FORBIDDEN, CONFLICT (deleted/archived)
     */
    async setPreview(ownerId: string, collectionId: string, resourceId: string, preview: boolean): Promise<Resource> {
      const row = await db.transaction(async (tx) => {
        const c = await editable(ownerId, collectionId, tx);
        const r = await liveFile(c, resourceId, tx);
        return (await uploads.patchResource(r.id, { preview }, tx))!;
      });
      if (preview && !row.thumbnailKey) row.thumbnailKey = await uploads.makeThumbnail(row);
      wrote();
      return toView(row, true);
    },

    /**
     * The files added, updated or removed in collections the caller bought, after `cursor` (from the
     * start when absent), oldest first, at most LIBRARY_CHANGES_PAGE (ADR 0026: `seq` commits in order,
     * so nothing is skipped or repeated). The cursor comes back unchanged when nothing is new.
     * @throws VALIDATION_FAILED (a cursor this call did not answer)
     */
    async libraryChanges(buyerId: string, cursor: string | undefined): Promise<MyLibraryChangesData> {
      const after = decodeCursor(cursor);
      const rows = await repo.changesForBuyer(db, buyerId, after, LIBRARY_CHANGES_PAGE + 1);
      const page = rows.slice(0, LIBRARY_CHANGES_PAGE);
      const changes: LibraryChange[] = page.map((r) => ({
        collection_id: r.collectionId,
        resource_id: r.resourceId,
        version: r.version,
        kind: r.kind as LibraryChangeKind,
        name: r.name,
        at: r.at.getTime(),
      }));
      const last = page.at(-1);
      return {
        changes,
        cursor: last ? encodeCursor(last.seq) : (cursor ?? encodeCursor(0n)),
        has_more: rows.length > page.length,
      };
    },

    /**
     * A short-lived download URL of a free preview file (product §24), for anyone who may see the
     * collection (published; or the owner's, or bought). @returns url (presigned GET) and expires_at (ms)
     * @throws NOT_FOUND (no such visible collection/file), FORBIDDEN (not a preview)
     */
    async previewUrl(viewerId: string | null, collectionId: string, resourceId: string) {
      const c = await repo.findCollection(db, collectionId);
      const r = await uploads.findResource(resourceId);
      if (!c || !r || r.collectionId !== c.id || r.removedAt) throw errors.notFound('The file does not exist');
      if (!(await visible(c, viewerId)).ok) throw errors.notFound('The file does not exist');
      if (!r.preview) throw errors.forbidden('This file is not a free preview. Buy this collection to download it.');
      refuseRemovedFiles(c);
      const get = await storage.presignGet(r.storageKey, {
        fileName: r.name,
        contentType: r.contentType,
        expiresInSec: DOWNLOAD_URL_TTL_SECONDS,
      });
      return { url: get.url, expires_at: get.expiresAt };
    },

    /** Resolves once every update mail this instance started sending was sent or handed to the retries. */
    async mailSettled(): Promise<void> {
      await deps.mailQueue?.settled();
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
        rows.map((r) => forOwner(r.c, r.seller)),
        paginator,
        count,
      );
    },

    /**
     * A collection with its resources (no download URLs), seller and `purchased`.
     * @throws NOT_FOUND unless published, the caller's own, or bought by the caller
     */
    async detail(viewerId: string | null, collectionId: string) {
      const read = await detailRead(collectionId);
      return detailOf(read, viewerId);
    },

    /**
     * A visitor's (signed-out) `collection/detail`, as `encode` makes it: built and encoded once per
     * cached read of the collection and shared by every visitor until that read expires or a write
     * empties it (so its thumbnail URLs are at most PUBLIC_READ_CACHE_TTL_MS old: they are valid for
     * DOWNLOAD_URL_TTL_SECONDS). @throws NOT_FOUND as `detail` does
     */
    async visitorDetail<A>(collectionId: string, encode: (data: Awaited<ReturnType<typeof detailOf>>) => A): Promise<A> {
      const read = await detailRead(collectionId);
      if (!read) throw errors.notFound('The collection does not exist');
      return sharedAnswer(read, async () => encode(await detailOf(read, null)));
    },

    /**
     * `market/collections` as `encode` makes it, built and encoded once per cached page read and
     * shared by every caller (the page does not depend on who asks).
     */
    async marketAnswer<A>(input: MarketCollectionsRequest, encode: (data: ReturnType<typeof marketPage>) => A): Promise<A> {
      const read = await marketRead(input);
      return sharedAnswer(read, async () => encode(marketPage(read, input)));
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
      const owner = viewerId === row.c.ownerId;
      const order = purchased && !owner && (r.removedAt || (r.thumbnailKey && !r.preview)) ? await purchases.paidOrder(viewerId!, row.c.id) : null;
      if (r.removedAt && !owner) {
        if (!order || r.removedAt <= order.paidAt) throw errors.notFound('The file does not exist');
      }
      return {
        resource: await toView(r, owner || pastAutomaticRefund(order)),
        collection: toCollection(row.c, row.seller),
        purchased,
      };
    },

    /** Published collections for the home page: search in title/desc, sort, page (product §3 Pagination). */
    async market(input: MarketCollectionsRequest) {
      return marketPage(await marketRead(input), input);
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

    /**
     * A seller's rating over every collection they own, unpublished, deleted and taken-down ones
     * included (the creator page, product §29): `sum` whole stars and `count` counted reviews
     * (refunded ones left out).
     */
    ratingTotalsOf(ownerId: string): Promise<{ sum: number; count: number }> {
      return repo.ratingTotalsOf(db, ownerId);
    },

    /** Collections by id (purchased list), in the given order. */
    async byIds(ids: string[]): Promise<Collection[]> {
      return (await repo.findManyWithSeller(db, ids)).map((r) => toCollection(r.c, r.seller));
    },

    /**
     * A short-lived download URL of one resource of a collection.
     * @returns url (presigned GET, attachment with the original file name) and expires_at (ms)
     * A buyer's link counts as one download on their order (product §25).
     * @throws NOT_FOUND (no such collection/resource pair), FORBIDDEN (neither owner nor paid buyer)
     */
    async downloadUrl(viewerId: string, collectionId: string, resourceId: string) {
      const c = await repo.findCollection(db, collectionId);
      const r = await uploads.findResource(resourceId);
      if (!c || !r || r.collectionId !== c.id) throw errors.notFound('The file does not exist');
      refuseRemovedFiles(c);
      if (c.ownerId !== viewerId) {
        const paid = (await purchases.paidOrder(viewerId, c.id))?.paidAt ?? null;
        // A removed file stays with those who paid before its removal (product §24).
        if (r.removedAt && (!paid || r.removedAt <= paid)) throw errors.notFound('The file does not exist');
        // Counted on the buyer's order (a download decides a refund request, product §24).
        if (!paid || !(await purchases.countDownloads(viewerId, c.id, 1))) {
          throw errors.forbidden('Buy this collection to download its files.');
        }
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

    /**
     * For the reviews module: the collection when `viewerId` may see it (published; or the owner's, or
     * bought by the caller). @throws NOT_FOUND otherwise
     */
    async visibleTo(viewerId: string | null, collectionId: string): Promise<repo.CollectionRow> {
      const c = await repo.findCollection(db, collectionId);
      if (!c || !(await visible(c, viewerId)).ok) throw errors.notFound('The collection does not exist');
      return c;
    },

    /**
     * For the reviews module (product §29): rating_sum + `sum`, rating_count + `count`, in the review's
     * transaction. Empties the public read cache (call {@link readsChanged} again after COMMIT).
     */
    applyRating(collectionId: string, sum: number, count: number, tx: Tx) {
      wrote();
      return repo.addRating(tx, collectionId, sum, count);
    },

    /** Empties the public read cache after a change made for another module committed (read-cache.ts). */
    readsChanged() {
      wrote();
    },

    /**
     * Account deletion hook (profile.service.ts `DeletionHook`): archives the user's published
     * collections in the deleting transaction and empties this instance's public reads now and again
     * after COMMIT (a read in between could cache the row as Published); other instances see it
     * within PUBLIC_READ_CACHE_TTL_MS (read-cache.ts).
     * @returns the after-COMMIT step
     */
    async archivePublishedOf(ownerId: string, tx: Tx): Promise<() => void> {
      wrote();
      await repo.archivePublishedOf(tx, ownerId);
      return wrote;
    },
  };
}

export type CollectionsService = ReturnType<typeof createCollectionsService>;

/**
 * Persistence of collections. Only the collections service calls this. Lists join the seller's
 * public columns (id, username, nickname, avatar, created_at) so a page is one query.
 */
import { CollectionStatus, type MarketSort } from '@coffer/contract';
import { OrderStatus } from '@coffer/contract';
import { and, count, desc, asc, eq, gt, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { run, statement } from '../../db/raw';
import { catalogueChanges, collections, orders, users } from '../../db/schema/index';

export type CollectionRow = typeof collections.$inferSelect;
export interface SellerColumns {
  id: string;
  username: string;
  nickname: string;
  avatar: string;
  createdAt: Date;
}
export interface CollectionWithSeller {
  c: CollectionRow;
  seller: SellerColumns;
}

const sellerColumns = {
  id: users.id,
  username: users.username,
  nickname: users.nickname,
  avatar: users.avatar,
  createdAt: users.createdAt,
};

export async function insertCollection(db: DbOrTx, row: typeof collections.$inferInsert): Promise<CollectionRow> {
  const [out] = await db.insert(collections).values(row).returning();
  return out!;
}

export async function findCollection(db: DbOrTx, id: string): Promise<CollectionRow | null> {
  const [row] = await db.select().from(collections).where(eq(collections.id, id));
  return row ?? null;
}

export async function findWithSeller(db: DbOrTx, id: string): Promise<CollectionWithSeller | null> {
  const [row] = await db
    .select({ c: collections, seller: sellerColumns })
    .from(collections)
    .innerJoin(users, eq(users.id, collections.ownerId))
    .where(eq(collections.id, id));
  return row ?? null;
}

/** Moves the status when it is one of `from`; @returns the updated row or null. */
export async function moveStatus(
  db: DbOrTx,
  id: string,
  from: string[],
  to: string,
  patch: Partial<CollectionRow> = {},
): Promise<CollectionRow | null> {
  const [row] = await db
    .update(collections)
    .set({ ...patch, status: to })
    .where(and(eq(collections.id, id), inArray(collections.status, from)))
    .returning();
  return row ?? null;
}

export async function incrementResourceCount(db: DbOrTx, id: string, by = 1): Promise<void> {
  await db
    .update(collections)
    .set({ resourceCount: sql`${collections.resourceCount} + ${by}` })
    .where(eq(collections.id, id));
}

/** Sets title, desc, price or banner of a collection. @returns the updated row or null */
export async function patchCollection(
  db: DbOrTx,
  id: string,
  patch: Partial<Pick<CollectionRow, 'title' | 'desc' | 'price' | 'bannerImageId'>>,
): Promise<CollectionRow | null> {
  if (!Object.keys(patch).length) return findCollection(db, id);
  const [row] = await db.update(collections).set(patch).where(eq(collections.id, id)).returning();
  return row ?? null;
}

/** The collection row locked until the transaction ends (edits of one collection serialize on it). */
export async function lockCollection(db: DbOrTx, id: string): Promise<CollectionRow | null> {
  const [row] = await db.select().from(collections).where(eq(collections.id, id)).for('no key update');
  return row ?? null;
}

export type CatalogueChangeRow = typeof catalogueChanges.$inferSelect;

/**
 * Appends one library change (ADR 0026): takes the next `seq` from the one-row counter (the row stays
 * locked until COMMIT, so changes commit in `seq` order, without gaps), then inserts the change.
 * Call it last in the transaction of the change it reports.
 */
export async function appendChange(db: DbOrTx, change: Omit<CatalogueChangeRow, 'seq'>): Promise<CatalogueChangeRow> {
  const res = (await db.execute(sql`
    insert into catalogue_change_counter (id, last_seq) values (1, 1)
    on conflict (id) do update set last_seq = catalogue_change_counter.last_seq + 1
    returning last_seq`)) as unknown as { rows: { last_seq: string | number | bigint }[] };
  const seq = BigInt(res.rows[0]!.last_seq);
  const [out] = await db
    .insert(catalogueChanges)
    .values({ ...change, seq })
    .returning();
  return out!;
}

/**
 * Changes after `afterSeq` in the collections `buyerId` has a paid order for, made since they paid
 * (what they bought already held the earlier ones; a change in the millisecond of the payment is
 * included), oldest first, at most `limit`.
 */
export async function changesForBuyer(
  db: DbOrTx,
  buyerId: string,
  afterSeq: bigint,
  limit: number,
): Promise<CatalogueChangeRow[]> {
  const rows = await db
    .select({ change: catalogueChanges })
    .from(catalogueChanges)
    .innerJoin(
      orders,
      and(
        eq(orders.collectionId, catalogueChanges.collectionId),
        eq(orders.buyerId, buyerId),
        eq(orders.status, OrderStatus.Paid),
        sql`${catalogueChanges.at} >= coalesce(${orders.paidAt}, ${orders.createdAt})`,
      ),
    )
    .where(gt(catalogueChanges.seq, afterSeq))
    .orderBy(catalogueChanges.seq)
    .limit(limit);
  return rows.map((r) => r.change);
}

/** One more sale: sold_count + 1 and earned + `earnedMinor`. */
export async function recordSale(db: DbOrTx, id: string, earnedMinor: bigint): Promise<void> {
  await db
    .update(collections)
    .set({
      soldCount: sql`${collections.soldCount} + 1`,
      earned: sql`${collections.earned} + ${earnedMinor.toString()}::bigint`,
    })
    .where(eq(collections.id, id));
}

/**
 * Adds many sales at once: per collection, sold_count + `count` and earned + `earned` (minor units),
 * one statement, rows locked in id order. `FOR NO KEY UPDATE` (the lock an UPDATE of non-key columns
 * takes): a full `FOR UPDATE` would also block the key-share lock that every new order's foreign key
 * check takes on its collection, so a `collection/buy` could deadlock with a purchase batch.
 */
export async function recordSales(db: DbOrTx, sales: { id: string; count: number; earned: bigint }[]): Promise<void> {
  if (!sales.length) return;
  const rows = JSON.stringify(sales.map((s) => ({ id: s.id, n: s.count, earned: s.earned.toString() })));
  await run(db, recordSalesSql, [rows]);
}

const recordSalesSql = statement(
  'collections_record_sales',
  `with d as (select * from jsonb_to_recordset($1::jsonb) as d(id text, n integer, earned bigint)),
   locked as (select c.id from collections c where c.id = any(array(select id from d)) order by c.id for no key update)
   update collections c set sold_count = c.sold_count + d.n, earned = c.earned + d.earned
   from d
   where c.id = d.id and c.id = any(array(select id from locked))`,
);

/** Adds `sum` to rating_sum and `count` to rating_count (either may be negative), in the review's transaction. */
export async function addRating(db: DbOrTx, id: string, sum: number, count: number): Promise<void> {
  await db
    .update(collections)
    .set({
      ratingSum: sql`${collections.ratingSum} + ${sum}`,
      ratingCount: sql`${collections.ratingCount} + ${count}`,
    })
    .where(eq(collections.id, id));
}

/** Archives the owner's published collections (account deletion). */
export async function archivePublishedOf(db: DbOrTx, ownerId: string): Promise<void> {
  await db
    .update(collections)
    .set({ status: CollectionStatus.Archived })
    .where(and(eq(collections.ownerId, ownerId), eq(collections.status, CollectionStatus.Published)));
}

async function page(db: DbOrTx, where: SQL | undefined, orderBy: SQL[], offset: number, limit: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select({ c: collections, seller: sellerColumns })
      .from(collections)
      .innerJoin(users, eq(users.id, collections.ownerId))
      .where(where)
      .orderBy(...orderBy)
      .offset(offset)
      .limit(limit),
    db.select({ n: count() }).from(collections).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

/** Sets (or clears, `null`) the takedown columns of a collection (product §27). @returns the row or null */
export async function setTakedown(
  db: DbOrTx,
  id: string,
  takedown: { at: Date; reason: string; filesRemoved: boolean } | null,
): Promise<CollectionRow | null> {
  const [row] = await db
    .update(collections)
    .set(
      takedown
        ? { hiddenAt: takedown.at, hiddenReason: takedown.reason, filesRemoved: takedown.filesRemoved }
        : { hiddenAt: null, hiddenReason: null, filesRemoved: false },
    )
    .where(eq(collections.id, id))
    .returning();
  return row ?? null;
}

/**
 * What the public may list (product §27): not taken down, and its seller not suspended. A correlated
 * `not exists`, so the count query needs no join.
 */
const listable = () =>
  and(
    isNull(collections.hiddenAt),
    sql`not exists (select 1 from ${users} where ${users.id} = ${collections.ownerId} and ${users.suspendedAt} is not null)`,
  );

/** The owner's collections except Deleted, newest first. */
export function pageOfOwner(db: DbOrTx, ownerId: string, offset: number, limit: number) {
  return page(
    db,
    and(eq(collections.ownerId, ownerId), ne(collections.status, CollectionStatus.Deleted)),
    [desc(collections.createdAt), desc(collections.id)],
    offset,
    limit,
  );
}

/** A user's published collections, newest first. */
export function pagePublishedOf(db: DbOrTx, ownerId: string, offset: number, limit: number) {
  return page(
    db,
    and(eq(collections.ownerId, ownerId), eq(collections.status, CollectionStatus.Published), listable()),
    [desc(collections.createdAt), desc(collections.id)],
    offset,
    limit,
  );
}

/** Escapes LIKE wildcards so that a search for "50%" means the text "50%". */
function likeTerm(q: string): string {
  return `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

/** Published collections for the market, optionally searched (title/desc, case-insensitive) and sorted. */
export function pageMarket(db: DbOrTx, opts: { q?: string; sort: MarketSort; offset: number; limit: number }) {
  const conditions: (SQL | undefined)[] = [eq(collections.status, CollectionStatus.Published), listable()];
  if (opts.q) conditions.push(or(ilike(collections.title, likeTerm(opts.q)), ilike(collections.desc, likeTerm(opts.q))));
  const newest = [desc(collections.createdAt), desc(collections.id)];
  // Rating (product §29): best average first (an exact numeric ratio of the stored integers), then more
  // reviews, then newest; unrated collections last.
  const byRating = [
    sql`(${collections.ratingSum}::numeric / nullif(${collections.ratingCount}, 0)) desc nulls last`,
    desc(collections.ratingCount),
    ...newest,
  ];
  const orderBy =
    opts.sort === 'rating'
      ? byRating
      : opts.sort === 'popular'
        ? [desc(collections.soldCount), ...newest]
        : opts.sort === 'price_asc'
          ? [asc(collections.price), ...newest]
          : opts.sort === 'price_desc'
            ? [desc(collections.price), ...newest]
            : newest;
  return page(db, and(...conditions), orderBy, opts.offset, opts.limit);
}

/** Collections by id with their sellers (purchased lists), in the order of `ids`. */
export async function findManyWithSeller(db: DbOrTx, ids: string[]): Promise<CollectionWithSeller[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ c: collections, seller: sellerColumns })
    .from(collections)
    .innerJoin(users, eq(users.id, collections.ownerId))
    .where(inArray(collections.id, ids));
  const byId = new Map(rows.map((r) => [r.c.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is CollectionWithSeller => !!r);
}

/**
 * The rating totals over every collection `ownerId` owns, whatever its status: the sums of the
 * collections' `rating_sum` (whole stars) and `rating_count` (counted reviews; refunded ones are
 * already left out of both on each row, product §29).
 */
export async function ratingTotalsOf(db: DbOrTx, ownerId: string): Promise<{ sum: number; count: number }> {
  const [row] = await db
    .select({
      sum: sql<string>`coalesce(sum(${collections.ratingSum}), 0)::text`,
      count: sql<string>`coalesce(sum(${collections.ratingCount}), 0)::text`,
    })
    .from(collections)
    .where(eq(collections.ownerId, ownerId));
  return { sum: Number(row?.sum ?? 0), count: Number(row?.count ?? 0) };
}

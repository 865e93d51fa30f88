/**
 * Seller events and webhook deliveries in the database (docs/decisions/0025-seller-events-and-webhooks.md).
 * `appendMany` takes each user's next `seq` values from `seller_event_counters` (one upsert, rows
 * locked in user-id order) and inserts the events, inside the caller's transaction.
 */
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { run, statement } from '../../db/raw';
import { sellerEventCounters, sellerEvents, webhookDeliveries, webhookEndpoints } from '../../db/schema/index';

export type SellerEventRow = typeof sellerEvents.$inferSelect;
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** An event to write: `seq` is assigned here. */
export interface NewEventRow {
  id: string;
  userId: string;
  type: string;
  key: string;
  data: unknown;
  createdAt: Date;
}

/**
 * Writes `rows` in the caller's transaction in one statement: the counter upsert for all their users
 * (locks in user-id order, held until COMMIT, so a user's events commit in `seq` order), then the
 * insert. Rows of one user get consecutive `seq` values in the order given.
 * @throws on a duplicate `key` (an event is written once; the transaction rolls back)
 */
export async function appendMany(db: DbOrTx, rows: NewEventRow[]): Promise<SellerEventRow[]> {
  if (!rows.length) return [];
  const json = JSON.stringify(
    rows.map((r, ord) => ({ ord, id: r.id, user_id: r.userId, type: r.type, key: r.key, data: r.data, created_at: r.createdAt })),
  );
  const { rows: written } = await run<{
    id: string;
    user_id: string;
    seq: string;
    type: string;
    key: string;
    data: unknown;
    created_at: Date;
  }>(db, appendManySql, [json]);
  return written.map((r) => ({
    id: r.id,
    userId: r.user_id,
    seq: BigInt(r.seq),
    type: r.type,
    key: r.key,
    data: r.data,
    createdAt: r.created_at,
  }));
}

const appendManySql = statement(
  'events_append_many',
  `with d as (
     select d.*, row_number() over (partition by d.user_id order by d.ord) as k, count(*) over (partition by d.user_id) as n
     from jsonb_to_recordset($1::jsonb)
       as d(ord integer, id text, user_id text, type text, key text, data jsonb, created_at timestamptz)
   ),
   c as (
     insert into seller_event_counters (user_id, last_seq)
     select x.user_id, count(*) from jsonb_to_recordset($1::jsonb) as x(user_id text) group by x.user_id order by x.user_id
     on conflict (user_id) do update set last_seq = seller_event_counters.last_seq + excluded.last_seq
     returning user_id, last_seq
   )
   insert into seller_events (id, user_id, seq, type, key, data, created_at)
   select d.id, d.user_id, c.last_seq - d.n + d.k, d.type, d.key, d.data, d.created_at
   from d join c on c.user_id = d.user_id
   order by d.ord
   returning id, user_id, seq::text as seq, type, key, data, created_at`,
);

/** The user's events with `seq` > `afterSeq`, oldest first, at most `limit`. */
export function pageAfter(db: DbOrTx, userId: string, afterSeq: bigint, limit: number): Promise<SellerEventRow[]> {
  return db
    .select()
    .from(sellerEvents)
    .where(and(eq(sellerEvents.userId, userId), gt(sellerEvents.seq, afterSeq)))
    .orderBy(asc(sellerEvents.seq))
    .limit(limit);
}

/** The user's last `seq` (0 before any event). */
export async function lastSeq(db: DbOrTx, userId: string): Promise<bigint> {
  const [row] = await db.select().from(sellerEventCounters).where(eq(sellerEventCounters.userId, userId));
  return row?.lastSeq ?? 0n;
}

export async function findEndpoint(db: DbOrTx, userId: string): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
  return row;
}

/**
 * Records a failed attempt on the user's endpoint: `failing_since` becomes `now` unless the failing
 * streak already started. @returns the endpoint after it (undefined when the user has none)
 */
export async function endpointFailed(db: DbOrTx, userId: string, now: Date): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now})` })
    .where(eq(webhookEndpoints.userId, userId))
    .returning();
  return row;
}

/** Ends the user's failing streak (a 2xx answer); writes only when one was recorded. */
export async function endpointSucceeded(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ failingSince: null })
    .where(and(eq(webhookEndpoints.userId, userId), isNotNull(webhookEndpoints.failingSince)));
}

/**
 * Turns the user's endpoint off after a failing streak that began at or before `failingBefore`.
 * @returns the endpoint when this call turned it off (so exactly one caller mails its owner), else undefined
 */
export async function disableEndpoint(db: DbOrTx, userId: string, failingBefore: Date, now: Date): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ disabledAt: now })
    .where(
      and(
        eq(webhookEndpoints.userId, userId),
        isNull(webhookEndpoints.disabledAt),
        lte(webhookEndpoints.failingSince, failingBefore),
      ),
    )
    .returning();
  return row;
}

/** Inserts or updates the user's endpoint with the given fields. */
export async function upsertEndpoint(
  db: DbOrTx,
  row: {
    userId: string;
    url: string | null;
    secret: string;
    enqueuedSeq: bigint;
    now: Date;
    signing?: string;
    signingKeySealed?: string | null;
    publicKey?: string | null;
  },
  update: Partial<
    Pick<WebhookEndpointRow, 'url' | 'secret' | 'enqueuedSeq' | 'failingSince' | 'disabledAt' | 'signing' | 'signingKeySealed' | 'publicKey'>
  >,
): Promise<WebhookEndpointRow> {
  const [out] = await db
    .insert(webhookEndpoints)
    .values({
      userId: row.userId,
      url: row.url,
      secret: row.secret,
      enqueuedSeq: row.enqueuedSeq,
      ...(row.signing ? { signing: row.signing } : {}),
      signingKeySealed: row.signingKeySealed ?? null,
      publicKey: row.publicKey ?? null,
      createdAt: row.now,
      updatedAt: row.now,
    })
    .onConflictDoUpdate({ target: webhookEndpoints.userId, set: { ...update, updatedAt: row.now } })
    .returning();
  return out!;
}

/**
 * Gives every event past each endpoint's `enqueued_seq` a pending delivery (due now, deadline 24 h
 * after the event) and moves the endpoints' marks, for endpoints with a URL that are on: an endpoint
 * turned off after 24 h of failures (docs/abuse.md "Webhook delivery") keeps its mark, so the
 * events of the time it was off get their deliveries once it is turned on, and meanwhile nothing
 * piles up for the claim to read past. Endpoints another pass holds are skipped (`SKIP LOCKED`).
 * @returns deliveries created
 */
export async function enqueueNew(db: DbOrTx, now: Date, windowMs: number, limit = 1000): Promise<number> {
  const at = now.toISOString();
  const res = (await db.execute(sql`
    with w as (
      select user_id, enqueued_seq from webhook_endpoints where url is not null and disabled_at is null
      and exists (select 1 from seller_event_counters c where c.user_id = webhook_endpoints.user_id and c.last_seq > webhook_endpoints.enqueued_seq)
      order by user_id limit 100 for update skip locked
    ),
    e as (
      select ev.id, ev.user_id, ev.seq, ev.created_at from w join seller_events ev on ev.user_id = w.user_id and ev.seq > w.enqueued_seq
      order by ev.user_id, ev.seq limit ${limit}
    ),
    ins as (
      insert into webhook_deliveries (event_id, user_id, status, attempts, next_attempt_at, deadline_at, created_at, updated_at)
      select e.id, e.user_id, 'pending', 0, ${at}::timestamptz, e.created_at + (${windowMs}::bigint * interval '1 millisecond'), ${at}::timestamptz, ${at}::timestamptz from e
      on conflict (event_id) do nothing
      returning event_id
    ),
    up as (
      update webhook_endpoints set enqueued_seq = m.seq from (select user_id, max(seq) as seq from e group by user_id) m
      where webhook_endpoints.user_id = m.user_id returning 1
    )
    select (select count(*) from ins) as n, (select count(*) from up) as u`)) as unknown as { rows: { n: string | number }[] };
  return Number(res.rows[0]?.n ?? 0);
}

/**
 * Claims due pending deliveries for one worker pass (docs/abuse.md "Webhook delivery"): at most one
 * per seller (its due delivery of the lowest `seq`, so a seller's events go in feed order as before),
 * none of the sellers in `busy` (this instance is sending to them), the seller due longest first, up
 * to `limit`. Each claimed row counts its attempt and is leased until `leaseUntil` (it is
 * sent at once, so the lease covers it); rows another instance holds are skipped.
 * @returns the claimed deliveries with their event and the seller's URL, secret, scheme and sealed Ed25519 key
 */
export async function claimDue(db: DbOrTx, now: Date, leaseUntil: Date, limit: number, busy: readonly string[] = []) {
  // Each seller's (not busy) due delivery of the lowest seq, then the sellers due longest first.
  const heads = await db
    .selectDistinctOn([webhookDeliveries.userId], { eventId: webhookDeliveries.eventId, at: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .innerJoin(sellerEvents, eq(sellerEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, now),
        busy.length ? notInArray(webhookDeliveries.userId, [...busy]) : undefined,
        // An endpoint turned off after 24 h of failures gets nothing until its owner turns it on.
        sql`not exists (select 1 from ${webhookEndpoints} where ${webhookEndpoints.userId} = ${webhookDeliveries.userId} and ${webhookEndpoints.disabledAt} is not null)`,
      ),
    )
    .orderBy(webhookDeliveries.userId, asc(sellerEvents.seq));
  const picked = heads
    .sort((a, b) => a.at!.getTime() - b.at!.getTime() || (a.eventId < b.eventId ? -1 : 1))
    .slice(0, limit)
    .map((h) => h.eventId);
  if (!picked.length) return [];
  const due = await db
    .select({ eventId: webhookDeliveries.eventId })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.eventId, picked),
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, now),
      ),
    )
    .for('update', { skipLocked: true });
  if (!due.length) return [];
  const ids = due.map((d) => d.eventId);
  const claimed = await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, nextAttemptAt: leaseUntil, updatedAt: now })
    .where(inArray(webhookDeliveries.eventId, ids))
    .returning();
  const rows = await db
    .select({
      event: sellerEvents,
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
      signing: webhookEndpoints.signing,
      signingKeySealed: webhookEndpoints.signingKeySealed,
    })
    .from(sellerEvents)
    .leftJoin(webhookEndpoints, eq(webhookEndpoints.userId, sellerEvents.userId))
    .where(inArray(sellerEvents.id, ids));
  const byId = new Map(rows.map((r) => [r.event.id, r]));
  return claimed.map((d) => ({ delivery: d, ...byId.get(d.eventId)! }));
}

/** Records an attempt's outcome, only while the row is still pending. */
export async function finishAttempt(
  db: DbOrTx,
  eventId: string,
  set: Pick<WebhookDeliveryRow, 'status' | 'lastResponseCode' | 'lastError' | 'nextAttemptAt'> & { updatedAt: Date },
): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set(set)
    .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.status, 'pending')));
}

/** The user's deliveries, newest event first. */
export function deliveriesOf(db: DbOrTx, userId: string, offset: number, limit: number) {
  return db
    .select({ delivery: webhookDeliveries, type: sellerEvents.type })
    .from(webhookDeliveries)
    .innerJoin(sellerEvents, eq(sellerEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.userId, userId))
    .orderBy(desc(sellerEvents.seq))
    .offset(offset)
    .limit(limit);
}

export async function findEvent(db: DbOrTx, eventId: string): Promise<SellerEventRow | undefined> {
  const [row] = await db.select().from(sellerEvents).where(eq(sellerEvents.id, eventId));
  return row;
}

/** Makes the event's delivery pending again, due now, with a new deadline (creates it when missing). */
export async function redeliver(db: DbOrTx, event: SellerEventRow, now: Date, deadline: Date) {
  const [row] = await db
    .insert(webhookDeliveries)
    .values({
      eventId: event.id,
      userId: event.userId,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      deadlineAt: deadline,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: webhookDeliveries.eventId,
      set: { status: 'pending', nextAttemptAt: now, deadlineAt: deadline, updatedAt: now },
    })
    .returning();
  return row!;
}

/**
 * Group commit of order/pay (docs/decisions/0021-purchases-group-commit.md): concurrent pays are
 * settled in shared database transactions, each purchase still all-or-nothing for its buyer. And
 * of collection/buy (docs/decisions/0033-purchase-hot-path.md): concurrent buys without a code
 * share one statement, each answered as a buy alone would be.
 * Runs on PGlite by default and on PostgreSQL with DATABASE_URL.
 *
 * The purchase service under test is built here on a wrapped database handle that counts (and, in
 * the randomized test, sabotages) its transactions; ledger, records and collections are the app's.
 */
import { OrderStatus, type Order } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { createTestApp, createUser, fund, type TestApp, type TestUser } from '../../test/harness';
import { ok, publishedCollection } from '../collections/collections.fixtures';
import { verifyLedger } from '../ledger/ledger.verify';
import { createPurchaseService, type PurchaseService } from './purchase.service';
import { mulberry32 } from '../../test/simulation';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});


/**
 * A purchase service on a database handle whose `transaction` is counted and may be sabotaged:
 * `sabotage()` is asked after the batch's work, inside its transaction, and may return an error to
 * throw there (the transaction then rolls back).
 */
function ordersOn(feeBps: number, sabotage: () => Error | null = () => null) {
  const db = t.app.ctx.database.db;
  const counter = { transactions: 0 };
  const wrapped = Object.create(db) as Db;
  wrapped.transaction = ((fn: (tx: unknown) => Promise<unknown>, config?: unknown) => {
    counter.transactions++;
    return db.transaction(async (tx) => {
      const out = await fn(tx);
      const err = sabotage();
      if (err) throw err;
      return out;
    }, config as never);
  }) as Db['transaction'];
  const s = t.app.ctx.services;
  const orders = createPurchaseService({
    db: wrapped,
    clock: t.clock,
    ledger: s.ledger,
    records: s.records,
    accounts: { isSteppedUp: s.sessions.isSteppedUp, authorizeSpend: s.sessions.authorizeSpend, checkPassword: s.credentials.checkPassword },
    collections: s.collections,
    discounts: s.discounts,
    licences: s.licences,
    events: s.events.writer,
    feeBps,
    // These tests are about batching and check the sellers' available balances: no hold.
    holdDays: 0,
  });
  return { orders, counter };
}

const available = async (u: TestUser) => (await t.app.ctx.services.ledger.balances(u.id)).available;
const buy = async (u: TestUser, collectionId: string) =>
  (await ok(t, '/sl/v1/collection/buy', { collection_id: collectionId }, u.token)).id as string;
/** A buyer's session that stepped up just now (the step-up itself is tested in orders.test.ts). */
const stepped = (u: TestUser) => ({ userId: u.id, sessionId: 'batch-test', steppedUpAt: t.clock.now() });
const reasonOf = (e: unknown) => (e instanceof AppError ? e.reason : String(e));

async function payAll(orders: PurchaseService, pays: { buyer: TestUser; orderId: string }[]) {
  return Promise.allSettled(pays.map((p) => orders.pay(stepped(p.buyer), p.orderId)));
}

describe('order/pay group commit', () => {
  it('settles concurrent pays of many buyers in few transactions; one short buyer fails alone', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10, 'Batch');
    const other = await publishedCollection(t, seller, 10, 'Other');
    const buyers = await Promise.all(Array.from({ length: 12 }, () => createUser(t)));
    for (const b of buyers) await fund(t, b.id, '10');
    const orderIds: string[] = [];
    for (const b of buyers) orderIds.push(await buy(b, c.id));
    // The last buyer spends the 10 points on another order first: its pay in the batch must fail.
    const short = buyers[11]!;
    const { orders, counter } = ordersOn(1000);
    await orders.pay(stepped(short), await buy(short, other.id));
    counter.transactions = 0;
    const sellerBefore = await available(seller);

    const results = await payAll(
      orders,
      buyers.map((buyer, i) => ({ buyer, orderId: orderIds[i]! })),
    );

    // The first pay starts a batch alone; the other eleven queue behind it and share the next one.
    expect(counter.transactions).toBeLessThanOrEqual(2);
    results.slice(0, 11).forEach((r) => expect(r.status === 'fulfilled' && r.value.status).toBe(OrderStatus.Paid));
    expect(results[11]!.status).toBe('rejected');
    expect(reasonOf((results[11] as PromiseRejectedResult).reason)).toBe('INSUFFICIENT_BALANCE');
    for (const b of buyers) expect(await available(b)).toBe(0n);
    // 11 sales of 10 points, 10 % fee.
    expect((await available(seller)) - sellerBefore).toBe(11n * 900n);
    const detail = await ok(t, '/sl/v1/collection/detail', { collection_id: c.id });
    expect(detail.collection).toMatchObject({ sold_count: 11, earned: 99 });
    const mine = await ok(t, '/sl/v1/my/orders', { paginator: { page: 0, size: 10 } }, short.token);
    expect(mine.orders.find((o: { id: string }) => o.id === orderIds[11])?.status).toBe(OrderStatus.Pending);
    expect((await verifyLedger(t.app.ctx.database.db)).violations).toEqual([]);
  });

  it('starts the next batch while the previous one is in its hot phase; both settle exactly', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10, 'Overlap');
    const buyers = await Promise.all(Array.from({ length: 6 }, () => createUser(t)));
    for (const b of buyers) await fund(t, b.id, '10');
    const orderIds: string[] = [];
    for (const b of buyers) orderIds.push(await buy(b, c.id));
    const begunBeforeFirstCommit: number[] = [];
    let calls = 0;
    const { orders, counter } = ordersOn(0, () => {
      // Asked at the end of each batch's work, before its COMMIT.
      if (calls++ === 0) begunBeforeFirstCommit.push(counter.transactions);
      return null;
    });
    const sellerBefore = await available(seller);
    const results = await payAll(
      orders,
      buyers.map((buyer, i) => ({ buyer, orderId: orderIds[i]! })),
    );
    results.forEach((r) => expect(r.status === 'fulfilled' && r.value.status).toBe(OrderStatus.Paid));
    // The first pay's batch had not committed when the five queued behind it began theirs.
    expect(begunBeforeFirstCommit).toEqual([2]);
    expect(counter.transactions).toBe(2);
    for (const b of buyers) expect(await available(b)).toBe(0n);
    expect((await available(seller)) - sellerBefore).toBe(6n * 1000n);
    expect((await ok(t, '/sl/v1/collection/detail', { collection_id: c.id })).collection.sold_count).toBe(6);
    expect((await verifyLedger(t.app.ctx.database.db)).violations).toEqual([]);
  });

  it('charges once when the same order is paid many times at once', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 5, 'Twice');
    const buyer = await createUser(t);
    await fund(t, buyer.id, '20');
    const orderId = await buy(buyer, c.id);
    const { orders } = ordersOn(0);

    const results = await payAll(
      orders,
      Array.from({ length: 6 }, () => ({ buyer, orderId })),
    );
    const paid = results.map((r) => (r.status === 'fulfilled' ? r.value : null));
    expect(paid.every((o) => o?.status === OrderStatus.Paid)).toBe(true);
    expect(new Set(paid.map((o) => JSON.stringify(o))).size).toBe(1);
    expect(await available(buyer)).toBe(1500n);
    expect(await available(seller)).toBe(500n);
    expect((await ok(t, '/sl/v1/collection/detail', { collection_id: c.id })).collection.sold_count).toBe(1);
  });

  it("keeps a buyer's two orders apart: with money for one, exactly one is paid", async () => {
    const seller = await createUser(t);
    const a = await publishedCollection(t, seller, 10, 'A');
    const b = await publishedCollection(t, seller, 10, 'B');
    const buyer = await createUser(t);
    await fund(t, buyer.id, '10');
    const [oa, ob] = [await buy(buyer, a.id), await buy(buyer, b.id)];
    const { orders } = ordersOn(0);
    // A third order keeps the first batch busy so both of the buyer's pays queue together.
    const warm = await createUser(t);
    await fund(t, warm.id, '10');
    const ow = await buy(warm, a.id);

    const results = await payAll(orders, [
      { buyer: warm, orderId: ow },
      { buyer, orderId: oa },
      { buyer, orderId: ob },
    ]);
    const outcomes = results.slice(1).map((r) => (r.status === 'fulfilled' ? r.value.status : reasonOf(r.reason)));
    expect(outcomes.sort()).toEqual(['INSUFFICIENT_BALANCE', OrderStatus.Paid]);
    expect(await available(buyer)).toBe(0n);
  });

  it('refuses a stranger paying someone else’s order in the same batch, and pays the buyer once', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 3, 'Mine');
    const buyer = await createUser(t);
    const stranger = await createUser(t);
    await fund(t, buyer.id, '3');
    await fund(t, stranger.id, '3');
    const orderId = await buy(buyer, c.id);
    const { orders } = ordersOn(0);
    const results = await payAll(orders, [
      { buyer, orderId },
      { buyer: stranger, orderId },
      { buyer, orderId },
    ]);
    expect(results[0]!.status === 'fulfilled' && results[0]!.value.status).toBe(OrderStatus.Paid);
    expect(reasonOf((results[1] as PromiseRejectedResult).reason)).toBe('NOT_FOUND');
    expect(results[2]!.status === 'fulfilled' && results[2]!.value.status).toBe(OrderStatus.Paid);
    expect(await available(buyer)).toBe(0n);
    expect(await available(stranger)).toBe(300n);
  });

  it('randomized (seeded): injected deadlocks and failures inside batches never break money or the ledger', async () => {
    const seed = Number(process.env.BATCH_SEED ?? 20261125);
    const rand = mulberry32(seed); // deterministic: a failing run replays from its seed
    const sellers = [await createUser(t), await createUser(t)];
    const cols = [];
    for (let i = 0; i < 6; i++) cols.push(await publishedCollection(t, sellers[i % 2]!, 1 + Math.floor(rand() * 9), `R${i}`));
    const buyers = await Promise.all(Array.from({ length: 10 }, () => createUser(t)));
    const funded = new Map<string, bigint>();
    for (const b of buyers) {
      const points = Math.floor(rand() * 25);
      if (points > 0) await fund(t, b.id, String(points));
      funded.set(b.id, BigInt(points) * 100n);
    }
    const price = new Map<string, bigint>(cols.map((c) => [c.id, BigInt(c.amount) * 100n]));
    // Orders: each buyer tries some collections (buy needs the balance, so the short ones get few).
    const pays: { buyer: TestUser; orderId: string; collectionId: string }[] = [];
    for (const buyer of buyers) {
      for (const c of cols) {
        if (rand() < 0.5) continue;
        const res = await t.call('/sl/v1/collection/buy', { collection_id: c.id }, buyer.token);
        if (res.body.code === 10000) pays.push({ buyer, orderId: res.body.data.id, collectionId: c.id });
      }
    }
    // Duplicates: some pays are fired twice.
    const wave = [...pays, ...pays.filter(() => rand() < 0.3)].sort(() => rand() - 0.5);
    const sabotage = () => {
      const x = rand();
      if (x < 0.25) return Object.assign(new Error('injected deadlock'), { code: '40P01' });
      if (x < 0.35) return new Error('injected failure');
      return null;
    };
    const { orders } = ordersOn(700, sabotage);
    const sellersBefore = await Promise.all(sellers.map(available));

    const results = await Promise.allSettled(wave.map((p) => orders.pay(stepped(p.buyer), p.orderId)));

    // Whatever each caller was told matches the database, and money moved exactly for paid orders.
    const paidInDb = new Set<string>();
    for (const buyer of buyers) {
      const mine = await ok(t, '/sl/v1/my/orders', { paginator: { page: 0, size: 100 } }, buyer.token);
      for (const o of mine.orders) if (o.status === OrderStatus.Paid) paidInDb.add(o.id);
    }
    wave.forEach((p, i) => {
      const r = results[i]!;
      if (r.status === 'fulfilled') expect(paidInDb.has(p.orderId)).toBe(true);
      else if (reasonOf(r.reason) === 'INSUFFICIENT_BALANCE' || /injected/.test(String(r.reason))) {
        // Refused or failed for this caller: the order may only have been paid by its duplicate.
        if (paidInDb.has(p.orderId)) expect(wave.some((q, j) => j !== i && q.orderId === p.orderId)).toBe(true);
      } else throw new Error(`unexpected refusal ${String(r.reason)}`);
    });
    const spent = new Map<string, bigint>();
    const earned = [0n, 0n];
    const sold = new Map<string, number>();
    for (const p of pays) {
      if (!paidInDb.has(p.orderId)) continue;
      const amount = price.get(p.collectionId)!;
      spent.set(p.buyer.id, (spent.get(p.buyer.id) ?? 0n) + amount);
      const si = cols.findIndex((c) => c.id === p.collectionId) % 2;
      earned[si]! += amount - (amount * 700n) / 10_000n;
      sold.set(p.collectionId, (sold.get(p.collectionId) ?? 0) + 1);
    }
    for (const b of buyers) {
      const left = await available(b);
      expect(left).toBe(funded.get(b.id)! - (spent.get(b.id) ?? 0n));
      expect(left >= 0n).toBe(true);
    }
    for (const [i, s] of sellers.entries()) expect((await available(s)) - sellersBefore[i]!).toBe(earned[i]);
    for (const c of cols) {
      const d = (await ok(t, '/sl/v1/collection/detail', { collection_id: c.id })).collection;
      expect(d.sold_count).toBe(sold.get(c.id) ?? 0);
    }
    expect(paidInDb.size).toBeGreaterThan(0);
    expect((await verifyLedger(t.app.ctx.database.db)).violations).toEqual([]);
  });
});

/** A purchase service on a database handle whose driver calls are counted (one per statement). */
function ordersCounting() {
  const db = t.app.ctx.database.db;
  const counter = { statements: 0 };
  type Session = { client: object };
  const session = (db as unknown as { session: Session }).session;
  const client = session.client as Record<string | symbol, unknown>;
  const counting = new Proxy(client, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (prop === 'query') counter.statements++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const wrapped = Object.create(db) as Db & { session: Session };
  wrapped.session = Object.assign(Object.create(session) as Session, { client: counting });
  const s = t.app.ctx.services;
  const orders = createPurchaseService({
    db: wrapped,
    clock: t.clock,
    ledger: s.ledger,
    records: s.records,
    accounts: { isSteppedUp: s.sessions.isSteppedUp, authorizeSpend: s.sessions.authorizeSpend, checkPassword: s.credentials.checkPassword },
    collections: s.collections,
    discounts: s.discounts,
    licences: s.licences,
    events: s.events.writer,
    feeBps: 0,
  });
  return { orders, counter };
}

describe('collection/buy group commit', () => {
  it('answers concurrent buys from one statement per batch, each as a buy alone would', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10, 'Buys');
    const buyers = await Promise.all(Array.from({ length: 8 }, () => createUser(t)));
    for (const b of buyers.slice(0, 7)) await fund(t, b.id, '10'); // the last one has nothing
    const { orders, counter } = ordersCounting();

    const results = await Promise.allSettled([
      ...buyers.map((b) => orders.buy(b.id, c.id)),
      orders.buy(buyers[0]!.id, c.id), // a repeat of the first pair shares its answer
      orders.buy(seller.id, c.id),
      orders.buy(buyers[1]!.id, 'no-such-collection'),
    ]);

    // The first buy runs alone; the ten queued behind it share one statement.
    expect(counter.statements).toBe(2);
    const value = (i: number) =>
      results[i]!.status === 'fulfilled' ? (results[i] as PromiseFulfilledResult<Order>).value : null;
    const reason = (i: number) =>
      results[i]!.status === 'rejected' ? reasonOf((results[i] as PromiseRejectedResult).reason) : null;
    for (let i = 0; i < 7; i++)
      expect(value(i)).toMatchObject({ collection_id: c.id, status: OrderStatus.Pending, amount: 10, discount: 0 });
    expect(new Set(results.slice(0, 7).map((_, i) => value(i)!.id)).size).toBe(7);
    expect(value(8)).toEqual(value(0));
    expect(reason(7)).toBe('INSUFFICIENT_BALANCE');
    expect(reason(9)).toBe('FORBIDDEN');
    expect(reason(10)).toBe('NOT_FOUND');

    // Buying again, alone, answers the same orders (one per buyer and collection).
    for (let i = 0; i < 7; i++) expect((await orders.buy(buyers[i]!.id, c.id)).id).toBe(value(i)!.id);
    const mine = await ok(t, '/sl/v1/my/orders', { paginator: { page: 0, size: 10 } }, buyers[0]!.token);
    expect(mine.orders.map((o: { id: string }) => o.id)).toEqual([value(0)!.id]);
  });

  it('runs each buy of a failing batch alone, so only the faulty one fails', async () => {
    const seller = await createUser(t);
    const free = await publishedCollection(t, seller, 0, 'Free');
    const buyers = await Promise.all(Array.from({ length: 4 }, () => createUser(t)));
    const { orders, counter } = ordersCounting();
    const first = orders.buy(buyers[0]!.id, free.id); // runs alone; the rest queue behind it
    // A caller with no user row: every check of a free buy passes, and its insert breaks the
    // buyer's foreign key, failing the whole statement of its batch.
    const ghost = orders.buy(`ghost-${buyers[0]!.id}`, free.id);
    const rest = buyers.slice(1).map((b) => orders.buy(b.id, free.id));
    const results = await Promise.allSettled([first, ghost, ...rest]);
    expect(results[1]!.status).toBe('rejected');
    expect(reasonOf((results[1] as PromiseRejectedResult).reason)).not.toMatch(/^[A-Z_]+$/); // a database error, no refusal
    for (const i of [0, 2, 3, 4]) {
      expect(results[i]!.status === 'fulfilled' && (results[i] as PromiseFulfilledResult<Order>).value.status).toBe(
        OrderStatus.Pending,
      );
    }
    // The first alone, the failed batch of four, then each of the four alone.
    expect(counter.statements).toBe(6);
  });
});

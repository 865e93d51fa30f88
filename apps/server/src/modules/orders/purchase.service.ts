/**
 * Purchases (product §16-§17, §28; docs/purchases.md): `collection/buy` answers the buyer's order for
 * a collection (one per buyer and collection, the same on every repeat) and `account/order/pay` settles
 * it. Both are group-committed on lib/group-commit.ts (takeBatch, commitSplitting, retryTransient,
 * rejectGroup). Refunds, clearance and the order lists are refunds.service.ts, clearance.service.ts and
 * listings.service.ts; this file's SQL is purchase.repository.ts.
 *
 * **Buy** (`buy`). Without a code, concurrent buys share one statement (`repo.buyMany`) that reads what
 * each buy decides on and inserts each order exactly when every check passes; each caller gets the
 * answer a buy alone would give. With a code, a buy reads (`repo.buyView`), prices with the code
 * (discounts service), then inserts (`repo.insertOrGet`). A pending order keeps its quote while it
 * stands (same list price, same code, younger than ORDER_QUOTE_TTL_SECONDS), else it is re-quoted.
 *
 * **Pay** (`pay`): all-or-nothing per purchase. The order is marked paid, the `Purchase` (buyer,
 * Outgoing) and `Sale` (seller, Incoming) records are written with status Success, the collection's
 * sold_count and earned rise, and the ledger posts buyer available -> seller pending (available when
 * EARNINGS_HOLD_DAYS is 0), minus PLATFORM_FEE_BPS to the platform `fees` account, under the
 * idempotency key `purchase:<order id>`, in one database transaction. A paid order is answered
 * unchanged, so paying twice never charges twice.
 *
 * Group commit of pays (docs/decisions/0021-purchases-group-commit.md): concurrent pays queue and are
 * settled together, up to {@link MAX_BATCH} per database transaction, while the previous batch commits
 * (a lone pay starts at once, without waiting). A batch runs a fixed number of statements whatever its
 * size: lock its orders (id order), insert the ledger transactions, debit every buyer where the
 * balance covers it (a short buyer's purchase alone is refused), insert the entries, mark the orders
 * paid, write the records, add the collections' sales, and credit each seller once with its summed
 * amount — the hot rows (counters, then sellers) last, just before COMMIT
 * (docs/decisions/0004-purchase-order.md). A batch holds at most one order per buyer. A deadlock or
 * serialization failure (possible between processes, or two users buying from each other) rolls the
 * batch back and retries it; any other error settles the batch's purchases one per transaction, so
 * only the faulty one fails. Two batches may be in flight (docs/decisions/0033-purchase-hot-path.md):
 * the next one starts once the previous one has only its hot writes left (the sellers' credit, the
 * sale events, COMMIT), and waits for the rows that one still holds.
 *
 * Discount codes and licence keys (product §28, docs/decisions/0030-discount-codes-and-licence-keys.md):
 * `collection/buy {code}` prices the order with the seller's code (the order keeps `list_price`,
 * `discount` and `amount` = the price paid, which the ledger posts and a refund gives back); the code's
 * use is counted when the order is paid, in the batch's transaction, before the debits (a purchase
 * whose debit is then refused gives its use back in the same transaction). Each purchase of a
 * collection with licence keys on gets its key in the same transaction. After a batch commits, the
 * buyers of the purchases that went through get a receipt mail (queued in the batch's transaction,
 * docs/decisions/0032-mail-queue.md).
 *
 * Shapes: `buy` and `pay` answer the contract's `Order`. Units: order `amount`, `list_price` and
 * `discount` are whole points (to minor units only through `wholePointsToMinor`); ledger amounts,
 * balances and fees are bigint minor units. Errors: AppError NOT_FOUND, FORBIDDEN, CONFLICT,
 * INSUFFICIENT_BALANCE, PRICE_CHANGED, ORDER_EXPIRED, and the step-up's STEP_UP_REQUIRED,
 * INVALID_CREDENTIALS, RATE_LIMITED (each method says which).
 */
import {
  CollectionStatus,
  Direction,
  EARNINGS_HOLD_DAYS_DEFAULT,
  OrderStatus,
  RecordStatus,
  RecordType,
  wholePointsToMinor,
  type Order,
} from '@coffer/contract';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors, type AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import {
  commitSplitting,
  rejectGroup,
  retryTransient,
  takeBatch,
  type Group as GroupOf,
  type Waiter,
} from '../../lib/group-commit';
import type { Credentials } from '../account/credentials';
import type { SessionsService } from '../account/sessions.service';
import type { CollectionsService } from '../collections/collections.service';
import type { DiscountsService } from '../discounts/discounts.service';
import { saleEvent, type EventWriter } from '../events/events.service';
import { LedgerTransactionKind, type LedgerService } from '../ledger/ledger.service';
import type { LicencesService } from '../licences/licences.service';
import type { RecordsService } from '../records/records.service';
import { quoteExpired, toOrder } from './order-view';
import type { OrderRow } from './orders.repository';
import * as repo from './purchase.repository';

export interface PurchaseDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  records: RecordsService;
  /** The step-up for spending (`pay`): the sessions' isSteppedUp and authorizeSpend, the credentials' checkPassword. */
  accounts: Pick<SessionsService, 'isSteppedUp' | 'authorizeSpend'> & Pick<Credentials, 'checkPassword'>;
  collections: CollectionsService;
  /** Writes the seller's `sale` event of each purchase in the batch's transaction (product §23). */
  events: EventWriter;
  /** PLATFORM_FEE_BPS: the platform's share of each sale in basis points. */
  feeBps: number;
  /** Discount codes: quoted by `buy`, their uses counted by the pay transaction (product §28). */
  discounts: DiscountsService;
  /** Licence keys issued by the pay transaction; receipt mails (product §28). */
  licences: LicencesService;
  /** Most purchases settled in one database transaction, and most buys in one statement (default {@link MAX_BATCH}). */
  maxBatch?: number;
  /**
   * EARNINGS_HOLD_DAYS: days a sale's proceeds stay in the seller's `pending` account before they
   * clear (0: credited to `available` at once). Default {@link EARNINGS_HOLD_DAYS_DEFAULT}.
   */
  holdDays?: number;
}

/** Auth of the caller of `order/pay`: the session the step-up is read from and recorded on. */
export interface PayAuth {
  userId: string;
  sessionId: string;
  steppedUpAt?: number | null;
}

/** What `order/pay` carries besides the order: the step-up proof and the amount the buyer confirmed. */
export interface PayInput {
  /** MD5 digest of the login password. */
  password?: string;
  /** Authenticator or recovery code (two-factor on). */
  code?: string;
  /** Whole points the buyer confirmed; a different order amount answers PRICE_CHANGED. */
  amount?: number;
}

/**
 * Most purchases per group-commit batch: bounds the transaction's statements' size and the time a
 * batch holds the seller's row (docs/decisions/0021-purchases-group-commit.md).
 */
export const MAX_BATCH = 64;

/**
 * Pay batches in flight at once: one in its hot phase (sellers' credit, events, receipts, COMMIT)
 * and the next one before it (docs/decisions/0033-purchase-hot-path.md).
 */
export const MAX_IN_FLIGHT = 2;

/** The platform fee of a sale: floor(price * bps / 10000), minor units. */
export function feeOf(priceMinor: bigint, feeBps: number): bigint {
  return (priceMinor * BigInt(feeBps)) / 10_000n;
}

/** Builds the purchase service (`buy`, `pay`) with its two batch engines; see the module comment. */
export function createPurchaseService(deps: PurchaseDeps) {
  const { db, clock, ledger, records, accounts, collections, events, discounts, licences } = deps;
  const holdMs = Math.max(0, deps.holdDays ?? EARNINGS_HOLD_DAYS_DEFAULT) * 86_400_000;
  const maxBatch = Math.max(1, deps.maxBatch ?? MAX_BATCH);

  // ---- collection/buy: the quote -------------------------------------------------------------

  /**
   * The refusals of `collection/buy` that do not depend on the price, in the order the API answers
   * them, from what {@link repo.buyView} read.
   * @returns the order to answer as it is (paid, or no longer pending), or null to go on pricing
   * @throws NOT_FOUND (no such collection, or unpublished or taken down), FORBIDDEN (own
   * collection), CONFLICT (archived or deleted, or the seller suspended)
   */
  function screenBuy(buyerId: string, c: repo.BuyResult['collection'], existing: OrderRow | null): Order | null {
    if (existing?.status === OrderStatus.Paid) return toOrder(existing);
    if (!c) throw errors.notFound('The collection does not exist');
    if (c.ownerId === buyerId) throw errors.forbidden('You cannot buy your own collection');
    if (c.status === CollectionStatus.Archived || c.status === CollectionStatus.Deleted) {
      throw errors.conflict('This collection is no longer for sale');
    }
    if (c.status !== CollectionStatus.Published || c.hidden) throw errors.notFound('The collection does not exist');
    if (c.sellerSuspended) throw errors.conflict('This collection cannot be bought at the moment');
    if (existing && existing.status !== OrderStatus.Pending) return toOrder(existing);
    return null;
  }

  /** Sets a pending order's price; an order a pay settled meanwhile is answered as it is now. */
  async function repriced(
    existing: OrderRow,
    pricing: { amount: number; listPrice: number; discount: number; discountCodeId: string | null },
  ): Promise<Order> {
    const quoted = { ...pricing, quotedAt: new Date(clock.now()) };
    const row = (await repo.reprice(db, existing.id, quoted)) ?? (await repo.findById(db, existing.id));
    return toOrder(row ?? existing);
  }

  /** A `collection/buy` without a code. */
  interface BuyAsk {
    buyerId: string;
    collectionId: string;
  }
  const buyQueue: Waiter<BuyAsk, Order>[] = [];
  let buying = false;

  /** Queues a buy without a code and starts the batches unless one is running. */
  function queueBuy(buyerId: string, collectionId: string): Promise<Order> {
    return new Promise<Order>((resolve, reject) => {
      buyQueue.push({ input: { buyerId, collectionId }, resolve, reject });
      void drainBuys();
    });
  }

  /** Runs batches of queued buys one after another; buys arriving meanwhile form the next batch. */
  async function drainBuys(): Promise<void> {
    if (buying) return;
    buying = true;
    try {
      while (buyQueue.length) {
        // At most maxBatch distinct pairs; repeats of a pair share its answer.
        await runBuyBatch(takeBatch(buyQueue, { key: (a) => `${a.buyerId}\n${a.collectionId}`, max: maxBatch }));
      }
    } finally {
      buying = false;
    }
  }

  /**
   * One statement for a batch of buys ({@link repo.buyMany}), then each answer from its row with the
   * checks of a single buy. A deadlock or serialization failure is retried (up to 4 attempts); any
   * other error (the statement fails as a whole) runs each pair alone, so only a faulty one fails.
   */
  async function runBuyBatch(groups: GroupOf<BuyAsk, Order>[]): Promise<void> {
    const now = new Date(clock.now());
    // One new order id per pair, kept across attempts and splits.
    const asks = new Map(groups.map((g) => [g, { id: newId(), buyerId: g.buyerId, collectionId: g.collectionId }]));
    await commitSplitting(
      groups,
      (batch) =>
        repo.buyMany(
          db,
          batch.map((g) => asks.get(g)!),
          now,
        ),
      (batch, results) =>
        Promise.all(
          batch.map(async (g, i) => {
            try {
              const order = await answerBuy(asks.get(g)!, results[i]!, now);
              for (const w of g.waiters) w.resolve(order);
            } catch (err) {
              rejectGroup(g, err);
            }
          }),
        ).then(() => undefined),
      rejectGroup,
    );
  }

  /** The answer of one buy of a batch, from what its statement read and did (see {@link runBuyBatch}). */
  async function answerBuy(ask: repo.BuyAsk, r: repo.BuyResult, now: Date): Promise<Order> {
    const settled = screenBuy(ask.buyerId, r.collection, r.existing);
    if (settled) return settled;
    const c = r.collection!;
    if (r.available < wholePointsToMinor(c.price)) throw errors.insufficientBalance();
    if (r.existing) {
      // A pending order keeps its quote while it stands at the price shown now; a buy without a
      // code drops a code it was priced with (product.md "The price the buyer saw").
      const stands =
        !quoteExpired(r.existing, now.getTime()) &&
        (r.existing.listPrice ?? r.existing.amount) === c.price &&
        r.existing.amount === c.price;
      if (r.existing.discountCodeId === null && stands) return toOrder(r.existing);
      return repriced(r.existing, { amount: c.price, listPrice: c.price, discount: 0, discountCodeId: null });
    }
    if (r.inserted) {
      return toOrder({
        id: ask.id,
        buyerId: ask.buyerId,
        sellerId: c.ownerId,
        collectionId: c.id,
        amount: c.price,
        fee: 0n,
        status: OrderStatus.Pending,
        createdAt: now,
        paidAt: null,
        downloads: 0,
        refundRequestReason: null,
        refundRequestedAt: null,
        refundedAt: null,
        refundReason: null,
        listPrice: c.price,
        discount: 0,
        discountCodeId: null,
        quotedAt: null,
        clearsAt: null,
        clearedAt: null,
        reportedAt: null,
        reportDetails: null,
        reportOutcome: null,
      });
    }
    // Every check passed but another call inserted the pair meanwhile: answer that order.
    const found = await repo.findByBuyerAndCollection(db, ask.buyerId, ask.collectionId);
    if (!found) throw new Error('order vanished');
    return toOrder(found);
  }

  // ---- account/order/pay: the settlement ------------------------------------------------------

  /** A pay request: the caller's user and order. */
  interface PayAsk {
    buyerId: string;
    orderId: string;
    /** Whole points the buyer confirmed (undefined: not sent). */
    confirmed?: number;
  }
  /** The pays of one (buyer, order, confirmed amount) in a batch: they share one outcome. */
  type Group = GroupOf<PayAsk, Order>;
  const queue: Waiter<PayAsk, Order>[] = [];

  /**
   * Takes the next batch off the queue (lib/group-commit.ts): at most `maxBatch` (buyer, order)
   * pairs, and at most one pair per buyer (a buyer's second order waits for the next batch, so its
   * debits stay independent). Repeats of a pair join it; pays of one order share an outcome only when
   * they confirmed the same amount.
   */
  function take(): Group[] {
    return takeBatch(queue, {
      key: (a) => `${a.buyerId}\n${a.orderId}\n${a.confirmed ?? ''}`,
      max: maxBatch,
      exclusive: (a) => a.buyerId,
    });
  }

  /** Batches in flight: at most {@link MAX_IN_FLIGHT}, and at most one of them before its hot phase. */
  let inFlight = 0;
  let coldRunning = false;

  /**
   * Starts the next batch when the queue holds pays, no batch is in its cold phase and fewer than
   * {@link MAX_IN_FLIGHT} run. A batch turns hot when only the sellers' credit, the events, the
   * receipts and COMMIT are left (docs/decisions/0033-purchase-hot-path.md): the next batch then
   * takes its orders' and buyers' locks and writes its rows while the previous one commits, and
   * waits for the collections' and sellers' rows the previous one still holds.
   */
  function drain(): void {
    if (coldRunning || inFlight >= MAX_IN_FLIGHT || !queue.length) return;
    const groups = take();
    inFlight++;
    coldRunning = true;
    let hot = false;
    const turnHot = () => {
      if (hot) return;
      hot = true;
      coldRunning = false;
      drain();
    };
    void runBatch(groups, turnHot).finally(() => {
      inFlight--;
      turnHot();
      drain();
    });
  }

  /**
   * Settles one batch in one transaction and answers its waiters after COMMIT. A deadlock or
   * serialization failure rolls the whole batch back and it is retried (up to 4 attempts); any other
   * database error splits the batch and settles each pair alone, so only the faulty one fails.
   */
  async function runBatch(groups: Group[], turnHot: () => void = () => undefined): Promise<void> {
    await commitSplitting(
      groups,
      (batch) =>
        db.transaction(async (tx) => {
          const receipts: string[] = [];
          const outcomes = await settleMany(tx, batch, receipts, turnHot);
          return { outcomes, receipts };
        }),
      (batch, { outcomes, receipts }) => {
        licences.sendReceipts(receipts);
        batch.forEach((g, i) => {
          const out = outcomes[i]!;
          for (const w of g.waiters) {
            if (out instanceof Error) w.reject(out);
            else w.resolve(out);
          }
        });
      },
      rejectGroup,
    );
  }

  /**
   * The batch's transaction (see the module comment): lock the orders, refuse per pair what cannot
   * be paid, post every payable purchase with ledger.postBatch, and inside it (before the sellers'
   * credit) mark the orders paid, write both records of each and add the collections' sales.
   * @param receipts receives the ids of the receipt mails queued for the purchases that went through
   * (queued before the hot writes; sent after COMMIT)
   * @param turnHot called once only the hot writes are left (the next batch may start, see {@link drain})
   * @returns per group the paid order, or the AppError refusing it
   */
  async function settleMany(
    tx: Tx,
    groups: Group[],
    receipts: string[],
    turnHot: () => void = () => undefined,
  ): Promise<(Order | AppError)[]> {
    receipts.length = 0;
    /** Queues the receipts of the purchases that go through (before the hot writes: they touch no hot row). */
    const queueReceipts = async (sold: Payable[]) => {
      receipts.push(
        ...(await licences.queueReceipts(
          tx,
          sold.flatMap((p) => {
            const r = byId.get(p.order.id)!.receipt;
            // No collection row, no receipt (as the receipts read's inner join did before ADR 0037).
            if (r.title === null) return [];
            return [
              {
                orderId: p.order.id,
                email: r.email,
                deletedAt: r.buyerDeletedAt,
                title: r.title,
                amount: p.order.amount,
                listPrice: p.order.listPrice,
                discount: p.order.discount,
                withKey: withKeys.has(p.order.id),
              },
            ];
          }),
        )),
      );
    };
    const locked = await repo.lockManyForPay(tx, [...new Set(groups.map((g) => g.orderId))]);
    const byId = new Map(locked.map((r) => [r.order.id, r]));
    const withKeys = new Set(locked.filter((r) => r.licenceKeys).map((r) => r.order.id));
    const now = new Date(clock.now());
    const out: (Order | AppError)[] = [];
    interface Payable {
      index: number;
      order: OrderRow;
      price: bigint;
      fee: bigint;
      sellerGets: bigint;
      /** When the seller's proceeds clear (null: credited to `available` at once). */
      clearsAt: Date | null;
    }
    const payable: Payable[] = [];
    groups.forEach((g, index) => {
      const row = byId.get(g.orderId);
      const mismatch = g.confirmed !== undefined && row !== undefined && g.confirmed !== row.order.amount;
      if (!row || row.order.buyerId !== g.buyerId) out[index] = errors.notFound('The order does not exist');
      else if (row.order.status === OrderStatus.Paid) {
        // A paid order is answered unchanged, but never to a buyer who confirmed another amount.
        out[index] = mismatch ? errors.priceChanged(undefined, { amount: row.order.amount }) : toOrder(row.order);
      } else if (row.order.status === OrderStatus.Refunded) out[index] = errors.conflict('This order was refunded');
      else if (row.collectionStatus !== CollectionStatus.Published || row.notForSale) {
        out[index] = errors.conflict('This collection is no longer for sale');
      } else if (quoteExpired(row.order, now.getTime())) out[index] = errors.orderExpired();
      else if (row.collectionPrice !== null && (row.order.listPrice ?? row.order.amount) !== row.collectionPrice) {
        // The seller changed the price since the quote: the order is quoted again by collection/buy.
        out[index] = errors.priceChanged();
      } else if (mismatch) out[index] = errors.priceChanged(undefined, { amount: row.order.amount });
      else {
        const price = wholePointsToMinor(row.order.amount);
        const fee = feeOf(price, deps.feeBps);
        const sellerGets = price - fee;
        const clearsAt = holdMs > 0 && sellerGets > 0n ? new Date(now.getTime() + holdMs) : null;
        payable.push({ index, order: row.order, price, fee, sellerGets, clearsAt });
      }
    });

    // Discount codes: count each use now (guarded by the code's limits), in code-id order so two
    // batches lock the codes' rows in the same order; a refused claim refuses that purchase alone.
    const claims = payable.filter((p) => p.order.discountCodeId !== null);
    claims.sort((a, b) =>
      a.order.discountCodeId! < b.order.discountCodeId! ? -1 : a.order.discountCodeId! > b.order.discountCodeId! ? 1 : 0,
    );
    const refusedClaims = new Set<number>();
    for (const p of claims) {
      const refusal = await discounts.claim(tx, p.order.discountCodeId!, p.order.buyerId, p.order.id, now);
      if (refusal) {
        out[p.index] = refusal;
        refusedClaims.add(p.index);
      }
    }
    if (refusedClaims.size) payable.splice(0, payable.length, ...payable.filter((p) => !refusedClaims.has(p.index)));

    // The non-hot writes of the purchases that go through, then the collections' counters (hot).
    const write = async (ok: Payable[], counted: Payable[]) => {
      await licences.issue(
        tx,
        ok
          .filter((p) => withKeys.has(p.order.id))
          .map((p) => ({ orderId: p.order.id, collectionId: p.order.collectionId, buyerId: p.order.buyerId })),
        now,
      );
      await repo.markPaidMany(
        tx,
        ok.map((p) => ({ id: p.order.id, fee: p.fee, clearsAt: p.clearsAt })),
        now,
      );
      await records.writeMany(
        ok.flatMap((p) => [
          {
            userId: p.order.buyerId,
            bizId: p.order.id,
            type: RecordType.Purchase,
            direction: Direction.Outgoing,
            amount: p.price,
            status: RecordStatus.Success,
            createdAt: now.getTime(),
          },
          {
            userId: p.order.sellerId,
            bizId: p.order.id,
            type: RecordType.Sale,
            direction: Direction.Incoming,
            amount: p.sellerGets,
            status: RecordStatus.Success,
            createdAt: now.getTime(),
          },
        ]),
        tx,
      );
      const sales = new Map<string, { id: string; count: number; earned: bigint }>();
      for (const p of counted) {
        const cur = sales.get(p.order.collectionId) ?? { id: p.order.collectionId, count: 0, earned: 0n };
        cur.count += 1;
        cur.earned += p.sellerGets;
        sales.set(p.order.collectionId, cur);
      }
      await collections.recordSales([...sales.values()], tx);
      for (const p of ok) {
        out[p.index] = toOrder({ ...p.order, status: OrderStatus.Paid, paidAt: now, fee: p.fee, clearsAt: p.clearsAt });
      }
    };
    // One `sale` event per purchase that went through (not a replay), after every balance lock of
    // the batch, so the sellers' event counters are the last rows it locks (ADR 0025).
    const emitSales = (sold: Payable[]) =>
      events.append(
        tx,
        sold.map((p) =>
          saleEvent({
            orderId: p.order.id,
            sellerId: p.order.sellerId,
            buyerId: p.order.buyerId,
            collectionId: p.order.collectionId,
            amount: p.order.amount,
            fee: p.fee,
            earned: p.sellerGets,
            clearsAt: p.clearsAt?.getTime() ?? null,
          }),
        ),
      );

    const free = payable.filter((p) => p.price === 0n);
    const priced = payable.filter((p) => p.price > 0n);
    if (!priced.length) {
      await write(free, free);
      await queueReceipts(free);
      turnHot();
      await emitSales(free);
      return out;
    }
    let sold: Payable[] = [];
    await ledger.postBatch(
      tx,
      priced.map((p) => ({
        key: `purchase:${p.order.id}`,
        kind: LedgerTransactionKind.Purchase,
        bizId: p.order.id,
        debit: { userId: p.order.buyerId, amount: p.price },
        credits: [
          // Inside the hold the proceeds go to the seller's `pending` account (product.md "Clearance").
          ...(p.sellerGets > 0n
            ? [
                {
                  account: { userId: p.order.sellerId, kind: p.clearsAt ? ('pending' as const) : ('available' as const) },
                  amount: p.sellerGets,
                },
              ]
            : []),
          ...(p.fee > 0n ? [{ account: { platform: 'fees' as const }, amount: p.fee }] : []),
        ],
      })),
      async (outcomes) => {
        const posted = priced.filter((_, i) => outcomes[i] === 'posted');
        // A key posted before (never while the order is pending, as both change in one
        // transaction) marks the order paid without charging or counting again.
        const replayed = priced.filter((_, i) => outcomes[i] === 'replayed');
        priced.forEach((p, i) => {
          if (outcomes[i] === 'insufficient') out[p.index] = errors.insufficientBalance();
        });
        // A refused debit gives back the discount use its purchase counted above.
        for (const [i, p] of priced.entries()) {
          if (outcomes[i] === 'insufficient' && p.order.discountCodeId) {
            await discounts.release(tx, p.order.discountCodeId, p.order.buyerId);
          }
        }
        sold = [...free, ...posted];
        await write([...free, ...posted, ...replayed], sold);
        await queueReceipts(sold);
        turnHot();
      },
    );
    await emitSales(sold);
    return out;
  }

  /** Queues a settlement and starts a batch unless one is in its cold phase (see {@link drain}). */
  function settle(buyerId: string, orderId: string, confirmed?: number): Promise<Order> {
    return new Promise<Order>((resolve, reject) => {
      queue.push({ input: { buyerId, orderId, confirmed }, resolve, reject });
      drain();
    });
  }

  return {
    /**
     * The buyer's order for a collection, created on the first call (status OrderStatusPending) and
     * the same order on every repeat (also once paid, whatever the collection's status now).
     * @throws NOT_FOUND (no such collection, or unpublished and not the caller's), FORBIDDEN (own
     * collection), CONFLICT (archived or deleted), INSUFFICIENT_BALANCE (available < price)
     */
    async buy(buyerId: string, collectionId: string, code?: string): Promise<Order> {
      // Without a code, the buy joins the next group-committed batch of buys (one statement).
      if (!code) return queueBuy(buyerId, collectionId);
      // One read (the collection, the buyer's order, the balance), then the insert when needed.
      const { collection: c, existing, available } = await repo.buyView(db, buyerId, collectionId);
      const settled = screenBuy(buyerId, c, existing);
      if (settled) return settled;
      // With a code, the order is priced by it (product §28); its use is counted when paid.
      const q = await discounts.quote(buyerId, c!, code);
      const pricing = { amount: q.amount, listPrice: q.listPrice, discount: q.discount, discountCodeId: q.codeId };
      if (available < wholePointsToMinor(pricing.amount)) throw errors.insufficientBalance();
      if (existing) {
        // A pending order keeps its quote unless this buy adds or changes a code, the list price
        // moved or the quote lapsed.
        const stands =
          existing.discountCodeId === q.codeId &&
          existing.amount === q.amount &&
          (existing.listPrice ?? existing.amount) === q.listPrice &&
          !quoteExpired(existing, clock.now());
        if (stands) return toOrder(existing);
        return repriced(existing, pricing);
      }
      const order = {
        id: newId(),
        buyerId,
        sellerId: c!.ownerId,
        collectionId: c!.id,
        ...pricing,
        status: OrderStatus.Pending,
        createdAt: new Date(clock.now()),
      };
      // One statement, the same on a repeat (ON CONFLICT DO NOTHING): a deadlock of its foreign-key
      // checks with another instance's locks is retried (up to 4 attempts), never a 500.
      return toOrder(await retryTransient(() => repo.insertOrGet(db, order)));
    },

    /**
     * Settles the caller's order in one database transaction (see the module comment), after the
     * step-up for spending (product.md "Step-up", SessionsService.authorizeSpend): an order of more
     * than 0 points needs a session that stepped up in the last STEP_UP_MINUTES, or a right
     * `password` (two-factor off) or `code` (two-factor on) with this call.
     * @param input `password` (MD5 digest; always checked when present), `code`, and `amount`: the
     * whole points the buyer confirmed (a different order amount charges nothing)
     * @returns the paid order (a paid order unchanged)
     * @throws NOT_FOUND (not the caller's order), STEP_UP_REQUIRED, INVALID_CREDENTIALS (wrong
     * password or code), RATE_LIMITED, CONFLICT (no longer for sale, refunded), PRICE_CHANGED,
     * ORDER_EXPIRED, INSUFFICIENT_BALANCE
     */
    async pay(auth: PayAuth, orderId: string, input: PayInput = {}): Promise<Order> {
      const buyerId = auth.userId;
      if (input.password || input.code || !accounts.isSteppedUp(auth)) {
        // The cheap refusals come first, so no answer tells a right password from a wrong one
        // (docs/abuse.md); `settle` checks all of them again under the order's lock.
        const order = await repo.findById(db, orderId);
        if (!order || order.buyerId !== buyerId) throw errors.notFound('The order does not exist');
        if (order.status !== OrderStatus.Paid) {
          const c = await collections.find(order.collectionId);
          if (!c || c.status !== CollectionStatus.Published || c.hiddenAt) {
            throw errors.conflict('This collection is no longer for sale');
          }
          const { available } = await ledger.balances(buyerId);
          if (available < wholePointsToMinor(order.amount)) throw errors.insufficientBalance();
        }
        // Nothing moves for a free or settled order: only a sent password is still checked.
        if (order.status === OrderStatus.Pending && order.amount > 0) await accounts.authorizeSpend(auth, input);
        else if (input.password) await accounts.checkPassword(buyerId, input.password);
      }
      return settle(buyerId, orderId, input.amount);
    },
  };
}

/** The purchase service: `buy` (collection/buy) and `pay` (account/order/pay). */
export type PurchaseService = ReturnType<typeof createPurchaseService>;

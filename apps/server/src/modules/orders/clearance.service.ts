/**
 * Clearance (product.md "Clearance", docs/decisions/0045-clearance-and-step-up.md): a sale's proceeds
 * wait EARNINGS_HOLD_DAYS in the seller's `pending` ledger account (set by the pay batch,
 * purchase.service.ts: `clears_at`); clearing moves them to `available`. SQL: clearance.repository.ts.
 *
 * `clearDue` is the `clearance` worker's pass (services.ts): transactions of up to
 * {@link CLEARANCE_BATCH} due orders claimed `FOR UPDATE SKIP LOCKED` (any number of instances may run
 * it at once), each retried on a deadlock or serialization failure (lib/group-commit.ts
 * `retryTransient`). Per order ONE ledger transaction `clear:<order id>` (kind `clear`: the seller's
 * pending -> available, amount * 100 - fee minor units, through `wholePointsToMinor`), `cleared_at`,
 * and a `sale.cleared` event. An order with an open "This wasn't me" report waits (refunds.service.ts).
 *
 * Units: order `amount` whole points; `fee` and ledger amounts bigint minor units; times epoch ms.
 * Errors: none of its own (the database's and the ledger's are thrown as they are).
 */
import { wholePointsToMinor } from '@coffer/contract';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { retryTransient } from '../../lib/group-commit';
import { saleClearedEvent, type EventWriter } from '../events/events.service';
import { LedgerTransactionKind, type LedgerService } from '../ledger/ledger.service';
import * as repo from './clearance.repository';

export interface ClearanceDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  /** Writes the seller's `sale.cleared` events in the clearing transaction (product §23). */
  events: EventWriter;
}

/** Most orders a clearance pass settles in one database transaction. */
export const CLEARANCE_BATCH = 100;

/** Builds the clearance service; see the module comment. */
export function createClearanceService(deps: ClearanceDeps) {
  const { db, clock, ledger, events } = deps;

  /** Runs `fn` in a transaction, again (up to 4 attempts) after a deadlock or serialization failure. */
  function inTx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return retryTransient(() => db.transaction(fn));
  }

  /**
   * Clears due proceeds (product.md "Clearance", docs/decisions/0045-clearance-and-step-up.md): in
   * transactions of up to {@link CLEARANCE_BATCH} orders claimed `FOR UPDATE SKIP LOCKED` (so any
   * number of instances may run it at once), each order's seller proceeds (amount * 100 - fee, minor
   * units) move pending -> available in one posting keyed `clear:<order id>` (a replay changes
   * nothing), the order gets `cleared_at` and the seller a `sale.cleared` event. Orders with an open
   * "This wasn't me" report wait. Runs until no due order is left or `signal` aborts.
   * @returns the number of orders cleared
   */
  async function clearDue(signal?: AbortSignal): Promise<number> {
    let total = 0;
    for (;;) {
      if (signal?.aborted) return total;
      const n = await inTx(async (tx) => {
        const now = new Date(clock.now());
        const due = await repo.claimDueClearances(tx, now, CLEARANCE_BATCH);
        for (const row of due) {
          const earned = wholePointsToMinor(row.amount) - row.fee;
          if (earned <= 0n) continue;
          await ledger.post(
            {
              key: `clear:${row.id}`,
              kind: LedgerTransactionKind.Clear,
              bizId: row.id,
              entries: [
                { account: { userId: row.sellerId, kind: 'pending' }, amount: -earned },
                { account: { userId: row.sellerId, kind: 'available' }, amount: earned },
              ],
            },
            tx,
          );
        }
        await repo.markCleared(
          tx,
          due.map((r) => r.id),
          now,
        );
        await events.append(
          tx,
          due.map((r) =>
            saleClearedEvent({
              orderId: r.id,
              sellerId: r.sellerId,
              collectionId: r.collectionId,
              earned: wholePointsToMinor(r.amount) - r.fee,
            }),
          ),
        );
        return due.length;
      });
      total += n;
      if (n < CLEARANCE_BATCH) return total;
    }
  }

  /**
   * Sandbox only (`/api/dev/sandbox/clear`, PAYMENTS=sandbox): the seller's pending proceeds clear
   * now instead of after the hold, through the same job and postings (product.md §30).
   * @returns `{cleared}`: how many of the seller's sales cleared
   */
  async function clearNowForSeller(sellerId: string): Promise<{ cleared: number }> {
    const due = await repo.makeDueNow(db, sellerId, new Date(clock.now()));
    if (due) await clearDue();
    return { cleared: due };
  }

  /** When the seller's next pending proceeds clear (ms), or null (assets, product.md "Clearance"). */
  function nextClearance(sellerId: string): Promise<number | null> {
    return repo.nextClearance(db, sellerId);
  }

  /** When any pending proceeds clear next (ms), or null: the clearance worker's next wake-up. */
  function nextClearanceOverall(): Promise<number | null> {
    return repo.nextClearanceOverall(db);
  }

  return { clearDue, clearNowForSeller, nextClearance, nextClearanceOverall };
}

/** The clearance service: the job, its sandbox shortcut and when proceeds clear next. */
export type ClearanceService = ReturnType<typeof createClearanceService>;

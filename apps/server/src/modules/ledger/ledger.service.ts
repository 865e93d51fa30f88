/**
 * The points ledger (DESIGN 4): double-entry, idempotent, one database transaction per business event.
 *
 * Every points movement calls {@link LedgerService.post} inside the same database transaction as the
 * state change it pays for. Amounts are bigint minor units (hundredths of a point).
 *
 * Rules:
 * - a posting's entries sum to zero, each is non-zero, at least two (else `Error` before any SQL);
 * - the idempotency key is unique: the same key again returns the first transaction and changes nothing,
 *   also when posted concurrently from many connections (the unique index arbitrates);
 * - user accounts (available, frozen) are updated in a fixed order (by account id) so concurrent
 *   postings cannot deadlock, and a database CHECK keeps them >= 0: a debit beyond the balance throws
 *   `AppError(INSUFFICIENT_BALANCE)` and the caller's transaction rolls back;
 * - platform accounts (deposits, withdrawals, fees) keep no stored balance row updates — their balance
 *   is the sum of their entries — so they never become a lock hot spot.
 */
import type { Db, DbOrTx, Tx } from '../../db/client';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { findPgError, PG } from '../../lib/pg-errors';
import * as repo from './ledger.repository';
import type { PlatformAccountKind, UserAccountKind } from './ledger.repository';

export type AccountRef = { userId: string; kind: UserAccountKind } | { platform: PlatformAccountKind };

export interface Posting {
  account: AccountRef;
  /** Signed minor units: + credits the account, - debits it. */
  amount: bigint;
}

export interface PostInput {
  /** Idempotency key, e.g. `deposit:<bill id>`, `purchase:<order id>`. */
  key: string;
  /** Event kind, e.g. 'deposit', 'withdraw_freeze', 'purchase'. */
  kind: string;
  /** The bill or order id the event belongs to. */
  bizId: string;
  postings: Posting[];
  /**
   * A hot user account (e.g. a seller's `available`) to update after every other balance and after
   * the entries, so its row lock is held only until the caller commits (it must be the account of one
   * of the postings; otherwise it is ignored). Breaks the id order for that
   * one account: callers that use it retry on a deadlock (see docs/decisions/0004-purchase-order.md).
   */
  applyLast?: AccountRef;
  /**
   * Runs in the transaction after the entries and just before the `applyLast` update, so that the
   * caller's own hot rows (e.g. a collection's sales counters) are locked as late as possible too.
   */
  beforeLast?: () => Promise<void>;
}

export interface PostResult {
  transactionId: string;
  /** True when the key had been posted before and nothing changed now. */
  replayed: boolean;
}

/** Throws unless the postings are a valid double entry. */
export function assertBalanced(postings: Posting[]): void {
  if (postings.length < 2) throw new Error('A ledger transaction needs at least two entries');
  let sum = 0n;
  for (const p of postings) {
    if (typeof p.amount !== 'bigint') throw new Error('Ledger amounts must be bigint minor units');
    if (p.amount === 0n) throw new Error('A ledger entry cannot be zero');
    sum += p.amount;
  }
  if (sum !== 0n) throw new Error(`Ledger entries must sum to zero (sum ${sum})`);
}

export function createLedgerService(deps: { db: Db }) {
  const platformIds = new Map<PlatformAccountKind, string>();

  async function accountId(tx: DbOrTx, ref: AccountRef): Promise<string> {
    if ('platform' in ref) {
      let id = platformIds.get(ref.platform);
      if (!id) {
        id = await repo.ensurePlatformAccount(tx, ref.platform);
        platformIds.set(ref.platform, id);
      }
      return id;
    }
    const ids = await repo.ensureUserAccounts(tx, ref.userId);
    return ids[ref.kind];
  }

  async function postIn(tx: DbOrTx, input: PostInput): Promise<PostResult> {
    const transactionId = newId();
    const inserted = await repo.insertTransaction(tx, {
      id: transactionId,
      idempotencyKey: input.key,
      kind: input.kind,
      bizId: input.bizId,
    });
    if (!inserted) {
      const existing = await repo.findTransactionByKey(tx, input.key);
      if (!existing) throw new Error(`ledger key ${input.key} vanished`);
      return { transactionId: existing.id, replayed: true };
    }
    // Merge postings per account, resolve ids, then touch user balances in id order.
    const resolved: { accountId: string; amount: bigint; isUser: boolean }[] = [];
    for (const p of input.postings) {
      resolved.push({ accountId: await accountId(tx, p.account), amount: p.amount, isUser: !('platform' in p.account) });
    }
    const perAccount = new Map<string, { amount: bigint; isUser: boolean }>();
    for (const r of resolved) {
      const cur = perAccount.get(r.accountId);
      perAccount.set(r.accountId, { amount: (cur?.amount ?? 0n) + r.amount, isUser: r.isUser });
    }
    const ordered = [...perAccount.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const last = input.applyLast;
    const lastIdx =
      last && !('platform' in last)
        ? input.postings.findIndex(
            (p) => !('platform' in p.account) && p.account.userId === last.userId && p.account.kind === last.kind,
          )
        : -1;
    const lastId = lastIdx >= 0 ? resolved[lastIdx]!.accountId : null;
    const apply = async (ids: typeof ordered) => {
      try {
        for (const [id, { amount, isUser }] of ids) {
          if (isUser && amount !== 0n) await repo.applyToBalance(tx, id, amount);
        }
      } catch (err) {
        if (findPgError(err, [PG.CHECK_VIOLATION])) throw errors.insufficientBalance();
        throw err;
      }
    };
    await apply(ordered.filter(([id]) => id !== lastId));
    await repo.insertEntries(tx, transactionId, resolved);
    if (input.beforeLast) await input.beforeLast();
    await apply(ordered.filter(([id]) => id === lastId));
    return { transactionId, replayed: false };
  }

  return {
    /**
     * Posts one balanced ledger transaction.
     * @param input key, kind, bizId and postings (bigint minor units summing to zero)
     * @param tx the caller's open transaction; without it the posting runs in its own
     * @throws Error when the postings are not balanced (before any SQL)
     * @throws AppError INSUFFICIENT_BALANCE when a user account would go below zero
     */
    async post(input: PostInput, tx?: Tx): Promise<PostResult> {
      assertBalanced(input.postings);
      if (tx) return postIn(tx, input);
      return deps.db.transaction((t) => postIn(t, input));
    },

    /** Moves `amount` minor units from the user's available to frozen (key e.g. `freeze:<bill>`). */
    freeze(userId: string, amount: bigint, key: string, bizId: string, tx?: Tx) {
      return this.post(
        {
          key,
          kind: 'freeze',
          bizId,
          postings: [
            { account: { userId, kind: 'available' }, amount: -amount },
            { account: { userId, kind: 'frozen' }, amount },
          ],
        },
        tx,
      );
    },

    /** Moves `amount` minor units back from frozen to available. */
    unfreeze(userId: string, amount: bigint, key: string, bizId: string, tx?: Tx) {
      return this.post(
        {
          key,
          kind: 'unfreeze',
          bizId,
          postings: [
            { account: { userId, kind: 'frozen' }, amount: -amount },
            { account: { userId, kind: 'available' }, amount },
          ],
        },
        tx,
      );
    },

    /** Creates the user's ledger accounts (called at registration). */
    async openUserAccounts(userId: string, tx?: DbOrTx): Promise<void> {
      await repo.ensureUserAccounts(tx ?? deps.db, userId);
    },

    /** The user's balances in minor units. */
    balances(userId: string, tx?: DbOrTx): Promise<{ available: bigint; frozen: bigint }> {
      return repo.userBalances(tx ?? deps.db, userId);
    },
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
